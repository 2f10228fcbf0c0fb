// Issue 23, item 15 (first part): approving a key request through the admin API without naming scopes granted every
// scope the tool asked for, execute-js included, while the settings UI leaves the risky ones unticked. Now an approval
// that names no scopes grants the asked ones but execute-js and world:link, which only an approval naming them grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let relay: TestRelay;

beforeAll(async () => {
  relay = await startTestRelay({ keyRequestPollIntervalMs: 50 });
});

afterAll(() => relay?.close());

async function ask(scopes: string[]): Promise<{ code: string; pollUrl: string }> {
  const answer = await call(relay.baseUrl, 'POST', '/auth/key-request', { body: { appName: 'Macro runner', scopes } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const approve = (code: string, body: unknown) => relay.admin('POST', `/admin/key-requests/${code}/approve`, body);

async function collect(pollUrl: string): Promise<{ apiKey: string; scopes: string[] }> {
  const answer = await call(relay.baseUrl, 'GET', new URL(pollUrl).pathname);
  expect(answer.body.status).toBe('approved');
  return answer.body;
}

describe('item 36: an approval grants only what the GM named, as the settings UI does', () => {
  it('an approval that names no scopes leaves out execute-js: the key cannot run scripts', async () => {
    const asked = await ask(['roll:read', 'chat:read', 'execute-js']);
    const approved = await approve(asked.code, {});
    expect(approved.status).toBe(200);
    const { apiKey, scopes } = await collect(asked.pollUrl);
    expect([...scopes].sort()).toEqual(['chat:read', 'roll:read']);
    const script = await relay.api(apiKey, 'POST', '/execute-js', { body: { script: 'return game.users' } });
    expect(script.status).toBe(403);
    expect(script.headers.get('x-required-scope')).toBe('execute-js');
    const listed = (await relay.admin('GET', '/admin/keys')).body.keys.find(
      (key: { id: string }) => key.id === approved.body.keyId,
    );
    expect(listed.scopes).not.toContain('execute-js');
  });

  it('execute-js is granted when the approval names it', async () => {
    const asked = await ask(['roll:read', 'execute-js']);
    expect((await approve(asked.code, { scopes: ['roll:read', 'execute-js'] })).status).toBe(200);
    expect([...(await collect(asked.pollUrl)).scopes].sort()).toEqual(['execute-js', 'roll:read']);
  });

  it('a request for risky scopes alone must have them named, or be denied: nothing is granted unseen', async () => {
    const asked = await ask(['execute-js']);
    const unnamed = await approve(asked.code, {});
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error).toMatch(/asked only for execute-js, granted only by name: name them in 'scopes'/);
    expect((await relay.admin('GET', '/admin/keys')).body.keys).toHaveLength(2);
    expect((await approve(asked.code, { scopes: ['execute-js'] })).status).toBe(200);
    expect((await collect(asked.pollUrl)).scopes).toEqual(['execute-js']);
  });
});
