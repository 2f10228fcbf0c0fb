// Item 4: the relay reads no request body before it knows the caller may call the route, and then only up to the
// route's own limit, counted after decompression: small for ordinary routes, large for uploads only.
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { answerBeforeTheBody as answerBeforeUnfinishedBody } from './unfinished-body.ts';

const MiB = 1024 * 1024;
let harness: WorldHarness;
/** 1 GiB of zeros as 16 concatenated gzip members: about 1 MB on the wire. */
let gzipBomb: Buffer;

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { requestsPerMinute: 0 } } });
  const member = zlib.gzipSync(Buffer.alloc(64 * MiB), { level: 9 });
  gzipBomb = Buffer.concat(Array.from({ length: 16 }, () => member));
}, 30_000);
afterAll(() => harness.close());

// The relay runs in this process: every gzip or deflate stream the body parser opens (from the same `node:zlib`
// object, which it reads at each call) is counted here.
const zlib = createRequire(import.meta.url)('node:zlib') as typeof Zlib;
let inflatedBytes = 0;
const originals = { createGunzip: zlib.createGunzip, createInflate: zlib.createInflate };
function countingInflation<T extends Zlib.Gunzip | Zlib.Inflate>(stream: T): T {
  const push = stream.push.bind(stream);
  stream.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk) inflatedBytes += chunk.length;
    return push(chunk, encoding);
  };
  return stream;
}
function replace(name: keyof typeof originals, create: (typeof originals)[typeof name]): void {
  Object.defineProperty(zlib, name, { value: create });
}
beforeAll(() => {
  replace('createGunzip', (options) => countingInflation(originals.createGunzip(options)));
  replace('createInflate', (options) => countingInflation(originals.createInflate(options)));
});
afterAll(() => {
  replace('createGunzip', originals.createGunzip);
  replace('createInflate', originals.createInflate);
});
afterEach(() => {
  inflatedBytes = 0;
});

function post(path: string, body: Buffer, headers: Record<string, string>): Promise<Response> {
  return fetch(new URL(path, harness.baseUrl), { method: 'POST', headers, body: new Uint8Array(body) });
}

/** Sends the headers and the first 64 KiB of a 50 MiB body, then waits (5 s at most) for an answer before the rest. */
function answerBeforeTheBody(path: string, headers: Record<string, string>): Promise<number | 'no answer'> {
  return answerBeforeUnfinishedBody(harness.baseUrl, path, {
    headers,
    declaredBytes: 50 * MiB,
    firstBytes: Buffer.alloc(64 * 1024, 0x20),
    waitMs: 5000,
  });
}

