import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { WebSocket } from 'ws';
import { allRoutes } from '../../relay/routes.ts';
import type { Route } from '../../relay/routing/route.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

// Generated bad input for every route: the relay must answer each with a 4xx JSON {error} or a normal success,
// never a 5xx and never a hang, and keep serving afterwards. A page for people (a route that produces text/html, such as
// /pair/{code}) answers its refusals as a page too.

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld({
    seed: 11,
    relay: { settings: { requestsPerMinute: 0, streamsPerKey: 0 }, timeoutOverrideMs: 500 },
  });
});
afterAll(() => harness.close());

/** A small seeded generator, so a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { inner: nested(depth - 1) });

const BAD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
  2.5,
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '../../etc/passwd',
  '%ff%fe',
  '<script>alert(1)</script>',
  '😀',
  [],
  [1, 2],
  [[[]]],
  {},
  { $gt: '' },
  { __proto__: { polluted: true } },
  nested(10),
  'true',
  'NaN',
  '[1,',
  '{"a":',
  '1e999',
  '-0',
];

/**
 * Settings whose valid values move the listener (LAN access, the port): a move is a deliberate admin change, covered by
 * its own tests, and resets the connections still waiting to be accepted, which would fail the requests sent with it.
 */
const MOVES_THE_LISTENER = new Set(['lanAccess', 'port']);

function parameterNames(route: Route): string[] {
  const shape = (route.parameters as unknown as { shape?: Record<string, z.ZodType> }).shape;
  return shape ? Object.keys(shape).filter((name) => route.access !== 'admin' || !MOVES_THE_LISTENER.has(name)) : [];
}

interface Sent {
  status: number;
  contentType: string;
  body: string;
}

function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, harness.baseUrl);
    const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
    const headers = { 'x-api-key': harness.key, ...length, ...options.headers };
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (response.headers['content-type']?.includes('event-stream')) response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString(),
          });
        response.on('end', finish);
        response.on('close', finish);
      },
    );
    request.setTimeout(5000, () => request.destroy(new Error(`${method} ${path} hung`)));
    request.on('error', (error) => reject(new Error(`${method} ${path}: ${error.message}`)));
    request.end(options.body);
  });
}

function expectHandled(answer: Sent, context: string, page = false): void {
  const what = `${context} -> ${answer.status} ${answer.body.slice(0, 200)}`;
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status >= 400) {
    if (page && answer.contentType.includes('text/html')) return;
    expect(answer.contentType, what).toContain('application/json');
    expect(typeof JSON.parse(answer.body).error, what).toBe('string');
  }
}

function concretePath(path: string): string {
  return path.replace(/\{\w+\}/g, 'ABC123');
}

