import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../relay/auth/scopes.ts';
import { startTestRelay, TOOL_SCOPES, type TestRelay } from '../harness/relay.ts';
import { allRoutes } from '../../relay/routes.ts';
import { scopeOf } from '../../relay/routing/route.ts';

// The scope table of relay-http-interface.md "Authentication", plus GET /clients.
const SCOPE_OF_ENDPOINT: Array<[string, string, Scope]> = [
  ['GET', '/effects', 'effects:read'],
  ['GET', '/effects/list', 'effects:read'],
  ['POST', '/effects', 'effects:write'],
  ['DELETE', '/effects', 'effects:write'],
  ['GET', '/rolls', 'roll:read'],
  ['GET', '/lastroll', 'roll:read'],
  ['POST', '/roll', 'roll:execute'],
  ['GET', '/rolls/subscribe', 'events:subscribe'],
  ['GET', '/hooks/subscribe', 'events:subscribe'],
  ['GET', '/encounters/subscribe', 'events:subscribe'],
  ['GET', '/actor/subscribe', 'events:subscribe'],
  ['GET', '/scene/subscribe', 'events:subscribe'],
  ['GET', '/playlists', 'playlist:control'],
  ['POST', '/playlist/play', 'playlist:control'],
  ['POST', '/playlist/stop', 'playlist:control'],
  ['POST', '/playlist/next', 'playlist:control'],
  ['POST', '/playlist/volume', 'playlist:control'],
  ['POST', '/stop-sound', 'playlist:control'],
  ['GET', '/structure', 'structure:read'],
  ['GET', '/get-folder', 'structure:read'],
  ['GET', '/contents/Folder.abc', 'structure:read'],
  ['POST', '/create-folder', 'structure:write'],
  ['DELETE', '/delete-folder', 'structure:write'],
  ['GET', '/search', 'search'],
  ['GET', '/sheet', 'sheet:read'],
  ['POST', '/select', 'entity:read'],
  ['GET', '/selected', 'entity:read'],
  ['GET', '/players', 'entity:read'],
  ['GET', '/world-info', 'world:info'],
  ['POST', '/execute-js', 'execute-js'],
  ['GET', '/clients', 'clients:read'],
];

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

describe('API keys', () => {
  it.each(SCOPE_OF_ENDPOINT)('%s %s answers 401 without a key', async (method, path) => {
    const answer = await harness.api(undefined, method, path);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      error: 'API key is required: send it in the x-api-key header, or as Authorization: Bearer <key>',
    });
  });

  it.each(SCOPE_OF_ENDPOINT)('%s %s answers 401 with an unknown key', async (method, path) => {
    const answer = await harness.api('ttr_not-a-real-key', method, path);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'Invalid API key' });
  });

  it.each(SCOPE_OF_ENDPOINT)('%s %s needs the scope %s and says so', async (method, path, scope) => {
    const withoutScope = await harness.createKey({ scopes: TOOL_SCOPES.filter((candidate) => candidate !== scope) });
    const refused = await harness.api(withoutScope, method, path);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: `API key lacks required scope: ${scope}` });
    expect(refused.headers.get('x-required-scope')).toBe(scope);
    const withScope = await harness.createKey({ scopes: [scope] });
    const passed = await harness.api(withScope, method, path);
    expect(passed.status).not.toBe(401);
    expect(passed.status).not.toBe(403);
  });

  it('accepts a connection token only on /relay, never as an API key', async () => {
    const { token } = harness.relay.services.connectionTokens.issue('fvtt_x', 'browser', 'pairing');
    expect((await harness.api(token, 'GET', '/clients')).status).toBe(401);
  });

  it('stops accepting a revoked key at once, and a rotated key is replaced by its new one', async () => {
    const created = await harness.admin('POST', '/admin/keys', { name: 'deck', scopes: ['clients:read'] });
    const { id, key } = created.body;
    expect((await harness.api(key, 'GET', '/clients')).status).toBe(200);
    const rotated = await harness.admin('POST', `/admin/keys/${id}/rotate`);
    expect(rotated.body.key).not.toBe(key);
    expect((await harness.api(key, 'GET', '/clients')).status).toBe(401);
    expect((await harness.api(rotated.body.key, 'GET', '/clients')).status).toBe(200);
    expect((await harness.admin('DELETE', `/admin/keys/${id}`)).status).toBe(200);
    expect((await harness.api(rotated.body.key, 'GET', '/clients')).status).toBe(401);
  });
});

