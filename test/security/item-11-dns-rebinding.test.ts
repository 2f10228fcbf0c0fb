// Issue 9, item 11: the relay answered whatever name a request was addressed to, so a page whose name was rebound to
// 127.0.0.1 (DNS rebinding) reached the API, the admin API, the settings UI, /relay and /ws/api as same-origin.
// Requests and upgrades addressed to any other name than the relay's own must be refused with 421.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let relay: TestRelay;
let apiKey: string;

beforeAll(async () => {
  relay = await startTestRelay();
  apiKey = await relay.createKey({ scopes: ['clients:read'] });
});
afterAll(() => relay.close());

interface RawAnswer {
  status: number;
  body: string;
}

function readAnswer(response: IncomingMessage, resolve: (answer: RawAnswer) => void): void {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => (body += chunk));
  response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
}

/** A request to the relay's loopback port that says it was addressed to `host`, as a rebound browser would send it. */
function send(host: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: relay.relay.port, path, method, headers: { ...headers, host } },
      (response) => readAnswer(response, resolve),
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A WebSocket upgrade addressed to `host`: the status the relay answers (101 when the socket opens). */
function upgrade(host: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const upgradeHeaders = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port: relay.relay.port,
      path,
      headers: { ...upgradeHeaders, ...headers, host },
    });
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '' });
    });
    outgoing.on('response', (response) => readAnswer(response, resolve));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const admin = () => ({ authorization: `Bearer ${relay.relay.adminToken}` });
const port = () => relay.relay.port;

/** Every surface a rebound page could reach, as the status it gets when addressed to `host`. */
async function everySurface(host: string): Promise<Record<string, RawAnswer>> {
  return {
    api: await send(host, '/clients', { 'x-api-key': apiKey }),
    pairing: await send(host, '/api/status'),
    adminApi: await send(host, '/admin/status', admin()),
    adminPages: await send(host, '/admin/'),
    relay: await upgrade(host, '/relay?id=fvtt_rebound'),
    callerApi: await upgrade(host, '/ws/api', { 'x-api-key': apiKey }),
  };
}

function expectRefused(answers: Record<string, RawAnswer>, hostname: string): void {
  for (const [surface, answer] of Object.entries(answers)) {
    expect({ surface, status: answer.status }).toEqual({ surface, status: 421 });
    const { error } = JSON.parse(answer.body) as { error: string };
    expect(error).toContain(`"${hostname}"`);
    expect(error).toContain('allowedHosts');
  }
}

function expectAnswered(answers: Record<string, RawAnswer>): void {
  expect(answers.api!.status).toBe(200);
  expect(answers.adminApi!.status).toBe(200);
  expect(answers.relay!.status).toBe(101);
  expect(answers.callerApi!.status).toBe(101);
  for (const [surface, answer] of Object.entries(answers))
    expect({ surface, status: answer.status }).not.toEqual({ surface, status: 421 });
}

describe('item 11: DNS rebinding — the relay answers only to its own names', () => {
  it('refuses the API, admin API, settings UI, /relay and /ws/api with 421 when addressed to another name', async () => {
    expectRefused(await everySurface(`attacker.example:${port()}`), 'attacker.example');
  });

  it('answers its loopback names on any port spelling', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`, 'localhost']) {
      expectAnswered(await everySurface(host));
    }
  });

  it('lets in a name once the GM adds it through PATCH /admin/settings, and refuses it again once removed', async () => {
    const host = `tabletop.home.arpa:${port()}`;
    expectRefused(await everySurface(host), 'tabletop.home.arpa');
    const added = await relay.admin('PATCH', '/admin/settings', { allowedHosts: ['Tabletop.Home.Arpa'] });
    expect(added.status).toBe(200);
    expect(added.body.allowedHosts).toEqual(['tabletop.home.arpa']);
    expectAnswered(await everySurface(host));
    expect((await relay.admin('PATCH', '/admin/settings', { allowedHosts: [] })).status).toBe(200);
    expectRefused(await everySurface(host), 'tabletop.home.arpa');
  });

  it('refuses a name with a scheme or port in allowedHosts with 400', async () => {
    for (const name of ['http://relay.lan', 'relay.lan:3010', 'relay lan']) {
      const answer = await relay.admin('PATCH', '/admin/settings', { allowedHosts: [name] });
      expect(answer.status).toBe(400);
    }
  });

  it("answers this computer's LAN addresses only while LAN access is on", async (context) => {
    const lanAddress = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
    if (!lanAddress) return context.skip();
    const host = `${lanAddress}:${port()}`;
    expect((await send(host, '/admin/status', admin())).status).toBe(421);
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    try {
      await listening();
      expect((await send(host, '/admin/status', admin())).status).toBe(200);
      expect((await upgrade(host, '/ws/api', { 'x-api-key': apiKey })).status).toBe(101);
    } finally {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    }
    await listening();
    expect((await send(host, '/admin/status', admin())).status).toBe(421);
  });
});

/** Switching LAN access re-listens on another address: waits until the relay answers on loopback again. */
async function listening(): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (
      await send(`127.0.0.1:${port()}`, '/api/status').then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the relay did not listen again after switching LAN access');
}
