// Error texts that clients of the reference relay (foundryvtt-rest-api-relay 3.4.1) match, written below as data from
// its code and its own integration tests (docs/spec/reference-relay-http-api.md §1.12, §1.22, §3), and checked through
// real sockets against the sandbox world, over HTTP and /ws/api. Each 400 still names the parameter it is about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { transports, type Transport, type TransportName } from '../contract/transports.ts';

/** What the reference answers, and how its clients look at it. */
const REFERENCE = {
  /** /ws/api, a frame that is not JSON: `{type:"error", error:"Invalid JSON"}`, compared whole (websocket-api.test.ts). */
  invalidJson: { type: 'error', error: 'Invalid JSON' },
  /** /ws/api, subscribe to a channel that does not exist: `{type:"error", error:"Invalid channel: …", requestId}`. */
  invalidChannel: { type: 'error', errorStart: 'Invalid channel' },
  /** GET /canvas/{documentType} with an unknown type: 400 `{error:"Invalid documentType…", validTypes:[…]}`. */
  invalidDocumentType: {
    status: 400,
    errorStart: 'Invalid documentType',
    validTypes: ['tokens', 'tiles', 'drawings', 'lights', 'sounds', 'notes', 'templates', 'walls', 'regions'],
  },
  /** POST /dnd5e/ability-save with an unknown ability: the module's 400 `Invalid ability '<ability>'. Valid abilities: …`. */
  invalidAbility: { status: 400, errorStart: "Invalid ability 'strength'" },
  /** POST /auth/api-keys with an unknown scope: 400 naming it (`Invalid scope: not-a-real-scope`; scopes.test.ts). */
  invalidScope: { status: 400, errorContains: 'Invalid scope: not-a-real-scope' },
} as const;

let harness: WorldHarness;
let over: Record<TransportName, Transport>;
let thorin: string;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

describe('/ws/api errors', () => {
  let socket: ApiSocket;
  beforeAll(async () => {
    socket = await ApiSocket.open(harness.wsUrl, harness.key);
  });
  afterAll(() => socket?.close());

  it('a frame that is not JSON is answered exactly "Invalid JSON"', async () => {
    socket.socket.send('not valid json{{{');
    const answer = await socket.next((message) => message.type === 'error');
    expect(answer).toMatchObject(REFERENCE.invalidJson);
  });

  it('subscribing to an unknown channel is an error that starts "Invalid channel" and names the channel', async () => {
    socket.send({ type: 'subscribe', channel: 'invalid-channel', requestId: 'bad-channel' });
    const answer = await socket.next((message) => message.requestId === 'bad-channel');
    expect(answer.type).toBe(REFERENCE.invalidChannel.type);
    expect(answer.error.startsWith(REFERENCE.invalidChannel.errorStart)).toBe(true);
    expect(answer.error).toContain('invalid-channel');
  });
});

describe.each(['http', 'ws'] as const)('error texts over %s', (name) => {
  it('an unknown canvas documentType starts "Invalid documentType" and lists validTypes', async () => {
    const answer = await over[name].call('GET /canvas/{documentType}', { documentType: 'dragons' });
    const reference = REFERENCE.invalidDocumentType;
    expect(answer.status).toBe(reference.status);
    expect(answer.body.error.startsWith(reference.errorStart)).toBe(true);
    expect(answer.body.error).toContain('dragons');
    expect(answer.body.validTypes).toEqual(reference.validTypes);
  });

  it('an unknown dnd5e ability starts "Invalid ability \'x\'"', async () => {
    const answer = await over[name].call('POST /dnd5e/ability-save', { actorUuid: thorin, ability: 'strength' });
    expect(answer.status).toBe(REFERENCE.invalidAbility.status);
    expect(answer.body.error.startsWith(REFERENCE.invalidAbility.errorStart)).toBe(true);
  });
});

describe('an unknown scope', () => {
  it.each([
    ['POST', '/auth/api-keys'],
    ['POST', '/admin/keys'],
  ])('%s %s names it and the scopes parameter', async (method, path) => {
    const answer = await harness.admin(method, path, {
      name: 'bad-scope-test',
      scopes: ['entity:read', 'not-a-real-scope'],
    });
    expect(answer.status).toBe(REFERENCE.invalidScope.status);
    expect(answer.body.error).toContain(REFERENCE.invalidScope.errorContains);
    expect(answer.body.error).toContain("'scopes");
  });
});
