// The HTTP adapter reads bodies itself (node:http, no body-parser): compressed bodies, the JSON it takes and refuses,
// and a query string read the way the relay always read it.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** POST /admin/keys as raw bytes, `last` closing the connection once answered. */
function rawKeyRequest(name: string, { last }: { last: boolean }): { head: string; body: string } {
  const body = JSON.stringify({ name, scopes: ['roll:read'] });
  const head = [
    'POST /admin/keys HTTP/1.1',
    `Host: ${new URL(harness.baseUrl).host}`,
    `Authorization: Bearer ${harness.relay.adminToken}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(last ? ['Connection: close'] : []),
    '',
    '',
  ].join('\r\n');
  return { head, body };
}

/** Writes the pieces on one connection, `gapMs` apart, and answers everything the relay sent until it closed. */
async function exchange(pieces: string[], gapMs: number): Promise<string> {
  const socket = connect(Number(new URL(harness.baseUrl).port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  for (const piece of pieces) {
    socket.write(piece);
    await sleep(gapMs);
  }
  await closed;
  return received;
}

const statusLinesOf = (answer: string) => answer.match(/HTTP\/1\.1 \d+ [^\r\n]*/g);

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

  // Most bodies arrive with their headers and are taken at once; the rest are read as they come.
  it('reads bodies that came whole with their headers, two requests in one write on one connection', async () => {
    const first = rawKeyRequest('first whole', { last: false });
    const second = rawKeyRequest('second whole', { last: true });
    const answer = await exchange([first.head + first.body + second.head + second.body], 0);
    expect(statusLinesOf(answer)).toEqual(['HTTP/1.1 201 Created', 'HTTP/1.1 201 Created']);
    expect(answer).toContain('"name":"first whole"');
    expect(answer).toContain('"name":"second whole"');
  });

  it('reads a body that comes in pieces after its headers', async () => {
    const { head, body } = rawKeyRequest('in pieces', { last: true });
    const middle = Math.floor(body.length / 2);
    const answer = await exchange([head, body.slice(0, middle), body.slice(middle)], 30);
    expect(statusLinesOf(answer)).toEqual(['HTTP/1.1 201 Created']);
    expect(answer).toContain('"name":"in pieces"');
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
