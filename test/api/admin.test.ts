import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkAdmin } from '../../relay/routing/access.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

describe('the admin API', () => {
  it('refuses requests without the admin token', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/admin/keys');
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatch(/Admin token is required/);
  });

  it('refuses a wrong admin token', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/admin/keys', { headers: { authorization: 'Bearer nope' } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'Invalid admin token' });
  });

  it('refuses requests that do not come from loopback, even with the token', () => {
    const headers: Record<string, string> = { authorization: `Bearer ${harness.relay.adminToken}` };
    const callFrom = (remoteAddress: string) => ({
      method: 'GET',
      hasQuery: false,
      call: {
        transport: 'http' as const,
        remoteAddress,
        relayOrigin: harness.baseUrl,
        header: (name: string) => headers[name],
      },
    });
    expect(() => checkAdmin(callFrom('192.168.1.20'), harness.relay.services)).toThrow(
      expect.objectContaining({ status: 403, message: 'The admin API answers only on this computer (loopback)' }),
    );
    expect(checkAdmin(callFrom('127.0.0.1'), harness.relay.services)).toBeUndefined();
  });

  it('keeps the admin token in the data directory, readable by its owner only', () => {
    const path = join(harness.dataDir, 'admin-token');
    expect(JSON.parse(readFileSync(path, 'utf8')).token).toBe(harness.relay.adminToken);
    expect(statSync(path).mode & 0o077).toBe(0);
  });

  it('creates a key that is shown once and stored only as a hash', async () => {
    const created = await harness.admin('POST', '/admin/keys', {
      name: 'Stream Deck',
      scopes: ['roll:read', 'search'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Stream Deck', scopes: ['roll:read', 'search'] });
    expect(created.body.key).toMatch(/^ttr_[\w-]{43}$/);
    const stored = readFileSync(join(harness.dataDir, 'api-keys.json'), 'utf8');
    expect(stored).not.toContain(created.body.key);
    const listed = await harness.admin('GET', '/admin/keys');
    expect(listed.text).not.toContain(created.body.key);
    expect(listed.body.keys.find((key: { id: string }) => key.id === created.body.id)).toMatchObject({
      name: 'Stream Deck',
      prefix: created.body.key.slice(0, 10),
    });
  });

  it('gives a key without named scopes the read-only defaults, never execute-js', async () => {
    const created = await harness.admin('POST', '/admin/keys', { name: 'defaults' });
    expect(created.body.scopes).toContain('search');
    expect(created.body.scopes).not.toContain('execute-js');
    expect(created.body.scopes).not.toContain('roll:execute');
  });

  it('rejects unknown scopes and a missing name with a 400 naming them', async () => {
    const badScope = await harness.admin('POST', '/admin/keys', { name: 'x', scopes: ['roll:read', 'everything'] });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error).toBe(
      "'scopes.1' is not a known scope (Invalid scope: everything); GET /admin/scopes lists them",
    );
    const noName = await harness.admin('POST', '/admin/keys', { scopes: ['roll:read'] });
    expect(noName.body).toEqual({ error: "'name' is required" });
  });

  it('changes a key and answers 404 for an unknown one', async () => {
    const created = await harness.admin('POST', '/admin/keys', { name: 'old', scopes: ['search'] });
    const changed = await harness.admin('PATCH', `/admin/keys/${created.body.id}`, {
      name: 'new',
      scopes: ['roll:read'],
      userId: 'Alice',
    });
    expect(changed.body).toMatchObject({ name: 'new', scopes: ['roll:read'], userId: 'Alice' });
    expect((await harness.admin('PATCH', '/admin/keys/nope', { name: 'x' })).status).toBe(404);
    expect((await harness.admin('DELETE', '/admin/keys/nope')).status).toBe(404);
  });

  it('lists the scope vocabulary', async () => {
    const answer = await harness.admin('GET', '/admin/scopes');
    expect(answer.body.scopes).toHaveLength(33);
    expect(answer.body.defaultScopes).not.toContain('execute-js');
    expect(answer.body.defaultScopes).not.toContain('world:link');
  });
});

