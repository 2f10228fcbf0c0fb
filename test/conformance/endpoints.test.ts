// Endpoints a client written for the reference relay (foundryvtt-rest-api-relay 3.4.1, module 3.4.1) calls, checked
// against what that relay was recorded answering: over HTTP and, for keyed routes, over /ws/api, against the sandbox
// world through real sockets. The recorded answers are data below; the sources are named with each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { SANDBOX_CLIENT_ID, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { transports, type Transport, type TransportName } from '../contract/transports.ts';

/** One entry of GET /clients as the reference relay answered it (its docs/examples/clients-examples.json). */
const REFERENCE_CLIENT_ENTRY = {
  clientId: 'fvtt_d3db244ce1d8af0b',
  instanceId: 'local',
  lastSeen: 1780520731407,
  connectedSince: 1780520731405,
  worldId: 'rest-api',
  worldTitle: 'rest-api',
  foundryVersion: '12.331',
  systemId: 'dnd5e',
  systemTitle: 'Dungeons & Dragons Fifth Edition',
  systemVersion: '4.3.8',
  customName: 'my-cool-server',
  publicUrl: 'http://localhost:30012',
  ipAddress: '[::1]:51316',
  tokenName: 'headless session 2026-06-03 16:05',
  isOnline: true,
};
/** Fields the reference leaves out when empty (`omitempty` in its ClientInfo); every other field is always there. */
const OMITTED_WHEN_EMPTY = new Set([
  'customName',
  'publicUrl',
  'tokenName',
  'worldId',
  'worldTitle',
  'foundryVersion',
  'systemId',
  'systemTitle',
  'systemVersion',
]);
/** The reference's AuthMiddleware for a `?clientId=` no world is connected with. */
const REFERENCE_UNKNOWN_CLIENT = { status: 404, error: 'Invalid client ID' };
/** The reference's healthHandler: RFC 3339 time in UTC, to the second. */
const REFERENCE_HEALTH = { status: 'ok', timestamp: '2026-06-03T16:05:31Z', instanceId: 'local' };
const RFC3339_UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/** The module's scene-raw-image answer, which the reference passes through (module-protocol.md §4.11). */
const REFERENCE_RAW_IMAGE_DATA_FIELDS = ['sceneId', 'sceneName', 'src', 'imageData'];

const typesOf = (entry: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entry).map(([field, value]) => [field, typeof value]));

function expectReferenceEntryShape(entry: Record<string, unknown>): void {
  const referenceTypes = typesOf(REFERENCE_CLIENT_ENTRY);
  const always = Object.keys(referenceTypes).filter((field) => !OMITTED_WHEN_EMPTY.has(field));
  expect(Object.keys(entry)).toEqual(expect.arrayContaining(always));
  for (const [field, type] of Object.entries(typesOf(entry)))
    expect({ field, type }).toEqual({ field, type: referenceTypes[field] });
}

let harness: WorldHarness;
let over: Record<TransportName, Transport>;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
});
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

