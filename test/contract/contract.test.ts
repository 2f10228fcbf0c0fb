// One contract, two transports: every case runs over HTTP and over /ws/api and expects the same answer, because both
// are adapters on the one call pipeline. A rule added to one transport only fails here over the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../relay/activity/activity-log.ts';
import { connectRawWorld, type RawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import {
  requestsSeenDuring,
  SANDBOX_CLIENT_ID,
  startRelayWithWorld,
  uuidOf,
  type WorldHarness,
} from '../harness/world.ts';
import { decodePng } from '../capture/png.ts';
import { operationOf, routeNamed, transports, type Transport, type TransportName } from './transports.ts';

const TIMEOUT_MS = 300;
const RAW_CLIENT_ID = 'fvtt_rawcontract0000';

let harness: WorldHarness;
/** A relay whose world is a raw socket that answers only when a test says so. */
let rawRelay: TestRelay;
let over: Record<TransportName, Transport>;
let overRaw: Record<TransportName, Transport>;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  rawRelay = await startTestRelay({ timeoutOverrideMs: TIMEOUT_MS });
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
  overRaw = transports(rawRelay.baseUrl, rawRelay.wsUrl, await rawRelay.createKey());
});
afterAll(async () => {
  for (const transport of [...Object.values(over ?? {}), ...Object.values(overRaw ?? {})]) transport.close();
  await harness?.close();
  await rawRelay?.close();
});

const entries = async (relay: TestRelay = harness): Promise<ActivityEntry[]> =>
  (await relay.admin('GET', '/admin/activity')).body.entries;

/** The activity entry `action` added: it must add exactly one. */
async function entryFor(action: () => Promise<unknown>): Promise<ActivityEntry> {
  const activity = harness.relay.services.activity;
  const before = activity.callsLastMinute();
  await action();
  await expect.poll(() => activity.callsLastMinute()).toBe(before + 1);
  return (await entries())[0]!;
}

/** How the activity log names a call of this route over this transport. */
function loggedAs(name: TransportName, route: string): Pick<ActivityEntry, 'method' | 'path'> {
  const entry = routeNamed(route);
  if (name === 'http') return { method: entry.method, path: entry.path };
  return { method: 'WS', path: operationOf(entry)! };
}

async function connectRaw(): Promise<RawWorld> {
  const { token } = rawRelay.relay.services.connectionTokens.issue(RAW_CLIENT_ID, 'Raw world', 'demo');
  return connectRawWorld(rawRelay.wsUrl, RAW_CLIENT_ID, token);
}

