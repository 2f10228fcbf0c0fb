// The call pipeline (relay/routing/pipeline.ts `runCall`) on fake services: the one order every call takes, access →
// pause → rate limit → body → caller → parameters → answer → activity, and that a refusal at one step stops the steps
// after it. Each fake service notes its step as the pipeline reaches it; a service the fakes leave out fails the call.
import { z } from 'zod';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../../relay/auth/api-keys.ts';
import { HttpError, RetryLater } from '../../relay/errors.ts';
import { text } from '../../relay/routing/parameters.ts';
import { runCall, type CallAnswer, type CallInput } from '../../relay/routing/pipeline.ts';
import { RateLimiter, type RateDecision } from '../../relay/routing/rate-limit.ts';
import { localRoute, worldRoute, type CallContext, type Route } from '../../relay/routing/route.ts';
import type { RelayServices } from '../../relay/services.ts';
import { fakeTabletop, fakeWorld, type FakeAnswer, type SentRequest } from './fake-worlds.ts';

type Step = 'admit' | 'access' | 'pause' | 'rate limit' | 'body' | 'parameters' | 'world' | 'answer' | 'activity';
type Fields = Record<string, unknown>;

const WORLD = 'fvtt_table';
const GM_KEY = 'ttr_gm-deck-secret';
const READER_KEY = 'ttr_reader-secret';
const ALICE_KEY = 'ttr_alice-secret';

function keyRecord(id: string, name: string, scopes: ApiKeyRecord['scopes'], userId?: string): ApiKeyRecord {
  return { id, name, hash: `hash-${id}`, prefix: id, scopes, createdAt: '', ...(userId ? { userId } : {}) };
}

const KEYS = new Map<string, ApiKeyRecord>([
  [GM_KEY, keyRecord('gm', 'GM deck', ['roll:execute', 'roll:read'])],
  [READER_KEY, keyRecord('reader', 'Reader', ['roll:read'])],
  [ALICE_KEY, keyRecord('alice', "Alice's deck", ['roll:execute'], 'Alice')],
]);

let steps: Step[];
/** The parameters as each route's schema was handed them, before it parsed them. */
let schemaSaw: Fields[];

beforeEach(() => {
  steps = [];
  schemaSaw = [];
});

/** A route's parameters that note their step and what they were handed. */
function notedParameters<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess((raw) => {
    steps.push('parameters');
    schemaSaw.push({ ...(raw as Fields) });
    return raw;
  }, z.object(shape)) as unknown as z.ZodType<Fields, Fields>;
}

const ROLL = worldRoute({
  method: 'POST',
  path: '/roll',
  summary: 'Rolls dice',
  access: { scope: 'roll:execute' },
  parameters: notedParameters({ formula: text() }),
  operation: 'roll',
  playerView: { passes: 'the world rolls as the user' },
});

const LAST_ROLL = worldRoute({
  method: 'GET',
  path: '/lastroll',
  summary: 'The last roll',
  access: { scope: 'roll:read' },
  parameters: notedParameters({}),
  operation: 'last-roll',
  playerView: { passes: 'the world answers as the user' },
});

/** A route added without saying what a key bound to a player gets. */
const UNDECIDED = worldRoute({
  method: 'POST',
  path: '/undecided',
  summary: 'Says nothing about players',
  access: { scope: 'roll:execute' },
  parameters: notedParameters({ formula: text() }),
  operation: 'roll',
});

const STATUS = localRoute({
  method: 'GET',
  path: '/status',
  summary: "The relay's own answer",
  access: { scope: 'roll:read' },
  parameters: notedParameters({ verbose: text().optional() }),
  headers: z.object({ 'x-tool': text() }),
  playerView: { passes: 'nothing of the world' },
  handle: ({ parameters, headers, key }) => ({ body: { parameters, headers, keyName: key?.name } }),
});

const PAIRING_PAGE = localRoute({
  method: 'GET',
  path: '/pair',
  summary: 'A public page',
  access: 'public',
  parameters: notedParameters({}),
  admit: () => void steps.push('admit'),
  handle: () => ({ kind: 'html', html: '<p>Pair</p>' }),
});

const ADMIN_KEYS = localRoute({
  method: 'GET',
  path: '/admin/keys',
  summary: 'The admin API',
  access: 'admin',
  parameters: notedParameters({}),
  handle: () => ({ body: [] }),
});

