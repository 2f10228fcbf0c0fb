// The HTTP adapter reads bodies itself (node:http, no body-parser): compressed bodies, the JSON it takes and refuses,
// and a query string read the way the relay always read it.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

/** POST /admin/keys with these bytes as its body; a new key answers 201. */
function createKeyWith(body: Uint8Array | string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${harness.baseUrl}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.relay.adminToken}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}

const keyRequest = JSON.stringify({ name: 'compressed', scopes: ['roll:read'] });

describe('request bodies', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('reads a JSON body compressed with %s', async (encoding, compress) => {
    const answer = await createKeyWith(compress(keyRequest), { 'content-encoding': encoding });
    expect(answer.status).toBe(201);
    expect((await answer.json()).name).toBe('compressed');
  });

  it('refuses another content encoding with 415', async () => {
    const answer = await createKeyWith(keyRequest, { 'content-encoding': 'compress' });
    expect(answer.status).toBe(415);
    expect(await answer.json()).toEqual({
      error: 'The request body must be UTF-8, plain or compressed with gzip, deflate or br',
    });
  });

  it('takes JSON only as an object: blank, a string or a list is a 400', async () => {
    const answers = await Promise.all(['  \n', '"name"', '[1]'].map((body) => createKeyWith(body, {})));
    expect(await Promise.all(answers.map(async (answer) => [answer.status, (await answer.json()).error]))).toEqual([
      [400, 'The request body is not valid JSON'],
      [400, 'The request body is not valid JSON'],
      [400, 'The request body must be a JSON object'],
    ]);
  });

  it('takes a JSON body with a charset parameter, and refuses one that is not UTF', async () => {
    const utf8 = await createKeyWith(keyRequest, { 'content-type': 'application/json; charset=UTF-8' });
    expect(utf8.status).toBe(201);
    const latin1 = await createKeyWith(keyRequest, { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
  });
});

describe('the query string', () => {
  it('reads a repeated name as a list and a bracketed name as it is, so neither passes for a single text', async () => {
    const reader = await harness.createKey({ scopes: ['roll:read'] });
    const listed = await fetch(`${harness.baseUrl}/rolls?clientId=a&clientId=b`, { headers: { 'x-api-key': reader } });
    expect(listed.status).toBe(400);
    expect((await listed.json()).error).toBe("'clientId' must be a string");
    const bracketed = await fetch(`${harness.baseUrl}/rolls?clientId[a]=b`, { headers: { 'x-api-key': reader } });
    expect(bracketed.status).toBe(404);
    expect((await bracketed.json()).error).toBe('No connected Foundry clients found');
  });
});
