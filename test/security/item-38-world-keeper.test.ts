// Item 38: a world keeper logs a full Gamemaster into a page of the relay's browser. Only the GM may switch it on; its
// token opens /relay from this computer only; its page goes nowhere but the world's Foundry; its password never comes
// back out.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../contracts/world-protocol.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';
import { CLIENT_ID, KEEPER_PASSWORD, keepOnline, startKeeperHarness, type KeeperHarness } from '../keeper/harness.ts';

let harness: KeeperHarness;
let peer: LanPeer | undefined;
beforeAll(async () => {
  // The peer's network first: the relay listens on the LAN addresses there are when LAN access is switched on.
  peer = await createLanPeer();
  harness = await startKeeperHarness({ relay: { settings: { lanAccess: true }, keeperTiming: { graceMs: 200 } } });
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await peer?.close();
});

/**
 * A Foundry that is not: its login page tries to send the browser elsewhere and to open a window there (`scripted`), or
 * its login answer redirects there.
 */
async function hostileFoundry(elsewhere: string, scripted: boolean): Promise<Server> {
  const script = `<script>window.open(${JSON.stringify(`${elsewhere}/popup`)}); location.href = ${JSON.stringify(`${elsewhere}/leak`)};</script>`;
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'success', redirect: `${elsewhere}/after-login` }));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<select name="userid"><option value="gm">Gamemaster</option></select><input name="password">${scripted ? script : ''}`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('item 38: a world keeper', () => {
  it('is switched on by the GM only: an API key is refused, whatever its scopes', async () => {
    for (const path of [`/admin/worlds/${CLIENT_ID}`, `/admin/worlds/${CLIENT_ID}/keeper-test`]) {
      const answer = await harness.relay.api(harness.key, path.endsWith('test') ? 'POST' : 'PATCH', path, {
        body: { keepOnline: true, keeperUsername: 'Gamemaster', keeperPassword: KEEPER_PASSWORD },
      });
      expect(answer.status, path).toBe(401);
    }
    expect((await harness.keeper()).enabled).toBe(false);
  });

  it('never shows its password back, and stores it sealed', async () => {
    const answer = await keepOnline(harness, { foundryAdminPassword: 'admin-secret-value' });
    expect(answer.status).toBe(200);
    const listed = await harness.relay.admin('GET', '/admin/worlds');
    const status = await harness.relay.admin('GET', '/admin/status');
    const stored = readFileSync(join(harness.relay.dataDir, 'keepers.json'), 'utf8');
    for (const text of [JSON.stringify(answer.body), listed.text, status.text, stored]) {
      expect(text).not.toContain(KEEPER_PASSWORD);
      expect(text).not.toContain('admin-secret-value');
    }
    await harness.untilPhase('kept', 15_000);
    await harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { keepOnline: false });
  });

  it('holds a token that opens /relay from this computer only: from the LAN it is refused with 1008', async () => {
    if (!peer) return expect(process.env.CI, 'CI must make the LAN peer').toBeUndefined();
    const { token } = harness.relay.relay.services.connectionTokens.issue(CLIENT_ID, 'World keeper: test', 'keeper');
    const url = `ws://${peer.hostAddress}:${harness.relay.relay.port}/relay?id=${CLIENT_ID}`;
    const program = peer.node([
      '-e',
      `const socket = new WebSocket(process.argv[1]);
       socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: process.argv[2] }));
       socket.onclose = (event) => console.log(JSON.stringify({ code: event.code, reason: event.reason }));`,
      url,
      token,
    ]);
    const [closed] = (await once(program.stdout.setEncoding('utf8'), 'data')) as [string];
    expect(JSON.parse(closed)).toEqual({
      code: CloseCode.policyViolation,
      reason: "Authentication failed: a keeper's token opens /relay from this computer only",
    });
    expect(harness.relay.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();
  });

  it.each([
    ['sends the page elsewhere or opens a window there', true],
    ['answers the login with a redirect elsewhere', false],
  ])('opens nothing but the world’s Foundry: a page that %s reaches nothing', async (_how, scripted) => {
    const visits: string[] = [];
    const elsewhere = createServer((request, response) => {
      visits.push(request.url ?? '');
      response.end('stolen');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const foundry = await hostileFoundry(urlOf(elsewhere), scripted);
    try {
      await harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl: urlOf(foundry) });
      const tried = await harness.relay.admin('POST', `/admin/worlds/${CLIENT_ID}/keeper-test`, {});
      expect(tried.body).toMatchObject({ ok: false, problem: 'left-foundry' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(visits).toEqual([]);
    } finally {
      foundry.close();
      elsewhere.close();
      await harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl: harness.web.url });
    }
  });
});