describe('item 04: no body is read before the caller is let in, and each route has its own limit', () => {
  it('answers a POST without a key with 401 while its body is still being sent', async () => {
    expect(await answerBeforeTheBody('/roll', { 'content-type': 'application/json' })).toBe(401);
    expect(await answerBeforeTheBody('/upload?path=x&filename=a.png', { 'content-type': 'image/png' })).toBe(401);
    expect(await answerBeforeTheBody('/admin/keys', { 'content-type': 'application/json' })).toBe(401);
  });

  it('answers twelve gzip bombs without a key with 401 and inflates none of them', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        post('/roll', gzipBomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(401));
    expect(inflatedBytes).toBe(0);
    const key = await harness.keyWith(['roll:read']);
    expect((await harness.api(key, 'GET', '/rolls')).status).toBe(200);
  }, 30_000);

  it('refuses a wrong key and a key without the scope before reading the body', async () => {
    const readOnly = await harness.keyWith(['roll:read']);
    for (const [key, status] of [
      ['not-a-key', 401],
      [readOnly, 403],
    ] as const) {
      const answer = await post('/upload?path=x&filename=a.png', gzipBomb, {
        'x-api-key': key,
        'content-type': 'image/png',
        'content-encoding': 'gzip',
      });
      expect(answer.status).toBe(status);
    }
    expect(inflatedBytes).toBe(0);
  });

  it('cuts an ordinary route at 1 MiB, counted after inflating, and a public route at 64 KiB', async () => {
    const key = await harness.keyWith(['roll:execute']);
    const big = Buffer.from(JSON.stringify({ formula: '1d20', flavor: 'x'.repeat(2 * MiB) }));
    const encoded = [
      ['identity', big],
      ['gzip', zlib.gzipSync(big)],
      ['deflate', zlib.deflateSync(big)],
      ['br', zlib.brotliCompressSync(big)],
    ] as const;
    for (const [encoding, body] of encoded) {
      const answer = await post('/roll', body, {
        'x-api-key': key,
        'content-type': 'application/json',
        'content-encoding': encoding,
      });
      expect(answer.status).toBe(413);
      expect(await answer.json()).toEqual({
        error: 'Request body too large: the limit is 1 MiB for POST /roll, counted after decompression',
      });
    }
    expect(inflatedBytes).toBeLessThan(2 * (MiB + 64 * 1024));
    const fits = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20', flavor: 'x'.repeat(512 * 1024) } });
    expect(fits.status).toBe(200);

    const pairRequest = Buffer.from(JSON.stringify({ worldId: 'w', worldTitle: 'x'.repeat(100 * 1024) }));
    const publicAnswer = await post('/auth/pair-request', pairRequest, { 'content-type': 'application/json' });
    expect(publicAnswer.status).toBe(413);
    expect((await publicAnswer.json()).error).toBe(
      'Request body too large: the limit is 64 KiB for POST /auth/pair-request, counted after decompression',
    );
  });

  it('holds the same for form bodies: none read before the key, 1 MiB after inflating, 64 KiB on a public route', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await answerBeforeTheBody('/roll', form)).toBe(401);
    const formBomb = zlib.gzipSync(Buffer.from(`formula=1d20&flavor=${'x'.repeat(64 * MiB)}`));
    const unkeyed = await post('/roll', formBomb, { ...form, 'content-encoding': 'gzip' });
    expect(unkeyed.status).toBe(401);
    expect(inflatedBytes).toBe(0);

    const key = await harness.keyWith(['roll:execute']);
    const answer = await post('/roll', formBomb, { ...form, 'x-api-key': key, 'content-encoding': 'gzip' });
    expect(answer.status).toBe(413);
    expect((await answer.json()).error).toBe(
      'Request body too large: the limit is 1 MiB for POST /roll, counted after decompression',
    );
    expect(inflatedBytes).toBeLessThan(2 * (MiB + 64 * 1024));
    const plain = await post('/roll', Buffer.from(`formula=1d20&flavor=${'x'.repeat(2 * MiB)}`), {
      ...form,
      'x-api-key': key,
    });
    expect(plain.status).toBe(413);

    const pairRequest = await post(
      '/auth/pair-request',
      Buffer.from(`worldId=w&worldTitle=${'x'.repeat(100 * 1024)}`),
      form,
    );
    expect(pairRequest.status).toBe(413);
    expect((await pairRequest.json()).error).toBe(
      'Request body too large: the limit is 64 KiB for POST /auth/pair-request, counted after decompression',
    );
  }, 30_000);

  it('still takes a 20 MB upload with a valid key', async () => {
    const key = await harness.keyWith(['file:write']);
    const bytes = Buffer.alloc(20 * 1000 * 1000, 7);
    const answer = await post('/upload?path=maps&filename=big.webp', bytes, {
      'x-api-key': key,
      'content-type': 'image/webp',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ success: true });
  }, 30_000);

  it('cuts a gzip bomb to an upload route at the 100 MiB limit with 413, without inflating the rest', async () => {
    const key = await harness.keyWith(['file:write']);
    const answer = await post('/upload?path=maps&filename=bomb.webp', gzipBomb, {
      'x-api-key': key,
      'content-type': 'image/webp',
      'content-encoding': 'gzip',
    });
    expect(answer.status).toBe(413);
    expect((await answer.json()).error).toBe(
      'Request body too large: the limit is 100 MiB for POST /upload, counted after decompression',
    );
    expect(inflatedBytes).toBeGreaterThan(100 * MiB);
    expect(inflatedBytes).toBeLessThan(101 * MiB);
    const reader = await harness.keyWith(['roll:read']);
    expect((await harness.api(reader, 'GET', '/rolls')).status).toBe(200);
  }, 30_000);
});