interface FakeRelay {
  services: RelayServices;
  activity: Fields[];
  sent: SentRequest[];
}

/**
 * The services a keyed call uses, each noting its step. Reaching any other service fails the call: a step that
 * starts to use something new shows up here first.
 */
function fakeRelay(
  options: { paused?: boolean; perMinute?: number; answer?: FakeAnswer; worlds?: string[]; players?: boolean } = {},
): FakeRelay {
  const activity: Fields[] = [];
  const alice = { id: 'user-alice', name: 'Alice', role: 1, active: true };
  const worlds = (options.worlds ?? [WORLD]).map((clientId) => fakeWorld(clientId, options.players ? [alice] : []));
  const tabletop = fakeTabletop(worlds, options.answer, (use) => steps.push(use === 'world' ? 'world' : 'answer'));
  const limiter = new RateLimiter(() => options.perMinute ?? 600);
  const services: Partial<RelayServices> = {
    keys: {
      verify: (presented: string) => {
        steps.push('access');
        return KEYS.get(presented);
      },
    } as Partial<RelayServices['keys']> as RelayServices['keys'],
    network: {
      paused: () => {
        steps.push('pause');
        return options.paused === true;
      },
    } as Partial<RelayServices['network']> as RelayServices['network'],
    rateLimiter: {
      take: (keyId: string) => {
        steps.push('rate limit');
        return limiter.take(keyId);
      },
    } as Partial<RateLimiter> as RateLimiter,
    activity: {
      record: (entry: Fields) => {
        steps.push('activity');
        activity.push(entry);
      },
    } as Partial<RelayServices['activity']> as RelayServices['activity'],
    tabletop,
    timeoutOverrideMs: undefined,
  };
  const onlyThese = new Proxy(services, {
    get(target, name) {
      if (name in target) return target[name as keyof RelayServices];
      throw new Error(`the pipeline reached services.${String(name)}, which this call should not need`);
    },
  });
  return { services: onlyThese as RelayServices, activity, sent: tabletop.sent };
}

function callContext(headers: Record<string, string> = {}, remoteAddress = '127.0.0.1'): CallContext {
  return { transport: 'http', remoteAddress, relayOrigin: 'http://127.0.0.1:3010', header: (name) => headers[name] };
}

interface CallOptions {
  key?: string;
  body?: Fields;
  query?: Fields;
  clientId?: string;
  pathParameters?: Fields;
  context?: CallContext;
  onRateLimit?: (decision: RateDecision) => void;
}

function callInput(route: Route, options: CallOptions = {}): CallInput {
  return {
    route,
    call: options.context ?? callContext(),
    logged: { method: route.method, path: route.path },
    presentedKey: options.key,
    clientId: options.clientId,
    query: { ...options.query },
    pathParameters: options.pathParameters,
    readBody: async () => {
      steps.push('body');
      return { ...options.body };
    },
    onRateLimit: options.onRateLimit,
  };
}