describe.each(['http', 'ws'] as const)('the API over %s', (name) => {
  const transport = () => over[name];

  it('answers a world call and a local call', async () => {
    const roll = await transport().call('POST /roll', { formula: '2d6' });
    expect(roll.status).toBe(200);
    expect(roll.body.data.roll.formula).toBe('2d6');
    const clients = await transport().call('GET /clients');
    expect(clients.status).toBe(200);
    expect(clients.body.clients.map((client: { clientId: string }) => client.clientId)).toEqual([SANDBOX_CLIENT_ID]);
  });

  it('answers 503 while paused, without calling the world, and logs the refusal', async () => {
    harness.relay.pause();
    try {
      let answer: Awaited<ReturnType<Transport['call']>> | undefined;
      const entry = await entryFor(async () => {
        const seen = await requestsSeenDuring(harness, async () => (answer = await transport().call('GET /rolls')));
        expect(seen).toEqual([]);
      });
      expect(answer).toMatchObject({
        status: 503,
        body: { error: 'Tabletop Relay is paused; resume it from the tray menu' },
      });
      expect(entry).toMatchObject({
        keyName: 'test key',
        status: 503,
        reason: 'Tabletop Relay is paused; resume it from the tray menu',
      });
    } finally {
      harness.relay.resume();
    }
  });

  it('logs answered and refused calls with the key name, never the key', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'], name: `Logger over ${name}` });
    const answered = await entryFor(() => transport().call('GET /rolls', { limit: 1 }, key));
    expect(answered).toMatchObject({ keyName: `Logger over ${name}`, status: 200, ...loggedAs(name, 'GET /rolls') });
    expect(answered.reason).toBeUndefined();
    const refused = await entryFor(() => transport().call('POST /roll', { formula: '1d20' }, key));
    expect(refused).toMatchObject({
      keyName: `Logger over ${name}`,
      status: 403,
      reason: 'API key lacks required scope: roll:execute',
      ...loggedAs(name, 'POST /roll'),
    });
    const text = JSON.stringify(await entries());
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.replace(/^ttr_/, '').slice(0, 6));
  });

  it('answers 401 to a missing or unknown key, and logs it without the key', async () => {
    const unknown = 'ttr_NEVERissuedKEYmaterial0123456789abcdefghij';
    let missing: Awaited<ReturnType<Transport['call']>> | undefined;
    const missingEntry = await entryFor(async () => (missing = await transport().call('GET /rolls', {}, null)));
    expect(missing?.status).toBe(401);
    expect(missingEntry).toMatchObject({ keyName: null, keyProblem: 'missing', status: 401 });
    let wrong: Awaited<ReturnType<Transport['call']>> | undefined;
    const wrongEntry = await entryFor(async () => (wrong = await transport().call('GET /rolls', {}, unknown)));
    expect(wrong).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    expect(wrongEntry).toMatchObject({ keyName: null, keyProblem: 'unknown', status: 401, reason: 'Invalid API key' });
    expect(JSON.stringify(await entries())).not.toContain('NEVERissued');
  });

  it('answers 403 naming the scope a key lacks', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const answer = await transport().call('POST /roll', { formula: '1d20' }, key);
    expect(answer).toMatchObject({ status: 403, body: { error: 'API key lacks required scope: roll:execute' } });
    expect(answer.body.requiredScope).toBeUndefined();
    if (name === 'http') expect(answer.headers!.get('x-required-scope')).toBe('roll:execute');
  });

  it('keeps a key bound to other worlds away from this one', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'], worldIds: ['fvtt_elsewhere000000'] });
    const named = await transport().call('GET /rolls', { clientId: SANDBOX_CLIENT_ID }, key);
    expect(named).toMatchObject({ status: 403, body: { error: 'API key is not authorized for this client' } });
    const unnamed = await transport().call('GET /rolls', {}, key);
    expect(unnamed).toMatchObject({ status: 404, body: { error: 'No connected Foundry clients found' } });
  });

  it('makes a key bound to a user act as that user, whatever user the caller names', async () => {
    const key = await harness.createKey({ scopes: ['entity:read'], userId: 'Alice' });
    const seen = await requestsSeenDuring(harness, async () => {
      expect((await transport().call('GET /players', {}, key)).status).toBe(200);
      expect((await transport().call('GET /players', { userId: 'Gamemaster' }, key)).status).toBe(200);
    });
    expect(seen.map((request) => [request.type, request.userId])).toEqual([
      ['players', 'Alice'],
      ['players', 'Alice'],
    ]);
  });

  it('answers 429 over the rate limit, saying when to retry', async () => {
    const { requestsPerMinute } = harness.relay.services.settings.get();
    await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 1 });
    try {
      const key = await harness.createKey({ scopes: ['roll:read'] });
      expect((await transport().call('GET /rolls', {}, key)).status).toBe(200);
      const limited = await transport().call('GET /rolls', {}, key);
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('Too many API requests, please slow down');
      if (name === 'http') expect(Number(limited.headers!.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await harness.admin('PATCH', '/admin/settings', { requestsPerMinute });
    }
  });

  it('answers 400 naming a bad parameter', async () => {
    expect(await transport().call('GET /rolls', { limit: 'many' })).toMatchObject({
      status: 400,
      body: { error: "'limit' must be a number" },
    });
    expect(await transport().call('POST /roll', {})).toMatchObject({
      status: 400,
      body: { error: "'formula' is required" },
    });
  });

  it('reads the headers a route declares, and answers 400 naming a bad one', async () => {
    const answer = await transport().call('POST /session-handshake', {}, undefined, {
      'x-foundry-url': 'ftp://foundry.example',
      'x-username': 'Gamemaster',
    });
    expect(answer).toMatchObject({ status: 400, body: { error: "Header 'x-foundry-url' must be an http(s) URL" } });
    const missing = await transport().call('POST /session-handshake', {}, undefined, {
      'x-foundry-url': 'http://foundry.example',
    });
    expect(missing).toMatchObject({ status: 400, body: { error: "Header 'x-username' is required" } });
  });

  it('answers 404 to an unknown clientId', async () => {
    const answer = await transport().call('GET /rolls', { clientId: 'fvtt_nosuchworld0000' });
    expect(answer).toMatchObject({ status: 404, body: { error: 'Invalid client ID' } });
    expect(answer.body.clientId).toBeUndefined();
  });

  it("answers 400 with the world's own error", async () => {
    const answer = await transport().call('POST /roll', { formula: '1d20+' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^Failed to roll formula: /);
  });

  it('answers an image from the world: bytes over HTTP, a data URL over /ws/api', async () => {
    const uuid = await uuidOf(harness, 'Thorin Ironfoot');
    const answer = await transport().call('GET /sheet', { uuid });
    expect(answer.status).toBe(200);
    const image = answer.image!;
    expect(image.mimeType).toBe('image/png');
    expect(decodePng(image.bytes)).toMatchObject({ width: image.width, height: image.height });
    if (name === 'http') expect(answer.headers!.get('x-sheet-source')).toBe('world');
  });

  it("downloads a file: bytes over HTTP, the world's JSON with a data URL and the file's name over /ws/api", async () => {
    const dataUrl = `data:text/plain;base64,${Buffer.from(`contract over ${name}`).toString('base64')}`;
    const upload = await transport().call('POST /upload', {
      path: 'contract',
      filename: `${name}.txt`,
      fileData: dataUrl,
    });
    expect(upload.status).toBe(200);
    const download = await transport().call('GET /download', { path: `contract/${name}.txt` });
    expect(download.status).toBe(200);
    if (name === 'http') {
      expect(download.body).toBe(`contract over ${name}`);
      expect(download.headers!.get('content-disposition')).toBe(`attachment; filename="${name}.txt"`);
    } else {
      expect(download.body).toMatchObject({ fileData: dataUrl, filename: `${name}.txt`, mimeType: 'text/plain' });
    }
    const asJson = await transport().call('GET /download', { path: `contract/${name}.txt`, format: 'base64' });
    expect(asJson.body).toMatchObject({ fileData: dataUrl, filename: `${name}.txt` });
  });

  it('streams events after subscribing, and stops after unsubscribing', async () => {
    const subscription = await transport().subscribe('GET /rolls/subscribe');
    expect(subscription.status).toBe(200);
    await expect.poll(() => harness.world.enabledChannels()).toContain('roll-events');
    harness.world.simulate.playerRoll('Alice', '1d6', `contract over ${name}`);
    const event = await subscription.next('roll', (data) => data.data.flavor === `contract over ${name}`);
    expect(event.data).toMatchObject({ type: 'roll-data', data: { formula: '1d6' } });
    await subscription.close();
    await expect.poll(() => harness.world.enabledChannels()).not.toContain('roll-events');
  });

  it('refuses a subscription without the scope', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const subscription = await transport().subscribe('GET /rolls/subscribe', {}, key);
    expect(subscription).toMatchObject({
      status: 403,
      body: { error: 'API key lacks required scope: events:subscribe' },
    });
  });
});

describe.each(['http', 'ws'] as const)('a world that fails to answer, over %s', (name) => {
  it(`answers 408 when the world stays silent past the timeout`, async () => {
    const world = await connectRaw();
    try {
      const answer = await overRaw[name].call('GET /rolls');
      expect(answer).toMatchObject({
        status: 408,
        body: { error: 'Request timed out' },
      });
    } finally {
      world.close();
      await world.closed;
    }
  });

  it('answers 503 when the world disconnects before it answers', async () => {
    const world = await connectRaw();
    const answer = overRaw[name].call('GET /rolls');
    await world.next((message) => message.type === 'rolls');
    world.close();
    expect(await answer).toMatchObject({ status: 503, body: { error: 'The world disconnected before it answered' } });
  });
});
