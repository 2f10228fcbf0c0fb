// The order in which the reference relay (foundryvtt-rest-api-relay 3.4.1) resolves a call, what a key bound to a
// tabletop user does there, and its error bodies, written below as data (docs/spec/reference-relay-http-api.md §2.3,
// §2.5, §2.6, §3; issues 13 item 2 and 17 items 1 and 3), checked through real sockets against the sandbox world, over
// HTTP and /ws/api.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../contracts/admin-api.ts';
import { requestsSeenDuring, SANDBOX_CLIENT_ID, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { transports, type CallAnswer, type Transport, type TransportName } from '../contract/transports.ts';

/** The reference's answers: the `clientId` first (404), then the user (400, the module's), then the parameters. */
const REFERENCE = {
  unknownClient: { status: 404, body: '{"error":"Invalid client ID"}' },
  unknownUser: (userId: string) => ({ status: 400, error: `User not found: ${userId}` }),
  /** The parameters are still checked, once the world and the user are known. */
  missingUuid: { status: 400, error: "Either 'uuid' or 'selected' is required" },
  lacksScope: (scope: string) => ({ status: 403, body: `{"error":"API key lacks required scope: ${scope}"}` }),
  notThisClient: { status: 403, body: '{"error":"API key is not authorized for this client"}' },
  noClients: { status: 404, body: '{"error":"No connected Foundry clients found"}' },
  tooMany: { status: 429, body: '{"error":"Too many API requests, please slow down"}' },
} as const;

let harness: WorldHarness;
let over: Record<TransportName, Transport>;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
});
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

/**
 * The error body as the caller got it: over HTTP the JSON text (the relay writes it as the reference does, so its
 * serialisation is the bytes on the wire); over /ws/api the frame without what every frame carries (`type`,
 * `requestId`, `status`).
 */
function errorBody(answer: CallAnswer): string {
  const { type: _type, requestId: _requestId, retryAfter: _retryAfter, ...body } = answer.body;
  return JSON.stringify(body);
}

async function latestEntry(): Promise<ActivityEntry> {
  return (await harness.admin('GET', '/admin/activity')).body.entries[0];
}

describe.each(['http', 'ws'] as const)('resolution before the parameters, over %s', (name) => {
  it('an unknown clientId is 404 "Invalid client ID" before the parameters are checked', async () => {
    for (const route of ['GET /get', 'GET /effects', 'GET /search']) {
      const answer = await over[name].call(route, { clientId: 'bogus' });
      expect({ route, status: answer.status, body: errorBody(answer) }).toEqual({ route, ...REFERENCE.unknownClient });
    }
  });

  it.runIf(name === 'http')(
    'an unknown ?clientId= of a call with a body is 404 before its body is checked',
    async () => {
      const answer = await harness.api(harness.key, 'POST', '/dnd5e/short-rest', {
        body: {},
        query: { clientId: 'bogus' },
      });
      expect({ status: answer.status, body: JSON.stringify(answer.body) }).toEqual(REFERENCE.unknownClient);
    },
  );

  it('an unknown userId is 400 "User not found: <id>" before the parameters are checked', async () => {
    for (const route of ['GET /get', 'POST /dnd5e/short-rest', 'DELETE /delete']) {
      const answer = await over[name].call(route, { userId: 'nobody-here' });
      expect({ route, status: answer.status, error: answer.body.error }).toEqual({
        route,
        ...REFERENCE.unknownUser('nobody-here'),
      });
    }
  });

  it('a known user, or none, still gets the parameter check', async () => {
    for (const parameters of [{}, { userId: 'Alice' }]) {
      const answer = await over[name].call('GET /get', parameters);
      expect({ status: answer.status, error: answer.body.error }).toEqual(REFERENCE.missingUuid);
    }
  });
});