/** The error a call was refused with. */
async function refusal(call: Promise<CallAnswer>): Promise<HttpError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('pipeline: the order of a call', () => {
  it("takes a keyed world call through access, pause, rate limit, body, parameters, the world's answer, activity", async () => {
    const relay = fakeRelay();
    const answer = await runCall(callInput(ROLL, { key: GM_KEY, body: { formula: '1d20' } }), relay.services);

    expect(steps).toEqual(['access', 'pause', 'rate limit', 'body', 'parameters', 'world', 'answer', 'activity']);
    expect(answer).toMatchObject({ kind: 'world-json', status: 200, clientId: WORLD });
    expect(relay.sent).toEqual([{ clientId: WORLD, operation: 'roll', message: { formula: '1d20' } }]);
    expect(relay.activity).toEqual([
      expect.objectContaining({ keyName: 'GM deck', method: 'POST', path: '/roll', status: 200 }),
    ]);
  });

  it('reads no body for a route that takes its parameters from the query', async () => {
    const relay = fakeRelay();
    await runCall(callInput(LAST_ROLL, { key: GM_KEY, body: { ignored: true } }), relay.services);
    expect(steps).toEqual(['access', 'pause', 'rate limit', 'parameters', 'world', 'answer', 'activity']);
  });

  it('takes the caller before the parameters: the schema never sees clientId or userId, the world gets the caller', async () => {
    const relay = fakeRelay({ worlds: [WORLD, 'fvtt_other'], players: true });
    const input = callInput(ROLL, { key: ALICE_KEY, clientId: WORLD, body: { formula: '2d6', userId: 'Bob' } });
    await runCall(input, relay.services);

    expect(schemaSaw).toEqual([{ formula: '2d6', userId: undefined, clientId: undefined }]);
    expect(relay.sent).toEqual([{ clientId: WORLD, operation: 'roll', message: { formula: '2d6', userId: 'Alice' } }]);
    expect(relay.activity[0]).toMatchObject({ keyName: "Alice's deck", note: 'acted as Alice (asked Bob)' });
  });

  it('merges the query, the body and the path parameters: the body over the query, the path over both', async () => {
    const relay = fakeRelay();
    const sent = { key: GM_KEY, query: { formula: '1d4' }, body: { formula: '1d6' } };
    await runCall(callInput(ROLL, sent), relay.services);
    await runCall(callInput(ROLL, { ...sent, pathParameters: { formula: '1d8' } }), relay.services);
    expect(schemaSaw.map(({ formula }) => formula)).toEqual(['1d6', '1d8']);
  });

  it("hands a local route's handler its parsed parameters, its declared headers and the key, and logs its answer", async () => {
    const relay = fakeRelay();
    const input = callInput(STATUS, {
      key: GM_KEY,
      query: { verbose: ' yes ' },
      context: callContext({ 'x-tool': 'Deck' }),
    });
    const answer = await runCall(input, relay.services);

    expect(answer).toEqual({
      body: { parameters: { verbose: 'yes' }, headers: { 'x-tool': 'Deck' }, keyName: 'GM deck' },
    });
    expect(steps).toEqual(['access', 'pause', 'rate limit', 'parameters', 'activity']);
    expect(relay.activity[0]).toMatchObject({ path: '/status', status: 200 });
  });
});

