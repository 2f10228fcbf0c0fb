// How a tool sends its key: the x-api-key header, or Authorization: Bearer ttr_… as MCP clients and many HTTP plugins
// send one; a 401 says how when the key is anywhere else. The admin token and a key never stand in for each other,
// though both may travel as Authorization: Bearer (docs/SECURITY.md, "Tools holding an API key").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, TOOL_SCOPES, type TestRelay } from '../harness/relay.ts';

const KEY_REQUIRED = 'API key is required: send it in the x-api-key header, or as Authorization: Bearer <key>';

let harness: TestRelay;
let key: string;
beforeAll(async () => {
  harness = await startTestRelay();
  key = await harness.createKey({ scopes: TOOL_SCOPES, name: 'Everything' });
});
afterAll(() => harness.close());

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

describe('a key sent another way than x-api-key', () => {
  it('is taken from Authorization: Bearer, over HTTP and on the /ws/api upgrade', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/clients', { headers: bearer(key) });
    expect(answer.status).toBe(200);
    const socket = new ApiSocket(`${harness.wsUrl}/ws/api`, bearer(key));
    expect(await socket.next((message) => message.type === 'connected')).toMatchObject({ type: 'connected' });
    socket.close();
  });

  it('x-api-key wins over Authorization when both are sent', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/clients', {
      headers: { 'x-api-key': 'ttr_not-a-real-key', ...bearer(key) },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'Invalid API key' });
  });

  it('in a form field or the JSON body, gets a 401 that says to send it in the x-api-key header', async () => {
    const form = await call(harness.baseUrl, 'POST', '/roll', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `apiKey=${key}&formula=1d20`,
    });
    expect(form).toMatchObject({ status: 401, body: { error: KEY_REQUIRED } });
    const json = await call(harness.baseUrl, 'POST', '/roll', { body: { apiKey: key, formula: '1d20' } });
    expect(json).toMatchObject({ status: 401, body: { error: KEY_REQUIRED } });
  });
});

describe('the admin token and an API key never stand in for each other', () => {
  it('the admin token as Bearer on a keyed route is no key', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/clients', { headers: bearer(harness.relay.adminToken) });
    expect(answer).toMatchObject({ status: 401, body: { error: KEY_REQUIRED } });
  });

  it('a key with every scope as Bearer opens no admin route, and is told what the admin API takes', async () => {
    for (const [method, path] of [
      ['GET', '/admin/status'],
      ['GET', '/admin/keys'],
      ['GET', '/auth/api-keys'],
    ] as const) {
      const answer = await call(harness.baseUrl, method, path, { headers: bearer(key) });
      expect(answer.status, path).toBe(401);
      expect(answer.body.error, path).toBe(
        'This is an API key: the admin API takes the admin token (the file admin-token in the data directory) or a settings session, never a key',
      );
    }
    const made = await call(harness.baseUrl, 'POST', '/admin/keys', {
      headers: bearer(key),
      body: { name: 'planted', scopes: ['execute-js'] },
    });
    expect(made.status).toBe(401);
    const names = (await harness.admin('GET', '/admin/keys')).body.keys.map((entry: { name: string }) => entry.name);
    expect(names).not.toContain('planted');
  });
});