describe.each(['http', 'ws'] as const)('a key bound to a tabletop user, over %s', (name) => {
  it('acts as its user whatever userId the caller passes, and the activity log shows the override', async () => {
    const key = await harness.keyWith(['entity:read'], { userId: 'Alice' });
    for (const asked of ['Gamemaster', 'Bob', 'nobody-here']) {
      const seen = await requestsSeenDuring(harness, async () => {
        const answer = await over[name].call('GET /players', { userId: asked }, key);
        expect(answer.status).toBe(200);
        expect(answer.body.users).toEqual([]);
      });
      expect(seen.map((request) => [request.type, request.userId])).toEqual([['players', 'Alice']]);
      expect((await latestEntry()).note).toBe(`acted as Alice (asked ${asked})`);
    }
  });

  it("bound by id, it accepts the user's own name (or none) and acts as the id", async () => {
    const alice = harness.world.game.users.getName('Alice')!;
    const key = await harness.keyWith(['entity:read'], { userId: alice.id });
    for (const parameters of [{ userId: 'Alice' }, {}]) {
      const seen = await requestsSeenDuring(harness, async () => {
        const answer = await over[name].call('GET /players', parameters, key);
        expect(answer.status).toBe(200);
        expect(answer.body.users).toEqual([]);
      });
      expect(seen.map((request) => request.userId)).toEqual([alice.id]);
    }
  });
});

describe.each(['http', 'ws'] as const)('error bodies as the reference sends them, over %s', (name) => {
  it('a key without the scope gets exactly "API key lacks required scope: <scope>", the scope also as a header', async () => {
    const key = await harness.keyWith(['roll:read']);
    const answer = await over[name].call('POST /roll', { formula: '1d20' }, key);
    expect({ status: answer.status, body: errorBody(answer) }).toEqual(REFERENCE.lacksScope('roll:execute'));
    if (name === 'http') expect(answer.headers!.get('x-required-scope')).toBe('roll:execute');
  });

  it('a key bound to other worlds gets the reference 403 and 404 bodies exactly', async () => {
    const key = await harness.keyWith(['roll:read'], { worldIds: ['fvtt_elsewhere000000'] });
    const named = await over[name].call('GET /rolls', { clientId: SANDBOX_CLIENT_ID }, key);
    expect({ status: named.status, body: errorBody(named) }).toEqual(REFERENCE.notThisClient);
    const unnamed = await over[name].call('GET /rolls', {}, key);
    expect({ status: unnamed.status, body: errorBody(unnamed) }).toEqual(REFERENCE.noClients);
  });

  it('over the rate limit, exactly the reference 429, when to retry beside it', async () => {
    const { requestsPerMinute } = harness.relay.services.settings.get();
    await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 1 });
    try {
      const key = await harness.keyWith(['roll:read']);
      expect((await over[name].call('GET /rolls', {}, key)).status).toBe(200);
      const limited = await over[name].call('GET /rolls', {}, key);
      expect({ status: limited.status, body: errorBody(limited) }).toEqual(REFERENCE.tooMany);
      const retryAfter = name === 'http' ? limited.headers!.get('retry-after') : limited.body.retryAfter;
      expect(Number(retryAfter)).toBeGreaterThan(0);
    } finally {
      await harness.admin('PATCH', '/admin/settings', { requestsPerMinute });
    }
  });
});

describe('the headers that carry the detail', () => {
  it('web pages may read X-Required-Scope and Retry-After (CORS exposes them)', async () => {
    await harness.admin('PATCH', '/admin/settings', { corsOrigins: ['https://tool.example'] });
    const key = await harness.keyWith(['roll:read']);
    const answer = await fetch(new URL('/roll', harness.baseUrl), {
      method: 'POST',
      headers: { 'x-api-key': key, origin: 'https://tool.example', 'content-type': 'application/json' },
      body: JSON.stringify({ formula: '1d20' }),
    });
    expect(answer.status).toBe(403);
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-Required-Scope', 'Retry-After']));
  });
});
