// A tool's key request (POST /auth/key-request) from ask to collected key, over real sockets with the sandbox world.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { callFrom } from '../harness/from-address.ts';
import { readAdminFeed } from '../harness/admin-feed.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

const POLL_INTERVAL_MS = 200;

const STREAM_DECK = {
  appName: 'Stream Deck',
  appDescription: 'Buttons for rolls and music',
  scopes: ['roll:execute', 'roll:read', 'playlist:control'],
};

async function ask(relay: TestRelay, body: Record<string, unknown> = STREAM_DECK) {
  const answer = await call(relay.baseUrl, 'POST', '/auth/key-request', { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { code: string; pollUrl: string; interval: number; expiresIn: number; approvalUrl: string };
}

const poll = (pollUrl: string) => call(pollUrl, 'GET', pollUrl);

describe('key requests with a world connected', () => {
  let harness: WorldHarness;
  beforeAll(async () => {
    harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: POLL_INTERVAL_MS } });
  });
  afterAll(() => harness.close());

  it('answers a short code for display, a poll URL holding a long secret, the interval and the approval page', async () => {
    const request = await ask(harness);
    expect(request.code).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
    const secret = new URL(request.pollUrl).pathname.split('/').pop()!;
    expect(secret.length).toBeGreaterThan(40);
    expect(secret).not.toContain(request.code.replace('-', ''));
    expect(request).toMatchObject({ interval: POLL_INTERVAL_MS / 1000, expiresIn: 600 });
    expect(request.approvalUrl).toBe(`${harness.baseUrl}/admin/#keys`);
    expect((await poll(request.pollUrl)).body).toEqual({ status: 'pending', code: request.code });
    const listed = await harness.admin('GET', '/admin/key-requests');
    expect(listed.body.keyRequests).toContainEqual(
      expect.objectContaining({
        code: request.code,
        appName: 'Stream Deck',
        appDescription: 'Buttons for rolls and music',
        scopes: STREAM_DECK.scopes,
        riskyScopes: [],
        clientIds: [],
        source: '127.0.0.1',
        status: 'pending',
      }),
    );
    expect(listed.text).not.toContain(secret);
    await harness.admin('POST', `/admin/key-requests/${request.code}/deny`);
  });

  it('approved with narrowed scopes: the key works at once with exactly those scopes, and is delivered once', async () => {
    const request = await ask(harness);
    const approved = await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {
      scopes: ['roll:execute'],
      name: 'Deck on the left',
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', keyId: expect.any(String) });
    expect(approved.text).not.toMatch(/ttr_/);
    const collected = await poll(request.pollUrl);
    expect(collected.status).toBe(200);
    expect(collected.body).toEqual({
      status: 'approved',
      apiKey: expect.stringMatching(/^ttr_/),
      scopes: ['roll:execute'],
      clientIds: [],
    });
    const key = collected.body.apiKey as string;
    const roll = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20' } });
    expect(roll.status, roll.text).toBe(200);
    expect((await harness.api(key, 'GET', '/rolls')).status).toBe(403);
    expect((await harness.api(key, 'GET', '/playlists')).status).toBe(403);
    const keys = await harness.admin('GET', '/admin/keys');
    expect(keys.body.keys).toContainEqual(
      expect.objectContaining({ id: approved.body.keyId, name: 'Deck on the left', scopes: ['roll:execute'] }),
    );
    expect(keys.text).not.toContain(key);
    // A second poll gets nothing: the request is gone.
    const again = await poll(request.pollUrl);
    expect(again.status).toBe(404);
    expect(again.text).not.toContain(key);
    expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
  });

  it('binds the user and worlds the GM chooses', async () => {
    const request = await ask(harness, { ...STREAM_DECK, userId: 'Aria' });
    await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {
      userId: 'Borin',
      clientIds: [harness.clientId],
    });
    const collected = await poll(request.pollUrl);
    expect(collected.body).toMatchObject({ userId: 'Borin', clientIds: [harness.clientId] });
    const keys = await harness.admin('GET', '/admin/keys');
    expect(keys.body.keys).toContainEqual(
      expect.objectContaining({ name: 'Stream Deck', userId: 'Borin', worldIds: [harness.clientId] }),
    );
  });

  it('never widens what the tool asked for', async () => {
    const request = await ask(harness, { ...STREAM_DECK, userId: 'Aria', clientIds: ['fvtt_one'] });
    const approve = (body: unknown) => harness.admin('POST', `/admin/key-requests/${request.code}/approve`, body);
    const widerScopes = await approve({ scopes: ['roll:execute', 'execute-js'] });
    expect(widerScopes.status).toBe(400);
    expect(widerScopes.body.error).toMatch(/did not ask for execute-js/);
    const otherWorld = await approve({ clientIds: ['fvtt_two'] });
    expect(otherWorld.status).toBe(400);
    expect(otherWorld.body.error).toMatch(/only fvtt_one/);
    expect((await approve({ clientIds: [] })).status).toBe(400);
    expect((await approve({ scopes: [] })).status).toBe(400);
    expect((await poll(request.pollUrl)).body.status).toBe('pending');
    expect((await harness.admin('GET', '/admin/keys')).body.keys).toHaveLength(3);
    await harness.admin('POST', `/admin/key-requests/${request.code}/deny`);
  });

  it('denied: the tool is told once, then the request is gone', async () => {
    const request = await ask(harness);
    const denied = await harness.admin('POST', `/admin/key-requests/${request.code.toLowerCase()}/deny`);
    expect(denied.body).toMatchObject({ code: request.code, status: 'denied' });
    expect((await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {})).status).toBe(409);
    expect(await poll(request.pollUrl)).toMatchObject({ status: 200, body: { status: 'denied' } });
    expect((await poll(request.pollUrl)).status).toBe(404);
  });

  it('polling faster than the interval gets a slow_down 429 with Retry-After', async () => {
    const request = await ask(harness);
    expect((await poll(request.pollUrl)).status).toBe(200);
    const fast = await poll(request.pollUrl);
    expect(fast.status).toBe(429);
    expect(fast.body.error).toMatch(/^slow_down: poll this key request at most every 0.2 s/);
    expect(fast.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    expect((await poll(request.pollUrl)).status).toBe(200);
    await harness.admin('POST', `/admin/key-requests/${request.code}/deny`);
  });

  it("answers the reference relay's /status path with the same poll", async () => {
    const request = await ask(harness);
    const status = await call(harness.baseUrl, 'GET', `${new URL(request.pollUrl).pathname}/status`);
    expect(status.body).toEqual({ status: 'pending', code: request.code });
    await harness.admin('POST', `/admin/key-requests/${request.code}/deny`);
  });

  it('refuses unknown scopes by name and flags execute-js and world:link for the GM', async () => {
    // Refused asks count against their address's rate too (it is taken before the body is read): another address.
    const askFromElsewhere = (body: unknown) =>
      callFrom('127.0.4.1', harness.baseUrl, 'POST', '/auth/key-request', body);
    const unknown = await askFromElsewhere({ appName: 'Bot', scopes: ['roll:execute', 'roll:everything'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('roll:everything');
    const missing = await askFromElsewhere({ scopes: ['roll:read'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('appName');
    const mixed = await askFromElsewhere({ appName: 'Bot', scopes: ['world:link', 'roll:read'] });
    expect(mixed.status).toBe(400);
    // A name the GM reads must read as itself: no line breaks, no right-to-left override turning "exe.txt" around.
    for (const appName of ['Stream Deck\nApproved by the GM', 'Deck \u202Etxt.exe']) {
      const spoofed = await askFromElsewhere({ appName, scopes: ['roll:read'] });
      expect(spoofed.status).toBe(400);
      expect(spoofed.body.error).toMatch(
        /appName.*plain text on one line: no control characters, line breaks, invisible or text-direction characters/,
      );
    }
    const described = await askFromElsewhere({ appName: 'Bot', appDescription: 'Rolls\u0007', scopes: ['roll:read'] });
    expect(described.status).toBe(400);
    const risky = await ask(harness, { appName: 'Script runner', scopes: ['execute-js', 'roll:read'] });
    const listed = await harness.admin('GET', '/admin/key-requests');
    expect(listed.body.keyRequests.find((entry: { code: string }) => entry.code === risky.code)).toMatchObject({
      riskyScopes: ['execute-js'],
    });
    await harness.admin('POST', `/admin/key-requests/${risky.code}/deny`);
  });
});

describe('key requests in the API documentation', () => {
  let harness: TestRelay;
  beforeAll(async () => {
    harness = await startTestRelay();
  });
  afterAll(() => harness.close());

  it('/openapi.json documents the routes and their fields; /docs tells the flow', async () => {
    const document = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    const ask = document.paths['/auth/key-request'].post;
    expect(ask.tags).toEqual(['Auth']);
    const fields = ask.requestBody.content['application/json'].schema;
    // An AI assistant may ask for toolsets instead of scopes, so only the name is always required.
    expect(fields.required).toEqual(['appName']);
    expect(fields.properties.scopes.description).toMatch(/scopes the tool needs/);
    expect(fields.properties.toolsets.description).toMatch(/toolsets it wants over \/mcp/);
    expect(document.paths['/auth/key-request/{secret}'].get.summary).toMatch(/approved \(with apiKey, once\)/);
    expect(Object.keys(document.paths['/admin/key-requests/{code}/approve'])).toEqual(['post']);
    const page = await call(harness.baseUrl, 'GET', '/docs');
    expect(page.text).toContain('Getting a key: key requests');
    expect(page.text).toContain('<code>POST /auth/key-request</code>');
  });
});

describe('key requests: expiry, merging, caps, rate limit and the admin feed', () => {
  let harness: TestRelay | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('a request the GM leaves waiting expires: the poll answers 410, the GM can no longer approve it, the feed drops it', async () => {
    harness = await startTestRelay({ keyRequestLifetimeMs: 400, keyRequestPollIntervalMs: 50 });
    const feed = await readAdminFeed(harness.baseUrl, harness.relay.adminToken);
    const request = await ask(harness);
    await expect
      .poll(() => feed.events.filter((event) => event.name === 'key-request').map((event) => event.data.status))
      .toEqual(['pending', 'expired']);
    const expired = await poll(request.pollUrl);
    expect(expired).toMatchObject({ status: 410, body: { status: 'expired' } });
    expect((await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {})).status).toBe(409);
    expect((await harness.admin('GET', '/admin/status')).body.keyRequests).toEqual([]);
    feed.close();
  });

  it('the admin feed sends the waiting list when it opens, then each request that appears or changes; status counts them', async () => {
    harness = await startTestRelay({ keyRequestPollIntervalMs: 50 });
    const first = await ask(harness);
    const feed = await readAdminFeed(harness.baseUrl, harness.relay.adminToken);
    await expect
      .poll(() => feed.events.map((event) => event.name).slice(0, 3))
      .toEqual(['status', 'pair-requests', 'key-requests']);
    expect(feed.events[0]!.data.keyRequests).toBeUndefined();
    expect(feed.events[2]!.data.keyRequests).toEqual([
      expect.objectContaining({ code: first.code, status: 'pending' }),
    ]);
    const status = await harness.admin('GET', '/admin/status');
    expect(status.body.keyRequests).toEqual([expect.objectContaining({ code: first.code })]);
    expect(harness.relay.status().keyRequests).toHaveLength(1);

    await harness.admin('POST', `/admin/key-requests/${first.code}/approve`, {});
    const collected = await poll(first.pollUrl);
    const second = await ask(harness, { appName: 'Bot', scopes: ['chat:write'] });
    await expect
      .poll(() =>
        feed.events
          .filter((event) => event.name === 'key-request')
          .map((event) => [event.data.code, event.data.status]),
      )
      .toEqual([
        [first.code, 'approved'],
        [first.code, 'delivered'],
        [second.code, 'pending'],
      ]);
    const feedText = JSON.stringify(feed.events);
    expect(feedText).not.toContain(collected.body.apiKey);
    expect(feedText).not.toContain(new URL(second.pollUrl).pathname.split('/').pop());
    feed.close();
  });

  it('the same tool asking again replaces its waiting request (new code, old poll URL gone)', async () => {
    harness = await startTestRelay();
    const first = await ask(harness);
    const second = await ask(harness);
    expect(second.code).not.toBe(first.code);
    expect((await poll(first.pollUrl)).status).toBe(404);
    expect((await poll(second.pollUrl)).body.status).toBe('pending');
    const waiting = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
    expect(waiting.map((entry: { code: string }) => entry.code)).toEqual([second.code]);
  });

  it('at most 3 requests wait from this computer, every loopback address together; more get 429 with Retry-After', async () => {
    harness = await startTestRelay();
    const askFrom = (source: string, appName: string) =>
      callFrom(source, harness!.baseUrl, 'POST', '/auth/key-request', { appName, scopes: ['roll:read'] });
    const fromHere = [];
    for (let index = 0; index < 5; index += 1) fromHere.push(await askFrom(`127.0.0.${index + 2}`, `Tool ${index}`));
    expect(fromHere.map((answer) => answer.status)).toEqual([201, 201, 201, 429, 429]);
    expect(fromHere[3]!.body.error).toMatch(/3 key requests from this address are already waiting/);
    expect(Number(fromHere[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toHaveLength(3);

    // The burst: 10 asks from one address (each replacing the last, so no cap is reached), then 429.
    const burst = [];
    for (let index = 0; index < 11; index += 1) burst.push(await askFrom('127.0.0.2', 'Tool 0'));
    expect(burst.slice(0, 10).every((answer) => answer.status !== 201 || answer.body.code)).toBe(true);
    expect(burst[10]!.status).toBe(429);
    expect(burst[10]!.body.error).toMatch(/Too many key requests from this address; try again in \d+ s/);
  });

  it('one address may ask 10 times in a burst, then gets 429 with Retry-After', async () => {
    harness = await startTestRelay();
    const statuses = [];
    let refused;
    for (let index = 0; index < 11; index += 1) {
      // The same tool each time: each ask replaces the last, so only the rate limit can refuse.
      const answer = await call(harness.baseUrl, 'POST', '/auth/key-request', { body: STREAM_DECK });
      statuses.push(answer.status);
      refused = answer;
    }
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429]);
    expect(refused!.body.error).toMatch(/Too many key requests from this address; try again in \d+ s/);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(60);
    expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toHaveLength(1);
  });
});