describe.each(['http', 'ws'] as const)('over %s', (name) => {
  const transport = () => over[name];

  it('GET /clients lists a world with the reference entry fields and types: epoch-millisecond times, instanceId, ipAddress host:port', async () => {
    const before = Date.now();
    const answer = await transport().call('GET /clients');
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(1);
    const [entry] = answer.body.clients;
    expectReferenceEntryShape(entry);
    expect(entry).toMatchObject({ clientId: SANDBOX_CLIENT_ID, instanceId: 'local', isOnline: true });
    expect(entry.connectedSince).toBeLessThanOrEqual(entry.lastSeen);
    expect(entry.lastSeen).toBeLessThanOrEqual(before);
    expect(entry.ipAddress).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('GET /clients?clientId= answers 404 Invalid client ID for a world that is not connected, and the whole list for one that is', async () => {
    const unknown = await transport().call('GET /clients', { clientId: 'fvtt_nosuchworld000' });
    expect({ status: unknown.status, error: unknown.body.error }).toEqual(REFERENCE_UNKNOWN_CLIENT);
    const known = await transport().call('GET /clients', { clientId: SANDBOX_CLIENT_ID });
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ total: 1, clients: [{ clientId: SANDBOX_CLIENT_ID }] });
  });

  it('POST /dnd5e/transfer-currency takes the reference body: source and target actor by UUID or name, and currency', async () => {
    const byName = await transport().call('POST /dnd5e/transfer-currency', {
      sourceActorName: 'Thorin Ironfoot',
      targetActorName: 'Lyra Moonwhisper',
      currency: { gp: 1 },
    });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ type: 'transfer-currency-result', data: { transferred: { gp: 1 } } });
    const [thorin, lyra] = [await uuidOf(harness, 'Thorin Ironfoot'), await uuidOf(harness, 'Lyra Moonwhisper')];
    expect(byName.body.data).toMatchObject({ sourceActorUuid: thorin, targetActorUuid: lyra });
    const back = await transport().call('POST /dnd5e/transfer-currency', {
      sourceActorUuid: lyra,
      targetActorUuid: thorin,
      currency: { gp: 1 },
    });
    expect(back.status).toBe(200);
    expect(back.body.data.sourceBalance.gp).toBe(byName.body.data.targetBalance.gp - 1);
    expect(back.body.data.targetBalance.gp).toBe(byName.body.data.sourceBalance.gp + 1);
  });

  it('POST /dnd5e/transfer-currency without a source or a target is a 400 naming the missing parameters', async () => {
    const noSource = await transport().call('POST /dnd5e/transfer-currency', {
      targetActorName: 'Lyra Moonwhisper',
      currency: { gp: 1 },
    });
    expect(noSource.status).toBe(400);
    expect(noSource.body.error).toBe("Either 'sourceActorUuid' or 'sourceActorName' is required");
    const noTarget = await transport().call('POST /dnd5e/transfer-currency', {
      sourceActorName: 'Thorin Ironfoot',
      currency: { gp: 1 },
    });
    expect(noTarget.body.error).toBe("Either 'targetActorUuid' or 'targetActorName' is required");
  });

  it('short-rest, long-rest and modify-experience accept selected: true and act on the selected token’s actor', async () => {
    const selected = await transport().call('POST /select', { name: 'Pip Thistledown', overwrite: true });
    expect(selected.body.selected).toHaveLength(1);
    const pip = await uuidOf(harness, 'Pip Thistledown');
    for (const route of ['POST /dnd5e/short-rest', 'POST /dnd5e/long-rest']) {
      const rest = await transport().call(route, { selected: true });
      expect({ route, status: rest.status, actorUuid: rest.body.data?.actorUuid }).toEqual({
        route,
        status: 200,
        actorUuid: pip,
      });
    }
    const experience = await transport().call('POST /dnd5e/modify-experience', { selected: true, amount: 10 });
    expect(experience.status).toBe(200);
    expect(experience.body.data).toMatchObject({ actorUuid: pip, newXp: experience.body.data.oldXp + 10 });
    const neither = await transport().call('POST /dnd5e/short-rest', {});
    expect({ status: neither.status, error: neither.body.error }).toEqual({
      status: 400,
      error: "Either 'actorUuid' or 'selected' is required",
    });
  });

  it("GET /scene/image/raw answers the module's JSON: the background as a data URL under data", async () => {
    const answer = await transport().call('GET /scene/image/raw', { active: true });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('scene-raw-image-result');
    expect(Object.keys(answer.body.data)).toEqual(expect.arrayContaining(REFERENCE_RAW_IMAGE_DATA_FIELDS));
    expect(answer.body.data.imageData).toMatch(/^data:image\/png;base64,/);
    expect(answer.body.data.sceneName).toBe('Keep Courtyard');
  });
});

describe('a world opened from its Foundry page', () => {
  const CLIENT_ID = 'fvtt_browserpage0001';
  const PAGE = 'http://localhost:30000';
  let relay: TestRelay;
  let world: WebSocket;
  let worldPort: number;
  let overPage: Record<TransportName, Transport>;

  beforeAll(async () => {
    relay = await startTestRelay();
    const { token } = relay.relay.services.connectionTokens.issue(CLIENT_ID, 'Firefox on Linux', 'pairing', PAGE);
    world = new WebSocket(`${relay.wsUrl}/relay?id=${CLIENT_ID}&worldId=keep&worldTitle=Keep`, { origin: PAGE });
    world.once('upgrade', (response) => (worldPort = response.socket.localPort!));
    await new Promise((resolve, reject) => {
      world.once('open', resolve);
      world.once('error', reject);
    });
    world.send(JSON.stringify({ type: 'auth', token }));
    await new Promise<void>((resolve) =>
      world.on('message', (data) => JSON.parse(data.toString()).type === 'auth-success' && resolve()),
    );
    overPage = transports(relay.baseUrl, relay.wsUrl, await relay.createKey());
  });
  afterAll(async () => {
    for (const transport of Object.values(overPage ?? {})) transport.close();
    world?.close();
    await relay?.close();
  });

  // The reference sends the page's origin as publicUrl; API keys here never see a world's Foundry address
  // (docs/SECURITY.md, item 14), and the reference leaves publicUrl out too when it has none.
  it.each(['http', 'ws'] as const)(
    'is listed over %s with its socket as ipAddress, without its Foundry address',
    async (name) => {
      const answer = await overPage[name].call('GET /clients');
      const [entry] = answer.body.clients;
      expectReferenceEntryShape(entry);
      expect(entry).toMatchObject({
        clientId: CLIENT_ID,
        ipAddress: `127.0.0.1:${worldPort}`,
        tokenName: 'Firefox on Linux',
      });
      expect(JSON.stringify(answer.body)).not.toContain(PAGE);
    },
  );
});

describe('GET /api/health', () => {
  it("answers without a key with the reference's fields: status, an RFC 3339 UTC timestamp and instanceId", async () => {
    const answer = await fetch(new URL('/api/health', harness.baseUrl));
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(Object.keys(body).sort()).toEqual(Object.keys(REFERENCE_HEALTH).sort());
    expect(typesOf(body)).toEqual(typesOf(REFERENCE_HEALTH));
    expect(body).toMatchObject({ status: REFERENCE_HEALTH.status, instanceId: REFERENCE_HEALTH.instanceId });
    expect(body.timestamp).toMatch(RFC3339_UTC_SECONDS);
    expect(REFERENCE_HEALTH.timestamp).toMatch(RFC3339_UTC_SECONDS);
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(5_000);
  });
});