describe('pipeline: a refusal stops the steps after it', () => {
  it('refuses a call without a key with a 401 before anything else, and logs it as having no key', async () => {
    const relay = fakeRelay({ paused: true });
    const error = await refusal(runCall(callInput(ROLL, { body: { formula: '1d20' } }), relay.services));

    expect(error.status).toBe(401);
    expect(error.message).toMatch(/^API key is required: send it in the x-api-key header/);
    expect(steps).toEqual(['activity']);
    expect(relay.activity[0]).toMatchObject({ keyName: null, keyProblem: 'missing', status: 401 });
  });

  it('refuses an unknown key with a 401, logged as unknown and never by the key itself', async () => {
    const relay = fakeRelay();
    const error = await refusal(runCall(callInput(ROLL, { key: 'ttr_made-up' }), relay.services));

    expect([error.status, error.message]).toEqual([401, 'Invalid API key']);
    expect(steps).toEqual(['access', 'activity']);
    expect(relay.activity[0]).toMatchObject({ keyName: null, keyProblem: 'unknown', status: 401 });
    expect(JSON.stringify(relay.activity)).not.toContain('made-up');
  });

  it("refuses a key without the route's scope at access, before the pause, the rate limit and the body", async () => {
    const relay = fakeRelay({ paused: true, perMinute: 1 });
    const error = await refusal(runCall(callInput(ROLL, { key: READER_KEY }), relay.services));

    expect([error.status, error.message]).toEqual([403, 'API key lacks required scope: roll:execute']);
    expect(error.headers).toEqual({ 'X-Required-Scope': 'roll:execute' });
    expect(steps).toEqual(['access', 'activity']);
    expect(relay.activity[0]).toMatchObject({ keyName: 'Reader', status: 403 });
  });

  it("refuses a call while paused with a 503, without counting it against the key's rate", async () => {
    const relay = fakeRelay({ paused: true });
    const error = await refusal(runCall(callInput(ROLL, { key: GM_KEY }), relay.services));

    expect([error.status, error.message]).toEqual([503, 'Tabletop Relay is paused; resume it from the tray menu']);
    expect(steps).toEqual(['access', 'pause', 'activity']);
  });

  it('refuses a call over the rate limit with a 429 that says when to retry, before reading its body', async () => {
    const relay = fakeRelay({ perMinute: 1 });
    const decisions: RateDecision[] = [];
    const call = () =>
      runCall(
        callInput(ROLL, { key: GM_KEY, body: { formula: '1d20' }, onRateLimit: (d) => decisions.push(d) }),
        relay.services,
      );
    await call();
    steps = [];
    const error = await refusal(call());

    expect(error).toBeInstanceOf(RetryLater);
    expect([error.status, error.message]).toEqual([429, 'Too many API requests, please slow down']);
    expect((error as RetryLater).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(decisions.map(({ allowed, limit, remaining }) => ({ allowed, limit, remaining }))).toEqual([
      { allowed: true, limit: 1, remaining: 0 },
      { allowed: false, limit: 1, remaining: 0 },
    ]);
    expect(steps).toEqual(['access', 'pause', 'rate limit', 'activity']);
  });

  it('refuses a bad parameter with a 400 naming it, without asking the world', async () => {
    const relay = fakeRelay();
    const error = await refusal(runCall(callInput(ROLL, { key: GM_KEY, body: { formula: '' } }), relay.services));

    expect([error.status, error.message]).toEqual([400, "'formula' is required"]);
    expect(steps).toEqual(['access', 'pause', 'rate limit', 'body', 'parameters', 'world', 'activity']);
    expect(relay.sent).toEqual([]);
    expect(relay.activity[0]).toMatchObject({ status: 400, reason: "'formula' is required" });
  });

  it('answers an unknown world before a bad parameter, as the reference relay does', async () => {
    const relay = fakeRelay();
    const input = callInput(ROLL, { key: GM_KEY, clientId: 'fvtt_gone', body: { formula: '' } });
    const error = await refusal(runCall(input, relay.services));
    expect([error.status, error.message]).toEqual([404, 'Invalid client ID']);
  });

  it("answers the world's refusal of the user before a bad parameter, asking the world only about the user", async () => {
    const relay = fakeRelay({
      answer: ({ operation, message }) => ({ type: `${operation}-result`, error: `User not found: ${message.userId}` }),
    });
    const input = callInput(ROLL, { key: GM_KEY, body: { formula: '', userId: 'Nobody' } });
    const error = await refusal(runCall(input, relay.services));

    expect([error.status, error.message]).toEqual([400, 'User not found: Nobody']);
    expect(relay.sent.map(({ operation, message }) => [operation, message])).toEqual([
      ['players', { userId: 'Nobody' }],
    ]);
  });

  it("refuses a route that says nothing about players to a key bound to a player, before the world's answer", async () => {
    const relay = fakeRelay({ players: true });
    const error = await refusal(
      runCall(callInput(UNDECIDED, { key: ALICE_KEY, body: { formula: '1d20' } }), relay.services),
    );

    expect(error.status).toBe(403);
    expect(error.message).toMatch(
      /^This key acts as Alice, who is not a GM in this world: POST \/undecided is not open/,
    );
    expect(relay.sent).toEqual([]);
  });

  it("passes a world's refusal on as a 400 and logs it with the world's reason", async () => {
    const relay = fakeRelay({ answer: () => ({ type: 'roll-result', error: 'Failed to roll formula: 1d' }) });
    const answer = await runCall(callInput(ROLL, { key: GM_KEY, body: { formula: '1d' } }), relay.services);

    expect(answer).toMatchObject({ kind: 'world-json', status: 400 });
    expect(relay.activity[0]).toMatchObject({ status: 400, reason: 'Failed to roll formula: 1d' });
  });
});

describe('pipeline: routes without a key', () => {
  it('admits a public route by its own check alone: no pause, rate limit or activity entry', async () => {
    const relay = fakeRelay({ paused: true });
    const answer = await runCall(callInput(PAIRING_PAGE, { key: GM_KEY }), relay.services);

    expect(answer).toMatchObject({ kind: 'html' });
    expect(steps).toEqual(['admit', 'parameters']);
    expect(relay.activity).toEqual([]);
  });

  it('refuses the admin API to another computer before it looks at any credential', async () => {
    const relay = fakeRelay();
    const input = callInput(ADMIN_KEYS, { context: callContext({ authorization: 'Bearer x' }, '192.168.1.20') });
    const error = await refusal(runCall(input, relay.services));

    expect([error.status, error.message]).toEqual([403, 'The admin API answers only on this computer (loopback)']);
    expect(steps).toEqual([]);
  });
});