describe('fuzzing every route', () => {
  it('answers thousands of malformed requests with 4xx JSON errors (or a success), never a 5xx or a hang', async () => {
    const random = generator(20261122);
    const cases: Array<() => Promise<void>> = [];
    for (const route of allRoutes) {
      const names = [...parameterNames(route), 'clientId', 'userId', 'extra'];
      const path = concretePath(route.path);
      for (let index = 0; index < 60; index += 1) {
        const fields: Record<string, unknown> = {};
        for (const name of names) if (random.next() < 0.5) fields[name] = random.pick(BAD_VALUES);
        const asQuery = route.method === 'GET' || random.next() < 0.3;
        cases.push(async () => {
          const query = new URLSearchParams();
          if (asQuery)
            for (const [name, value] of Object.entries(fields))
              query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
          const body = asQuery ? undefined : JSON.stringify(fields);
          const answer = await send(route.method, `${path}${asQuery ? `?${query}` : ''}`, {
            body,
            headers:
              body === undefined
                ? {}
                : { 'content-type': 'application/json', authorization: `Bearer ${harness.relay.adminToken}` },
          });
          const context = `${route.method} ${path} ${JSON.stringify(fields).slice(0, 200)}`;
          expectHandled(answer, context, route.produces === 'text/html');
        });
      }
    }
    for (let start = 0; start < cases.length; start += 16)
      await Promise.all(cases.slice(start, start + 16).map((run) => run()));
    expect(cases.length).toBeGreaterThan(2500);
    expect((await harness.get('/world-info')).status).toBe(200);
  }, 120_000);

  it('answers broken bodies, unknown methods and odd paths with 4xx JSON errors', async () => {
    const json = { 'content-type': 'application/json' };
    const raw: Array<[string, string, { headers?: Record<string, string>; body?: Buffer | string }]> = [
      ['POST', '/roll', { headers: json, body: '{"formula":' }],
      ['POST', '/roll', { headers: json, body: Buffer.from([0x7b, 0x22, 0x66, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) }],
      ['POST', '/roll', { headers: json, body: '[1,2,3]' }],
      ['POST', '/roll', { headers: json, body: '"just a string"' }],
      ['POST', '/roll', { headers: json, body: 'null' }],
      ['POST', '/roll', { headers: json, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }],
      [
        'POST',
        '/effects',
        { headers: json, body: `{"uuid":"Actor.x","effectData":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}` },
      ],
      ['POST', '/roll', { headers: { 'content-type': 'application/json; charset=latin-7' }, body: '{}' }],
      ['POST', '/roll', { headers: { 'content-type': 'text/plain' }, body: 'formula=1d20' }],
      ['POST', '/roll', { headers: { ...json, 'content-encoding': 'gzip' }, body: 'not gzip' }],
      ['PROPFIND', '/effects', {}],
      ['PATCH', '/rolls', {}],
      ['GET', '/effects/%ff', {}],
      ['GET', '/contents/%E0%A4%A', {}],
      ['GET', `/search?query=${'%25'.repeat(2000)}`, {}],
      ['GET', '/search?limit=1&limit=2', {}],
      ['GET', '/search?query[$gt]=a', {}],
      ['GET', '/rolls?clientId[]=a&clientId[]=b', {}],
      ['DELETE', '/delete-folder', { headers: json, body: '{"folderId":{"$ne":null}}' }],
      ['GET', '/admin/keys', {}],
      ['GET', '/auth/pair-request/%00/status', {}],
    ];
    for (const [method, path, options] of raw) expectHandled(await send(method, path, options), `${method} ${path}`);
    expect((await harness.get('/world-info')).status).toBe(200);
  });
});

describe('fuzzing the /relay socket', () => {
  it('closes or ignores malformed frames, unknown types, stray replies and frames before auth, and keeps running', async () => {
    const random = generator(7);
    const frames = [
      '',
      '{',
      'null',
      '[]',
      '"auth"',
      '{"type":"auth"}',
      '{"type":"auth","token":42}',
      '{"type":"auth","token":""}',
      JSON.stringify({ type: 'rolls-result', requestId: 'rolls_1', data: [] }),
      JSON.stringify({ type: 'roll-data', data: 'x' }),
      JSON.stringify({ type: 'player-list', users: 'everyone' }),
      JSON.stringify({ type: 'chat-event', data: { eventType: 5 } }),
      JSON.stringify({ type: 'hook-event', data: null }),
      JSON.stringify({ type: 'x'.repeat(10_000) }),
      '\u0000\u0001',
      '😀',
    ];
    const { token } = harness.relay.services.connectionTokens.issue('fvtt_fuzzworld', 'fuzz', 'demo');
    for (let round = 0; round < 30; round += 1) {
      const authenticate = random.next() < 0.5;
      const socket = new WebSocket(`${harness.wsUrl}/relay?id=fvtt_fuzzworld`);
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.on('error', () => {});
      if (authenticate) socket.send(JSON.stringify({ type: 'auth', token }));
      for (let index = 0; index < 20; index += 1) {
        if (random.next() < 0.1) socket.send(Buffer.from([random.next() * 255, random.next() * 255]), { binary: true });
        else socket.send(random.pick(frames));
      }
      socket.close();
      await new Promise((resolve) => socket.once('close', resolve));
    }
    expect((await harness.get('/world-info')).status).toBe(200);
    expect(harness.relay.services.tabletop.world(harness.clientId)).toBeDefined();
  });
});