describe('persistence', () => {
  it('keeps keys, connection tokens, known worlds and settings across a restart', async () => {
    const relay = await startTestRelay();
    try {
      const key = await relay.createKey({ scopes: ['clients:read'] });
      relay.relay.services.knownWorlds.remember({ clientId: 'fvtt_kept', worldId: 'kept', worldTitle: 'Kept' });
      const { token } = relay.relay.services.connectionTokens.issue('fvtt_kept', 'browser', 'pairing');
      const adminToken = relay.relay.adminToken;
      await relay.admin('PATCH', '/admin/settings', { requestsPerMinute: 90, streamsPerKey: 3 });
      await relay.restart();
      expect((await relay.admin('GET', '/admin/settings')).body).toMatchObject({
        requestsPerMinute: 90,
        streamsPerKey: 3,
      });
      expect(relay.relay.adminToken).toBe(adminToken);
      const clients = await relay.api(key, 'GET', '/clients');
      expect(clients.status).toBe(200);
      expect(clients.body).toEqual({
        total: 1,
        clients: [
          {
            clientId: 'fvtt_kept',
            instanceId: 'local',
            lastSeen: 0,
            connectedSince: 0,
            worldId: 'kept',
            worldTitle: 'Kept',
            isOnline: false,
          },
        ],
      });
      expect(relay.relay.services.connectionTokens.verify(token)?.clientId).toBe('fvtt_kept');
    } finally {
      await relay.close();
    }
  });
});

describe('key management with the reference relay bodies (/auth/api-keys)', () => {
  it('creates, lists masked, changes, regenerates and deletes keys with the admin token', async () => {
    expect((await call(harness.baseUrl, 'GET', '/auth/api-keys')).status).toBe(401);
    const created = await harness.admin('POST', '/auth/api-keys', {
      name: 'Bot',
      scopes: ['search', 'roll:read'],
      scopedClientId: 'fvtt_a',
      scopedUserId: 'Alice',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Bot',
      scopes: ['search', 'roll:read'],
      scopedClientIds: ['fvtt_a'],
      scopedUserId: 'Alice',
      enabled: true,
    });
    expect(created.body.key).toMatch(/^ttr_/);
    const listed = await harness.admin('GET', '/auth/api-keys');
    const entry = listed.body.keys.find((key: { id: string }) => key.id === created.body.id);
    expect(entry.key).toBe(`${created.body.key.slice(0, 8)}...`);
    expect(listed.text).not.toContain(created.body.key);
    const changed = await harness.admin('PATCH', `/auth/api-keys/${created.body.id}`, {
      scopes: ['clients:read'],
      scopedClientIds: [],
    });
    expect(changed.body).toMatchObject({ scopes: ['clients:read'], scopedClientIds: [] });
    const regenerated = await harness.admin('POST', `/auth/api-keys/${created.body.id}/regenerate`);
    expect((await harness.api(created.body.key, 'GET', '/clients')).status).toBe(401);
    expect((await harness.api(regenerated.body.key, 'GET', '/clients')).status).toBe(200);
    expect((await harness.admin('DELETE', `/auth/api-keys/${created.body.id}`)).body).toEqual({ success: true });
    expect((await harness.api(regenerated.body.key, 'GET', '/clients')).status).toBe(401);
  });

  it('explains what it does not support and what is missing', async () => {
    expect((await harness.admin('POST', '/auth/api-keys', { name: 'x' })).body).toEqual({
      error: "'scopes' is required",
    });
    expect((await harness.admin('POST', '/auth/api-keys', { name: 'x', scopes: [] })).body).toEqual({
      error: "'scopes' must name at least one scope",
    });
    const perWorld = await harness.admin('POST', '/auth/api-keys', {
      name: 'x',
      scopes: ['search'],
      scopedUserIds: { fvtt_a: 'Alice' },
    });
    expect(perWorld.status).toBe(400);
    expect(perWorld.body.error).toMatch(/scopedUserId/);
  });
});
