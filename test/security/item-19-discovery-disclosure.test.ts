// Threat: the LAN discovery (the mDNS advertisement and GET /.well-known/tabletop-relay) tells a stranger more than
// where the relay is: which worlds the GM runs, a key or token, the computer's addresses on other networks; or the
// relay is advertised while the GM has not opened it to the LAN.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { discoveryRoutes } from '../../relay/api/discovery.ts';
import type { LocalRoute } from '../../relay/routing/route.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';

let relay: WorldHarness;
let peer: LanPeer | undefined;

beforeAll(async () => {
  [relay, peer] = await Promise.all([startRelayWithWorld(), createLanPeer()]);
}, 30_000);

afterAll(async () => {
  await relay?.close();
  await peer?.close();
});

/** The UDP sockets this process holds on the mDNS port: the relay under test runs in it. */
function mdnsSocketsOfThisProcess(): string[] {
  const sockets = execFileSync('ss', ['-H', '-uanp', 'sport = :5353'], { encoding: 'utf8' });
  return sockets.split('\n').filter((line) => line.includes(`pid=${process.pid},`));
}

/** The well-known document as the route answers a caller at `remoteAddress`. */
async function documentFor(remoteAddress: string): Promise<any> {
  const route = discoveryRoutes[0] as LocalRoute;
  const call = { transport: 'http', remoteAddress, relayOrigin: relay.baseUrl, header: () => undefined };
  const answer = (await route.handle({ parameters: {}, call, services: relay.relay.services } as never)) as {
    body: unknown;
  };
  return answer.body;
}

describe('item 19: what LAN discovery reveals', () => {
  it('the well-known document names no world, key, token or user', async () => {
    const world = relay.relay.services.knownWorlds.list().find((known) => known.clientId === relay.clientId)!;
    expect(world.worldTitle).toBeTruthy();
    const secrets = [
      relay.clientId,
      world.worldId,
      world.worldTitle,
      world.systemTitle,
      relay.key,
      relay.relay.adminToken,
      ...relay.relay.services.keys.list().map((key) => key.id),
      ...relay.relay.services.connectionTokens.list().map((token) => token.id),
    ].filter((value): value is string => typeof value === 'string' && value.length > 0);

    const answer = await relay.api(undefined, 'GET', '/.well-known/tabletop-relay');
    expect(answer.status).toBe(200);
    for (const secret of secrets) expect(answer.text).not.toContain(secret);
  });

  it('tells a caller on the LAN only the relay’s address on the caller’s own network', async () => {
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    try {
      const everyUrl = relay.relay.services.network.lanUrls();
      expect((await documentFor('127.0.0.1')).lan.urls).toEqual(everyUrl);
      // An address on none of this computer's networks (a routed or forwarded caller) is told none of them.
      expect((await documentFor('203.0.113.9')).lan.urls).toEqual([]);
      if (peer) {
        const fromPeer = await peer.get(`http://${peer.hostAddress}:${relay.relay.port}/.well-known/tabletop-relay`);
        expect(fromPeer.status).toBe(200);
        expect(JSON.parse(fromPeer.body).lan.urls).toEqual([`http://${peer.hostAddress}:${relay.relay.port}`]);
        expect(everyUrl.length).toBeGreaterThan(1);
      }
    } finally {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    }
  });

  it('nothing is advertised, and no mDNS socket is open, while LAN access is off', async () => {
    expect(mdnsSocketsOfThisProcess()).toEqual([]);
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    await expect.poll(mdnsSocketsOfThisProcess).not.toEqual([]);
    await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    await expect.poll(mdnsSocketsOfThisProcess).toEqual([]);
  });
});
