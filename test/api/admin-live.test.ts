import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { readAdminFeed } from '../harness/admin-feed.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('what the tray and the settings UI read', () => {
  it('the status names the world, the URL, LAN access and the calls of the last minute', async () => {
    await harness.get('/world-info');
    const status = (await harness.admin('GET', '/admin/status')).body;
    expect(status).toMatchObject({ url: harness.baseUrl, lan: { enabled: false, urls: [] }, paused: false });
    expect(status.worlds[0]).toMatchObject({
      clientId: harness.clientId,
      worldTitle: harness.world.metadata.worldTitle,
    });
    expect(status.callsLastMinute).toBeGreaterThanOrEqual(1);
    expect(harness.relay.status().worlds).toHaveLength(1);
  });

  it('the activity log lists each call with the key name, never the key or the query', async () => {
    const key = await harness.createKey({ scopes: ['search'], name: 'Overlay' });
    await harness.api(key, 'GET', '/search', { query: { query: 'secret-words' } });
    const { entries } = (await harness.admin('GET', '/admin/activity')).body;
    expect(entries[0]).toMatchObject({ keyName: 'Overlay', method: 'GET', path: '/search', status: 200 });
    expect(entries[0].durationMs).toBeGreaterThan(0);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(key);
    expect(text).not.toContain('secret-words');
  });

  it('the admin feed sends the status and the waiting requests at once, then each change on its own, and each call', async () => {
    const feed = await readAdminFeed(harness.baseUrl, harness.relay.adminToken);
    await expect.poll(() => feed.events.map((event) => event.name).slice(0, 2)).toEqual(['status', 'pair-requests']);
    expect(feed.events[0]!.data).toMatchObject({
      url: harness.baseUrl,
      worlds: [expect.objectContaining({ clientId: harness.clientId })],
    });
    expect(feed.events[0]!.data.pairRequests).toBeUndefined();
    await harness.get('/players');
    await expect
      .poll(() =>
        feed.events.some(
          (event) =>
            event.name === 'activity' &&
            event.data.entries.some((entry: { path: string }) => entry.path === '/players'),
        ),
      )
      .toBe(true);
    const code = (
      await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'feed-world', worldTitle: 'Feed' } })
    ).body.code;
    await expect
      .poll(() => feed.events.find((event) => event.name === 'pair-request')?.data)
      .toMatchObject({ code, status: 'pending', source: '127.0.0.1' });
    await harness.admin('POST', `/admin/pair-requests/${code}/deny`, {});
    await expect
      .poll(() => feed.events.filter((event) => event.name === 'pair-request').map((event) => event.data.status))
      .toEqual(['pending', 'denied']);
    await harness.admin('POST', '/admin/pause', {});
    await expect.poll(() => feed.events.filter((event) => event.name === 'status').at(-1)?.data.paused).toBe(true);
    await harness.admin('POST', '/admin/resume', {});
    // Pair requests travel only as their own events, never inside the status.
    expect(
      feed.events.filter((event) => event.name === 'status').every((event) => event.data.pairRequests === undefined),
    ).toBe(true);
    feed.close();
  });

  it('pausing answers API calls with 503 and keeps the world connected; resuming answers again', async () => {
    harness.relay.pause();
    const paused = await harness.get('/world-info');
    expect(paused.status).toBe(503);
    expect(paused.body.error).toMatch(/paused/);
    expect((await harness.admin('GET', '/admin/status')).body).toMatchObject({
      paused: true,
      worlds: [expect.objectContaining({ clientId: harness.clientId })],
    });
    harness.relay.resume();
    expect((await harness.get('/world-info')).status).toBe(200);
    expect((await harness.admin('POST', '/admin/pause')).body).toEqual({ paused: true });
    expect((await harness.get('/world-info')).status).toBe(503);
    expect((await harness.admin('POST', '/admin/resume')).body).toEqual({ paused: false });
    expect((await harness.get('/world-info')).status).toBe(200);
  });

  it('a one-time admin URL opens a settings session in a cookie, once', async () => {
    const url = harness.relay.createAdminLoginUrl();
    expect(url).toMatch(new RegExp(`^${harness.baseUrl}/admin/login\\?code=[0-9a-f]{48}$`));
    const login = await fetch(url, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/admin/');
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      /^ttr_admin=[0-9a-f]{64}; Max-Age=43200; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict$/,
    );
    const withCookie = await call(harness.baseUrl, 'GET', '/admin/keys', {
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(withCookie.status).toBe(200);
    const again = await fetch(url, { redirect: 'manual' });
    expect(again.status).toBe(401);
    const forged = await call(harness.baseUrl, 'GET', '/admin/keys', { headers: { cookie: 'ttr_admin=abc' } });
    expect(forged.status).toBe(401);
  });

  it('LAN access re-listens on every address at once, and off on loopback only, keeping the world link', async () => {
    const on = await harness.admin('PATCH', '/admin/settings', { lanAccess: true });
    expect(on.body.lanAccess).toBe(true);
    await expect.poll(async () => (await harness.admin('GET', '/admin/status')).body.lan.enabled).toBe(true);
    expect(harness.relay.services.network.lanAccess()).toBe(true);
    expect((await harness.get('/world-info')).status).toBe(200);
    await harness.admin('PATCH', '/admin/settings', { lanAccess: false });
    await expect
      .poll(async () => (await harness.admin('GET', '/admin/status')).body.lan)
      .toEqual({ enabled: false, urls: [] });
    expect(harness.relay.services.tabletop.world(harness.clientId)).toBeDefined();
  });
});

describe('allowed web origins', () => {
  it('answers only the listed origins once the list is narrowed, and keeps pairing open to any page', async () => {
    await harness.admin('PATCH', '/admin/settings', { corsOrigins: ['http://localhost:30000'] });
    const listed = await fetch(`${harness.baseUrl}/world-info`, {
      headers: { origin: 'http://localhost:30000', 'x-api-key': harness.key },
    });
    expect(listed.headers.get('access-control-allow-origin')).toBe('http://localhost:30000');
    expect(listed.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${harness.baseUrl}/world-info`, {
      headers: { origin: 'http://evil.example', 'x-api-key': harness.key },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const pairing = await fetch(`${harness.baseUrl}/auth/pair-request`, {
      method: 'OPTIONS',
      headers: { origin: 'http://foundry.lan:30000', 'access-control-request-method': 'POST' },
    });
    expect(pairing.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await harness.admin('PATCH', '/admin/settings', { corsOrigins: ['not an origin'] });
    expect(bad.status).toBe(400);
    await harness.admin('PATCH', '/admin/settings', { corsOrigins: ['*'] });
  });
});
