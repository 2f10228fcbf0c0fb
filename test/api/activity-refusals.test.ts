// The activity log explains a tool's silence: every refused call is listed with the reason its caller was given and
// the key's name when the key is known, over HTTP and /ws/api alike, and never any key material. A flood of refused
// calls grows neither the log nor the admin feed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../relay/activity/activity-log.ts';
import { readAdminFeed } from '../harness/admin-feed.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

/** A key the relay never issued, shaped like one: no part of it may reach the log. */
const UNKNOWN_KEY = 'ttr_NEVERissuedKEYmaterial0123456789abcdefghij';
const UNKNOWN_PLAIN = 'hunter2-not-even-shaped-like-a-key';

const entries = async (): Promise<ActivityEntry[]> => (await harness.admin('GET', '/admin/activity')).body.entries;

/** The newest entry after `action`, which must have added exactly one. */
async function entryFor(action: () => Promise<unknown>): Promise<ActivityEntry> {
  const before = harness.relay.services.activity.callsLastMinute();
  await action();
  await expect.poll(() => harness.relay.services.activity.callsLastMinute()).toBe(before + 1);
  return (await entries())[0]!;
}

function expectNoKeyMaterial(text: string, ...keys: string[]): void {
  for (const key of keys) {
    expect(text).not.toContain(key);
    // Not even the start of one: the part after the ttr_ prefix never shows.
    const secret = key.replace(/^ttr_/, '');
    expect(text).not.toContain(secret.slice(0, 6));
  }
}

describe('refused HTTP calls in the activity log', () => {
  it('a call without a key, and one with a key the relay does not know, named so and never shown', async () => {
    const noKey = await entryFor(() => call(harness.baseUrl, 'POST', '/roll', { body: { formula: '1d20' } }));
    expect(noKey).toMatchObject({
      keyName: null,
      keyProblem: 'missing',
      method: 'POST',
      path: '/roll',
      status: 401,
      reason: 'API key is required: send it in the x-api-key header, or as Authorization: Bearer <key>',
    });
    for (const unknown of [UNKNOWN_KEY, UNKNOWN_PLAIN]) {
      const entry = await entryFor(() => harness.api(unknown, 'POST', '/roll', { body: { formula: '1d20' } }));
      expect(entry).toMatchObject({ keyName: null, keyProblem: 'unknown', status: 401, reason: 'Invalid API key' });
    }
    const typo = await entryFor(() => harness.api(UNKNOWN_KEY, 'GET', `/roll/${UNKNOWN_KEY}`));
    expect(typo).toMatchObject({ keyProblem: 'unknown', status: 404, path: '/roll/ttr_…' });
    const answered = await entryFor(() => harness.api(harness.key, 'GET', '/rolls', { query: { limit: 1 } }));
    expect(answered).toMatchObject({ keyName: 'test key', status: 200 });
    expect(answered.reason).toBeUndefined();
    expect(answered.keyProblem).toBeUndefined();
    expectNoKeyMaterial(JSON.stringify(await entries()), UNKNOWN_KEY, UNKNOWN_PLAIN, harness.key);
  });

  it('a known key refused: missing scope and bad parameter (each named), a world that refused, body type and size', async () => {
    const reader = await harness.createKey({ scopes: ['roll:read'], name: 'Stream Deck' });
    expect(await entryFor(() => harness.api(reader, 'POST', '/roll', { body: { formula: '1d20' } }))).toMatchObject({
      keyName: 'Stream Deck',
      status: 403,
      reason: 'API key lacks required scope: roll:execute',
    });
    const roller = await harness.createKey({ scopes: ['roll:execute'], name: 'Roll button' });
    const cases: Array<[() => Promise<unknown>, number, string | RegExp]> = [
      [() => harness.api(roller, 'POST', '/roll', { body: { flavor: 'no formula' } }), 400, "'formula' is required"],
      [
        () => harness.api(roller, 'POST', '/roll', { body: { formula: '1d20', createChatMessage: 'maybe' } }),
        400,
        "'createChatMessage' must be true or false",
      ],
      [() => harness.api(roller, 'POST', '/roll', { body: { formula: '1d20+' } }), 400, /./],
      [
        () => harness.api(roller, 'POST', '/roll', { body: 'formula=1d20', headers: { 'content-type': 'text/plain' } }),
        415,
        /^The request body must be JSON .* or a form .*; this one was sent as text\/plain$/,
      ],
      [
        () => harness.api(roller, 'POST', '/roll', { body: { formula: '1d20', flavor: 'x'.repeat(1024 * 1024) } }),
        413,
        'Request body too large: the limit is 1 MiB for POST /roll, counted after decompression',
      ],
      [
        () =>
          harness.api(roller, 'POST', '/roll', { body: { formula: '1d20' }, query: { clientId: 'fvtt_elsewhere' } }),
        404,
        'Invalid client ID',
      ],
      [() => harness.api(roller, 'GET', '/rolll'), 404, 'Unknown endpoint: GET /rolll'],
      [() => harness.api(roller, 'GET', '/roll'), 405, 'GET is not allowed on /roll; use POST'],
    ];
    for (const [action, status, reason] of cases) {
      const entry = await entryFor(action);
      expect(entry, String(reason)).toMatchObject({ keyName: 'Roll button', status });
      expect(entry.reason).toMatch(
        typeof reason === 'string' ? new RegExp(`^${reason.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')}$`) : reason,
      );
    }
  });

  it('paused and rate limited, with the key name', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'], name: 'Overlay' });
    harness.relay.pause();
    try {
      expect(await entryFor(() => harness.api(key, 'GET', '/rolls'))).toMatchObject({
        keyName: 'Overlay',
        status: 503,
        reason: 'Tabletop Relay is paused; resume it from the tray menu',
      });
    } finally {
      harness.relay.resume();
    }
    const { requestsPerMinute } = harness.relay.services.settings.get();
    await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 1 });
    try {
      const limited = await harness.createKey({ scopes: ['roll:read'], name: 'Busy bot' });
      expect((await harness.api(limited, 'GET', '/rolls')).status).toBe(200);
      const entry = await entryFor(() => harness.api(limited, 'GET', '/rolls'));
      expect(entry).toMatchObject({ keyName: 'Busy bot', status: 429 });
      expect(entry.reason).toBe('Too many API requests, please slow down');
    } finally {
      await harness.admin('PATCH', '/admin/settings', { requestsPerMinute });
    }
  });

  it('keeps a caller-typed reason short', async () => {
    const longKey = `${'a'.repeat(5000)}.__proto__`;
    const entry = await entryFor(() => harness.post('/roll', { formula: '1d20', [longKey]: 1 }));
    expect(entry.status).toBe(400);
    expect(entry.reason!.length).toBeLessThanOrEqual(201);
  });
});