describe('errors before any world is involved', () => {
  it('answers 404 naming the problem when no world is connected', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const answer = await harness.api(key, 'GET', '/rolls');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('No connected Foundry clients found');
  });

  it('answers 404 for an unknown clientId', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const answer = await harness.api(key, 'GET', '/rolls', { query: { clientId: 'fvtt_nobody' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Invalid client ID' });
  });

  it('answers 403 when a world-bound key names another world', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'], worldIds: ['fvtt_mine'] });
    const answer = await harness.api(key, 'GET', '/rolls', { query: { clientId: 'fvtt_theirs' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: 'API key is not authorized for this client' });
  });

  it('answers unknown endpoints with a JSON 404', async () => {
    const answer = await harness.api(undefined, 'GET', '/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Unknown endpoint: GET /no-such-thing' });
  });

  it('answers a known path with another method with 405 naming the allowed ones, also as the Allow header', async () => {
    const answer = await harness.api(undefined, 'PUT', '/effects');
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ error: 'PUT is not allowed on /effects; use GET or POST or DELETE' });
    expect(answer.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('answers a body that is not JSON with a 400', async () => {
    const key = await harness.createKey({ scopes: ['roll:execute'] });
    const answer = await harness.api(key, 'POST', '/roll', {
      body: '{"formula": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'The request body is not valid JSON' });
  });

  it('answers the deprecated /contents/:path with directions to /structure', async () => {
    const key = await harness.createKey({ scopes: ['structure:read'] });
    const answer = await harness.api(key, 'GET', '/contents/Folder.abc');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('This endpoint has been deprecated.');
    expect(answer.body.message).toContain('/structure');
    expect(answer.body.example).toContain('/structure?path=');
  });

  it('opens CORS to the origins the GM allowed and exposes the image headers', async () => {
    const preflight = () =>
      fetch(`${harness.baseUrl}/sheet`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:30000',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
    expect((await preflight()).headers.get('access-control-allow-origin')).toBeNull();
    await harness.admin('PATCH', '/admin/settings', { corsOrigins: ['http://localhost:30000'] });
    const allowed = await preflight();
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:30000');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    const answer = await harness.api(undefined, 'GET', '/api/status');
    expect(answer.headers.get('access-control-expose-headers')).toContain('X-Image-Width');
    await harness.admin('PATCH', '/admin/settings', { corsOrigins: [] });
  });
});

describe('every scoped route of every group', () => {
  const scoped = allRoutes.filter((route) => scopeOf(route) !== undefined);

  it('covers every group of the reference relay', () => {
    const paths = scoped.map((route) => `${route.method} ${route.path}`);
    for (const path of [
      'GET /get',
      'POST /start-encounter',
      'GET /canvas/{documentType}',
      'DELETE /chat/{messageId}',
      'POST /switch-scene',
      'POST /macro/{uuid}/execute',
      'POST /upload',
      'POST /dnd5e/short-rest',
      'DELETE /user',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it("refuses a key without the route's scope with 403 naming it, and lets a key with only that scope through", async () => {
    for (const route of scoped) {
      const scope = scopeOf(route)!;
      const path = route.path.replace(/\{documentType\}/, 'tokens').replace(/\{(\w+)\}/g, 'x');
      const without = await harness.createKey({ scopes: TOOL_SCOPES.filter((candidate) => candidate !== scope) });
      const refused = await harness.api(without, route.method, path);
      expect(refused.status, `${route.method} ${route.path}`).toBe(403);
      expect(refused.body.error).toBe(`API key lacks required scope: ${scope}`);
      const only = await harness.createKey({ scopes: [scope] });
      expect([401, 403], `${route.method} ${route.path}`).not.toContain(
        (await harness.api(only, route.method, path)).status,
      );
    }
  });

  it('needs macro:write on top of entity:write to create a macro', async () => {
    const key = await harness.createKey({ scopes: ['entity:write'] });
    const answer = await harness.api(key, 'POST', '/create', { body: { entityType: 'Macro', data: { name: 'x' } } });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('API key lacks required scope: macro:write');
  });
});
