// Every keyed route is reachable over both transports: over HTTP at its method and path, over /ws/api by its
// operation (world and local routes) or its channel (streams). A route added to one transport only fails here.
// Public routes (status, pairing, documentation), admin routes (loopback plus admin token, the settings UI's API) and
// overlay routes (an overlay link in the URL, for OBS's browser source) are HTTP only by design: /ws/api is for API
// keys, and nothing a key can do is left out of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../relay/routes.ts';
import { scopeOf, type Route } from '../../relay/routing/route.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { channelOf, operationOf, transports, type Transport, type TransportName } from './transports.ts';

const keyed = allRoutes.filter((route) => scopeOf(route) !== undefined);
const named = (route: Route) => `${route.method} ${route.path}`;

let harness: WorldHarness;
let over: Record<TransportName, Transport>;
/** A key that holds no scope any tool route takes, so every call is answered by its route's own scope check. */
let keyOfNoRoute: string;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
  keyOfNoRoute = await harness.createKey({ scopes: ['world:link'] });
});
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

describe('every keyed route over both transports', () => {
  it('/ws/api announces each keyed route: its operation, or its channel for a stream', async () => {
    const socket = await ApiSocket.open(harness.wsUrl, harness.key);
    const connected = await socket.next((message) => message.type === 'connected');
    socket.close();
    const missing = keyed.filter((route) => {
      const channel = channelOf(route);
      if (channel !== undefined) return !connected.eventChannels.includes(channel);
      const operation = operationOf(route);
      return operation === undefined || !connected.supportedTypes.includes(operation);
    });
    expect(missing.map(named)).toEqual([]);
    const operations = keyed.map(operationOf).filter((operation) => operation !== undefined);
    expect([...connected.supportedTypes].sort()).toEqual(['ping', 'subscribe', 'unsubscribe', ...operations].sort());
  });

  it('no two routes share an operation, so a /ws/api type names one route', () => {
    const operations = keyed.map(operationOf).filter((operation) => operation !== undefined);
    expect(operations.filter((operation, index) => operations.indexOf(operation) !== index)).toEqual([]);
  });

  it.each(['http', 'ws'] as const)('over %s, each keyed route answers with its own scope check', async (name) => {
    const unreached: string[] = [];
    for (const route of keyed) {
      const expected = { status: 403, body: { error: `API key lacks required scope: ${scopeOf(route)}` } };
      const answer =
        route.kind === 'stream'
          ? await over[name].subscribe(named(route), {}, keyOfNoRoute)
          : await over[name].call(named(route), {}, keyOfNoRoute);
      if (answer.status !== expected.status || answer.body?.error !== expected.body.error)
        unreached.push(`${named(route)}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(unreached).toEqual([]);
  });

  it.each(['http', 'ws'] as const)(
    'over %s, a call that passes the scope check reaches its route, not a miss',
    async (name) => {
      const misses: string[] = [];
      for (const route of keyed.filter((candidate) => candidate.kind === 'local')) {
        const answer = await over[name].call(named(route), {});
        const error = String(answer.body?.error ?? '');
        if (error.startsWith('Unknown endpoint') || error.startsWith('Unknown message type'))
          misses.push(`${named(route)}: ${error}`);
      }
      expect(misses).toEqual([]);
    },
  );
});