describe('refused /ws/api messages in the activity log', () => {
  it('an unknown key, a missing scope, a bad parameter, an unknown type and a frame that is no message; answered calls too', async () => {
    const stranger = new ApiSocket(`${harness.wsUrl}/ws/api`, { 'x-api-key': UNKNOWN_KEY });
    await stranger.closed;
    await expect
      .poll(async () => (await entries())[0])
      .toMatchObject({
        keyName: null,
        keyProblem: 'unknown',
        method: 'WS',
        path: '/ws/api',
        status: 401,
        reason: 'Invalid API key',
      });

    const reader = await harness.createKey({ scopes: ['roll:read'], name: 'Discord bot' });
    const socket = await ApiSocket.open(harness.wsUrl, reader);
    const sent: Array<[unknown, Partial<ActivityEntry>]> = [
      [
        { type: 'roll', requestId: 'r1', formula: '1d20' },
        { path: 'roll', status: 403, reason: 'API key lacks required scope: roll:execute' },
      ],
      [
        { type: 'rolls', requestId: 'r2', limit: 'many' },
        { path: 'rolls', status: 400, reason: "'limit' must be a number" },
      ],
      [
        { type: 'rol', requestId: 'r3' },
        { path: 'rol', status: 400, reason: 'Unknown message type: "rol"' },
      ],
      ['not json', { path: '/ws/api', status: 400, reason: 'Invalid JSON' }],
      [
        { type: 'rolls', requestId: 'r4', limit: 1 },
        { path: 'rolls', status: 200 },
      ],
    ];
    for (const [message, expected] of sent) {
      const entry = await entryFor(async () =>
        socket.socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
      );
      expect(entry).toMatchObject({ keyName: 'Discord bot', method: 'WS', ...expected });
    }
    socket.close();
    expectNoKeyMaterial(JSON.stringify(await entries()), UNKNOWN_KEY, reader);
  });
});

describe('a flood of refused calls', () => {
  it('5,000 calls without a key keep the log at 200 entries and the admin feed to a few batches', async () => {
    const feed = await readAdminFeed(harness.baseUrl, harness.relay.adminToken);
    await expect.poll(() => feed.events.length).toBeGreaterThanOrEqual(2);
    const bytesBefore = feed.bytes();
    const started = performance.now();
    const CALLS = 5000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < CALLS) {
          next += 1;
          const response = await fetch(new URL('/roll', harness.baseUrl), { method: 'POST' });
          await response.arrayBuffer();
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    // The last batch goes out a window after the last call.
    await expect.poll(() => feed.events.at(-1)?.data.entries?.[0]?.keyProblem, { timeout: 2000 }).toBe('missing');
    await new Promise((resolve) => setTimeout(resolve, 600));
    const batches = feed.events.filter((event) => event.name === 'activity');
    feed.close();

    expect(harness.relay.services.activity.recent()).toHaveLength(200);
    const sentCalls = batches.reduce((sum, batch) => sum + batch.data.entries.length, 0);
    const skipped = batches.reduce((sum, batch) => sum + batch.data.skipped, 0);
    expect(sentCalls + skipped).toBeGreaterThanOrEqual(CALLS);
    expect(batches.every((batch) => batch.data.entries.length <= 20)).toBe(true);
    // One batch at once, then at most one per 250 ms window.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil((elapsedMs + 600 + 2000) / 250) + 1);
    const oneCallBytes =
      `event: activity\ndata: ${JSON.stringify({ entries: [batches.at(-1)!.data.entries[0]], skipped: 0 })}\n\n`.length;
    const feedBytes = feed.bytes() - bytesBefore;
    // An event per call would cost CALLS × oneCallBytes.
    expect(feedBytes).toBeLessThan((CALLS * oneCallBytes) / 4);
    console.log(
      `5,000 refused calls in ${Math.round(elapsedMs)} ms: ${batches.length} feed events, ${feedBytes} bytes (one event per call: ${CALLS * oneCallBytes})`,
    );
  }, 60_000);
});
