// Issue 23, item 8: four LAN addresses holding eight sockets each that never authenticate took all 32 waiting places,
// and a paired 3.x world reconnecting with its token got 503. Expected: places kept for this computer and for the
// addresses and Foundry pages of paired worlds; IPv6 counted per /64, since one machine holds a whole /64.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UNAUTHENTICATED_PER_ADDRESS, MAX_UNAUTHENTICATED_SOCKETS } from '../../relay/gate/socket-limits.ts';
import { connectRawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer } from '../ui/lan-peer.ts';
import { RemoteSockets } from './remote-sockets.ts';

const CLIENT_ID = 'fvtt_item29world00';
const FOUNDRY = 'http://192.0.2.10:30000';
const STRANGER_ADDRESSES = MAX_UNAUTHENTICATED_SOCKETS / MAX_UNAUTHENTICATED_PER_ADDRESS;
// Four strangers, a fifth, the GM's other machine and a machine the world's page moved to.
const peer = await createLanPeer({ machines: STRANGER_ADDRESSES + 3, ipv6: true });

describe.skipIf(!peer)('item 29: places for sockets waiting to authenticate', () => {
  let relay: TestRelay;
  let remote: RemoteSockets;
  let token: string;
  const urlOn = (host: string, path: string) =>
    `ws://${host.includes(':') ? `[${host}]` : host}:${relay.relay.port}${path}`;

  beforeAll(async () => {
    // Every address, IPv6 included, so the peer's IPv4 and IPv6 addresses both reach it.
    [relay, remote] = await Promise.all([
      startTestRelay({ host: '::', authTimeoutMs: 60_000 }),
      RemoteSockets.start(peer!),
    ]);
    ({ token } = relay.relay.services.connectionTokens.issue(CLIENT_ID, 'Item 29 world', 'pairing', FOUNDRY));
  }, 30_000);

  afterAll(async () => {
    await remote?.stop();
    await relay?.close();
    await peer?.close();
  });

  /** Opens the world's socket from the peer and authenticates it with its token; resolves once the world is connected. */
  async function worldFromPeer(localAddress: string, origin?: string): Promise<void> {
    const id = remote.open(urlOn(peer!.hostAddress, `/relay?id=${CLIENT_ID}`), { localAddress, origin });
    expect(await remote.outcome(id)).toBe('open');
    remote.send(id, { type: 'auth', token });
    await remote.message(id, (message) => message.type === 'auth-success');
    remote.close(id);
    await waitUntil(() => relay.relay.services.tabletop.world(CLIENT_ID) === undefined);
  }

  it('lets a paired world back in while strangers on four LAN addresses hold every other place', async () => {
    const gmMachine = peer!.peerAddresses[STRANGER_ADDRESSES + 1]!;
    const movedPage = peer!.peerAddresses[STRANGER_ADDRESSES + 2]!;
    // The world connected once from the GM's machine on the LAN.
    await worldFromPeer(gmMachine, FOUNDRY);

    const strangers = peer!.peerAddresses
      .slice(0, STRANGER_ADDRESSES)
      .flatMap((localAddress) =>
        Array.from({ length: MAX_UNAUTHENTICATED_PER_ADDRESS }, () =>
          remote.open(urlOn(peer!.hostAddress, '/relay?id=fvtt_stranger'), { localAddress }),
        ),
      );
    expect(await Promise.all(strangers.map((id) => remote.outcome(id)))).toEqual(strangers.map(() => 'open'));
    const fifth = remote.open(urlOn(peer!.hostAddress, '/ws/api'), {
      localAddress: peer!.peerAddresses[STRANGER_ADDRESSES],
    });
    expect(await remote.outcome(fifth)).toMatchObject({
      status: 503,
      error: expect.stringMatching(/waiting to authenticate/),
    });

    // From this computer, e.g. the GM's own Foundry tab.
    const local = await connectRawWorld(relay.wsUrl, CLIENT_ID, token);
    expect(relay.relay.services.tabletop.world(CLIENT_ID)?.open).toBe(true);
    local.close();
    await waitUntil(() => relay.relay.services.tabletop.world(CLIENT_ID) === undefined);
    // From the address it connected from before, with its token, as a non-browser.
    await worldFromPeer(gmMachine);
    // From its Foundry page, opened on a machine it never connected from.
    await worldFromPeer(movedPage, FOUNDRY);
    // A stranger that is none of these still waits outside.
    const another = remote.open(urlOn(peer!.hostAddress, '/relay?id=fvtt_stranger'), {
      localAddress: peer!.peerAddresses[STRANGER_ADDRESSES],
    });
    expect(await remote.outcome(another)).toMatchObject({ status: 503 });
    for (const id of strangers) remote.close(id);
  }, 30_000);

  it(`counts an IPv6 /64 as one address: ${MAX_UNAUTHENTICATED_PER_ADDRESS} waiting sockets in all from its addresses`, async () => {
    // A relay of its own: the strangers of the test before may still be leaving the other one's places.
    const own = await startTestRelay({ host: '::', authTimeoutMs: 60_000 });
    const [first, second] = peer!.peerIpv6Addresses;
    const url = `ws://[${peer!.hostIpv6Address}]:${own.relay.port}/ws/api`;
    const held = Array.from({ length: MAX_UNAUTHENTICATED_PER_ADDRESS }, () =>
      remote.open(url, { localAddress: first }),
    );
    expect(await Promise.all(held.map((id) => remote.outcome(id)))).toEqual(held.map(() => 'open'));

    const sibling = remote.open(url, { localAddress: second });
    expect(await remote.outcome(sibling)).toMatchObject({
      status: 503,
      error: expect.stringMatching(/from this address/),
    });
    for (const id of held) remote.close(id);
    await own.close();
  }, 30_000);
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
