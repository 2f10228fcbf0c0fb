// Threat: the LAN discovery (the mDNS advertisement and GET /.well-known/tabletop-relay) tells a stranger more than
// where the relay is: which worlds the GM runs, a key or token, the computer's addresses on other networks; or the
// relay is advertised while the GM has not opened it to the LAN.
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { discoveryRoutes } from '../../relay/api/discovery.ts';
import { DiscoveryAdvertiser } from '../../relay/discovery/advertiser.ts';
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

  it('answers no query from off its networks: what a routed or far-away sender asks gets nothing back', async () => {
    // mDNS is link-local (RFC 6762 §11): a query whose sender is on none of this computer's networks came through a
    // router, a VPN or a forged address, and must not learn the relay, its port or an address of this computer.
    const computerName = `item-19-${process.pid}`;
    const mdnsPort = await freeUdpPort();
    const advertiser = new DiscoveryAdvertiser({
      log: { info: () => {}, warn: () => {}, error: () => {} },
      interfaces: () => [{ address: '127.0.0.1', netmask: '255.255.255.255' }],
      computerName,
      mdnsPort,
    });
    try {
      await advertiser.advertise(41_019);
      // It answers once it has probed for its names (item 37), within a second or so.
      await expect.poll(() => answeredFrom('127.0.0.1', mdnsPort, computerName), { timeout: 5000 }).toBe(true);
      for (const stranger of ['127.0.0.19', '127.1.2.3'])
        expect(await answeredFrom(stranger, mdnsPort, computerName), stranger).toBe(false);
    } finally {
      await advertiser.withdraw();
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

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/** Asks the advertiser on `mdnsPort` for its service, as a DNS resolver at `source` would; true when it answered. */
async function answeredFrom(source: string, mdnsPort: number, computerName: string): Promise<boolean> {
  const resolver = createSocket('udp4');
  try {
    await new Promise<void>((resolve) => resolver.bind(0, source, resolve));
    const answered = new Promise<boolean>((resolve) => {
      resolver.on('message', (message) => message.includes(Buffer.from(computerName)) && resolve(true));
      setTimeout(() => resolve(false), 1000);
    });
    const labels = '_tabletop-relay._tcp.local'
      .split('.')
      .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
    const question = Buffer.concat([...labels, Buffer.from([0, 0, 12, 0, 1])]);
    const header = Buffer.from([0x12, 0x34, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    resolver.send(Buffer.concat([header, question]), mdnsPort, '127.0.0.1');
    return await answered;
  } finally {
    resolver.close();
  }
}
