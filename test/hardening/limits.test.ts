import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld({
    relay: { settings: { requestsPerMinute: 5, streamsPerKey: 2 }, bodyLimitBytes: 4096 },
  });
});
afterAll(() => harness.close());

describe('per-key rate limit', () => {
  it('allows the burst with RateLimit headers, then answers 429 with Retry-After', async () => {
    const key = await harness.keyWith(['clients:read']);
    const remaining: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const answer = await harness.api(key, 'GET', '/clients');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('5');
      remaining.push(answer.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await harness.api(key, 'GET', '/clients');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({ error: 'Too many API requests, please slow down' });
  });

  it('counts each key on its own', async () => {
    const first = await harness.keyWith(['clients:read']);
    const second = await harness.keyWith(['clients:read']);
    for (let index = 0; index < 6; index += 1) await harness.api(first, 'GET', '/clients');
    expect((await harness.api(second, 'GET', '/clients')).status).toBe(200);
  });

  it('never limits the pairing polls of the module', async () => {
    const created = await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'polling-world' } });
    for (let index = 0; index < 20; index += 1) {
      expect((await call(harness.baseUrl, 'GET', `/auth/pair-request/${created.body.code}/status`)).status).toBe(200);
    }
  });
});

describe('request body limit', () => {
  it('answers an oversized body with 413 and says the limit', async () => {
    const key = await harness.keyWith(['roll:execute']);
    const answer = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20', flavor: 'x'.repeat(8000) } });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/^Request body too large: the limit is/);
  });

  it('answers a body nested too deeply with 400', async () => {
    const key = await harness.keyWith(['effects:write']);
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    const answer = await harness.api(key, 'POST', '/effects', { body: `{"uuid":"Actor.x","effectData":${deep}}` });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'The request body is nested more than 64 levels deep' });
  });
});

describe('event streams per key', () => {
  it('refuses a stream beyond the cap with a clear 429, and allows it again once one closes', async () => {
    const key = await harness.keyWith(['events:subscribe']);
    const first = await harness.stream('/rolls/subscribe', {}, key);
    await harness.stream('/hooks/subscribe', {}, key);
    const third = await harness.api(key, 'GET', '/scene/subscribe');
    expect(third.status).toBe(429);
    expect(third.body.error).toBe(
      'This API key already holds 2 open event streams, the most it may; close one, or raise the limit in the settings',
    );
    first.close();
    await expect
      .poll(() => harness.relay.services.events.countOwnedBy(harness.relay.services.keys.verify(key)!.id))
      .toBe(1);
    const again = await harness.stream('/scene/subscribe', {}, key);
    expect(again.status).toBe(200);
  });
});

describe('settings', () => {
  it('are changed through the admin API and kept in the data directory', async () => {
    const changed = await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 0 });
    expect(changed.body).toMatchObject({ requestsPerMinute: 5, streamsPerKey: 2 });
    expect(JSON.parse(readFileSync(join(harness.dataDir, 'settings.json'), 'utf8'))).toEqual({ requestsPerMinute: 0 });
    const bad = await harness.admin('PATCH', '/admin/settings', { streamsPerKey: -1 });
    expect(bad.body).toEqual({ error: "'streamsPerKey' must be between 0 and 1000000" });
  });
});
