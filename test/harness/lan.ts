// Calls from other machines on the LAN: the LAN peer's addresses (test/ui/lan-peer.ts) reaching a test relay with LAN
// access on, as a stranger's computer or a player's would.
import type { LanPeer, PeerAnswer, PeerRequest } from '../ui/lan-peer.ts';
import type { TestRelay } from './relay.ts';

/** A call from the LAN: `path` on the relay's LAN address, from one of the peer's addresses. */
export type LanCall = Omit<PeerRequest, 'url'> & { path: string };

/** Switches LAN access; the admin API answers once the relay listens where the setting says. */
export async function setLanAccess(relay: TestRelay, on: boolean): Promise<void> {
  const answer = await relay.admin('PATCH', '/admin/settings', { lanAccess: on });
  if (answer.status !== 200) throw new Error(`LAN access could not be switched: ${answer.text}`);
}

/** The relay's base URL as the peer reaches it. */
export function lanBaseUrl(relay: TestRelay, peer: LanPeer): string {
  return `http://${peer.hostAddress}:${relay.relay.port}`;
}

/** Sends the calls from the peer in order, LAN access on; what each got back. */
export function fromLan(relay: TestRelay, peer: LanPeer, calls: readonly LanCall[]): Promise<PeerAnswer[]> {
  const base = lanBaseUrl(relay, peer);
  return peer.requests(calls.map(({ path, ...call }) => ({ ...call, url: `${base}${path}` })));
}
