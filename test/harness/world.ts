import {
  connectSandbox,
  createSandboxWorld,
  type ConnectOptions,
  type SandboxLink,
  type SandboxWorld,
  type SystemInfo,
} from '../../sandbox/index.ts';
import type { RelayOptions } from '../../relay/relay.ts';
import type { Scope } from '../../relay/auth/scopes.ts';
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { Answer, CallOptions } from './http.ts';
import { EventStream } from './sse.ts';
import { startTestRelay, type TestRelay } from './relay.ts';

export const SANDBOX_CLIENT_ID = 'fvtt_sandbox0000test';

export interface WorldHarness extends TestRelay {
  world: SandboxWorld;
  link: SandboxLink;
  clientId: string;
  /** A key with every scope. */
  key: string;
  get<T = any>(path: string, query?: CallOptions['query']): Promise<Answer<T>>;
  post<T = any>(path: string, body?: unknown, query?: CallOptions['query']): Promise<Answer<T>>;
  del<T = any>(path: string, body?: unknown, query?: CallOptions['query']): Promise<Answer<T>>;
  keyWith(scopes: readonly Scope[], binding?: { userId?: string; worldIds?: string[] }): Promise<string>;
  stream(path: string, query?: Record<string, string>, key?: string): Promise<EventStream>;
}

/**
 * The Foundry version the suites' sandbox world imitates: 13.348 unless `SANDBOX_FOUNDRY_VERSION` says otherwise (the
 * vitest project `foundry-14` runs test/integration again on a 14 world).
 */
export const FOUNDRY_VERSION = process.env.SANDBOX_FOUNDRY_VERSION || '13.348';
export const ON_FOUNDRY_14 = Number.parseInt(FOUNDRY_VERSION, 10) >= 14;

/** A relay on a free loopback port with a seeded sandbox world connected over the real protocol. */
export async function startRelayWithWorld(
  options: {
    seed?: number;
    foundryVersion?: string;
    /** The world's game system: dnd5e unless given. */
    system?: SystemInfo;
    relay?: Partial<RelayOptions>;
    /** How the world's link comes back after the relay went away: by default it does not. */
    link?: Pick<ConnectOptions, 'reconnect' | 'reconnectBaseDelayMs'>;
  } = {},
): Promise<WorldHarness> {
  const relay = await startTestRelay(options.relay);
  const world = createSandboxWorld({
    seed: options.seed ?? 7,
    foundryVersion: options.foundryVersion ?? FOUNDRY_VERSION,
    system: options.system,
  });
  const { token } = relay.relay.services.connectionTokens.issue(SANDBOX_CLIENT_ID, 'Sandbox world', 'demo');
  const link = await connectSandbox(world, {
    relayUrl: relay.wsUrl,
    clientId: SANDBOX_CLIENT_ID,
    token,
    ...options.link,
  });
  const key = await relay.createKey();
  const streams: EventStream[] = [];
  const close = relay.close;
  return Object.assign(relay, {
    world,
    link,
    clientId: SANDBOX_CLIENT_ID,
    key,
    get: (path: string, query?: CallOptions['query']) => relay.api(key, 'GET', path, { query }),
    post: (path: string, body?: unknown, query?: CallOptions['query']) =>
      relay.api(key, 'POST', path, { body: body ?? {}, query }),
    del: (path: string, body?: unknown, query?: CallOptions['query']) =>
      relay.api(key, 'DELETE', path, { body, query }),
    keyWith: (scopes: readonly Scope[], binding: { userId?: string; worldIds?: string[] } = {}) =>
      relay.createKey({ scopes, ...binding }),
    async stream(path: string, query: Record<string, string> = {}, streamKey = key) {
      const url = new URL(path, relay.baseUrl);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
      const stream = new EventStream(url.toString(), streamKey);
      streams.push(stream);
      await stream.ready;
      return stream;
    },
    async close() {
      for (const stream of streams) stream.close();
      await link.close();
      await close();
    },
  });
}

/** Runs `body` while noting every request the world receives, then lets the world answer as before. */
export async function requestsSeenDuring(harness: WorldHarness, body: () => Promise<unknown>): Promise<WorldRequest[]> {
  const seen: WorldRequest[] = [];
  const original = harness.world.handle.bind(harness.world);
  harness.world.handle = async (request) => {
    seen.push(request);
    return original(request);
  };
  try {
    await body();
  } finally {
    harness.world.handle = original;
  }
  return seen;
}

/** The uuid of the first search hit for an exact name. */
export async function uuidOf(harness: WorldHarness, name: string, documentType = 'Actor'): Promise<string> {
  const answer = await harness.get('/search', { query: name, filter: documentType, excludeCompendiums: true });
  const hit = answer.body.results.find((result: { name: string }) => result.name === name);
  if (!hit) throw new Error(`no ${documentType} named ${name}: ${answer.text}`);
  return hit.uuid;
}
