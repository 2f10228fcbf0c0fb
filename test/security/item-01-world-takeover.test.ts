// Issue 9, item 1: the 2.x `?token=<api key>` handshake on /relay admitted any key not bound to a user, displaced or
// squatted the real world, and outlived its key. Now a world is admitted by its connection token, or by a key made to
// link that one 2.x world ("Connect a 2.x module"), which never displaces a world holding its token.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { connectSandboxLegacy, createSandboxWorld } from '../../sandbox/index.ts';
import { within } from '../harness/caller-api.ts';
import { connectRawWorld, RawWorld } from '../harness/raw-world.ts';
import { startTestRelay, TOOL_SCOPES, type TestRelay } from '../harness/relay.ts';

const WORLD = 'foundry-gmUser0000001';
const OTHER_WORLD = 'foundry-gmUser0000002';
const PAIRED_WORLD = 'fvtt_0123456789abcdef';
const metadata = { worldId: 'keep', worldTitle: 'The Keep', foundryVersion: '12.331', systemId: 'dnd5e' };
const AT_ONCE_MS = 1000;

let harness: TestRelay;

beforeEach(async () => {
  harness = await startTestRelay({ timeoutOverrideMs: 2000 });
});
afterEach(() => harness.close());

/** Opens /relay as a 2.x module does: the API key in the URL, on the URL as configured (the root path here). */
function legacyWorld(clientId: string, key: string, options: { localAddress?: string } = {}): RawWorld {
  return new RawWorld(harness.wsUrl, { id: clientId, token: key, ...metadata }, { path: '/', ...options });
}

async function linkKey(clientId: string): Promise<{ id: string; key: string }> {
  const created = await harness.admin('POST', '/admin/world-links', { clientId, foundryUrl: 'http://localhost:30000' });
  expect(created.status).toBe(201);
  return created.body;
}

/** Answers the next `rolls` request on this world with a marker, and returns what the API caller got. */
async function rollsAnsweredBy(world: RawWorld, marker: string): Promise<unknown> {
  const tool = await harness.createKey({ scopes: ['roll:read'] });
  world.received.length = 0;
  const pending = harness.api(tool, 'GET', '/rolls');
  const request = await world.next((message) => message.type === 'rolls');
  world.send({ type: 'rolls-result', requestId: request.requestId, data: [marker] });
  return (await pending).body.data;
}

describe('item 01: only its connection token or its own world:link key makes a world', () => {
  it('refuses a roll:read key, an unbound all-scopes key and an unbound world:link key as a world (1008)', async () => {
    const keys = [
      await harness.createKey({ scopes: ['roll:read'] }),
      await harness.createKey({ scopes: TOOL_SCOPES }),
      await harness.createKey({ scopes: ['world:link'] }),
      await harness.createKey({ scopes: ['world:link'], worldIds: [WORLD, OTHER_WORLD] }),
    ];
    for (const key of keys) {
      const world = legacyWorld(WORLD, key);
      expect(await within(world.closed, AT_ONCE_MS, 'the refusal')).toEqual({ code: 1008, reason: 'Invalid API key' });
      expect(world.received).toEqual([]);
    }
    expect(harness.relay.services.tabletop.world(WORLD)).toBeUndefined();
  });

  it('lets a world:link key connect as its own world only, not as another', async () => {
    const { key } = await linkKey(WORLD);
    const elsewhere = legacyWorld(OTHER_WORLD, key);
    expect(await within(elsewhere.closed, AT_ONCE_MS, 'the refusal')).toEqual({
      code: 1008,
      reason: 'Invalid API key',
    });
    const own = legacyWorld(WORLD, key);
    await own.next((message) => message.type === 'auth-success');
    expect(await rollsAnsweredBy(own, 'from the linked world')).toEqual(['from the linked world']);
    own.close();
  });

  it('refuses a world:link key for a world connected with its token, from its address or another (4004)', async () => {
    const token = harness.relay.services.connectionTokens.issue(PAIRED_WORLD, 'GM browser', 'pairing').token;
    const real = await connectRawWorld(harness.wsUrl, PAIRED_WORLD, token);
    const { key } = await harness
      .admin('POST', '/admin/keys', { name: 'link', scopes: ['world:link'], worldIds: [PAIRED_WORLD] })
      .then((a) => a.body);
    for (const localAddress of ['127.0.0.1', '127.0.0.2']) {
      const intruder = legacyWorld(PAIRED_WORLD, key, { localAddress });
      expect(await within(intruder.closed, AT_ONCE_MS, 'the refusal')).toEqual({
        code: 4004,
        reason: 'Client ID already connected',
      });
      expect(intruder.received).toEqual([]);
    }
    expect(real.socket.readyState).toBe(WebSocket.OPEN);
    expect(await rollsAnsweredBy(real, 'from the real world')).toEqual(['from the real world']);
    real.close();
  });

  it('hands the world back to its token when a world:link key got there first', async () => {
    const token = harness.relay.services.connectionTokens.issue(PAIRED_WORLD, 'GM browser', 'pairing').token;
    const { key } = await harness
      .admin('POST', '/admin/keys', { name: 'link', scopes: ['world:link'], worldIds: [PAIRED_WORLD] })
      .then((a) => a.body);
    const squatter = legacyWorld(PAIRED_WORLD, key, { localAddress: '127.0.0.2' });
    await squatter.next((message) => message.type === 'auth-success');
    const real = await connectRawWorld(harness.wsUrl, PAIRED_WORLD, token);
    expect(await within(squatter.closed, AT_ONCE_MS, 'the squatter closing')).toEqual({
      code: 1000,
      reason: 'Replaced by the world connecting with its connection token',
    });
    expect(harness.relay.services.tabletop.world(PAIRED_WORLD)?.handshake).toBe('token');
    expect(await rollsAnsweredBy(real, 'from the real world')).toEqual(['from the real world']);
    expect(squatter.received.some((message) => message.type === 'rolls')).toBe(false);
    real.close();
  });

  const CHANGES: [string, (id: string) => Promise<unknown>, string][] = [
    ['revoking', (id) => harness.admin('DELETE', `/admin/keys/${id}`), 'API key revoked'],
    ['rotating', (id) => harness.admin('POST', `/admin/keys/${id}/rotate`), 'API key rotated: use the new key'],
    [
      're-scoping',
      (id) => harness.admin('PATCH', `/admin/keys/${id}`, { scopes: ['roll:read'] }),
      'API key no longer links this world',
    ],
    [
      're-binding',
      (id) => harness.admin('PATCH', `/admin/keys/${id}`, { worldIds: [OTHER_WORLD] }),
      'API key no longer links this world',
    ],
  ];

  it.each(CHANGES)(
    '%s the world:link key closes its world at once with 1008, final for a 2.x module',
    async (_change, change, reason) => {
      const { id, key } = await linkKey(WORLD);
      const world = legacyWorld(WORLD, key);
      await world.next((message) => message.type === 'auth-success');
      const answer = (await change(id)) as { status: number };
      expect(answer.status).toBe(200);
      expect(await within(world.closed, AT_ONCE_MS, 'the linked world closing')).toEqual({ code: 1008, reason });
      await expect.poll(() => harness.relay.services.tabletop.world(WORLD)).toBeUndefined();
    },
  );

  it('keeps the world linked when its key is only renamed', async () => {
    const { id, key } = await linkKey(WORLD);
    const world = legacyWorld(WORLD, key);
    await world.next((message) => message.type === 'auth-success');
    expect((await harness.admin('PATCH', `/admin/keys/${id}`, { name: 'The Keep (2.x)' })).status).toBe(200);
    expect(await rollsAnsweredBy(world, 'still linked')).toEqual(['still linked']);
    world.close();
  });

  it('gives a world:link key no API route, and never mixes world:link with other scopes', async () => {
    const { id, key } = await linkKey(WORLD);
    expect((await harness.api(key, 'GET', '/clients')).status).toBe(403);
    const mixed = await harness.admin('POST', '/admin/keys', {
      name: 'mixed',
      scopes: ['world:link', 'chat:write'],
      worldIds: [WORLD],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatch(/'world:link' cannot be combined with other scopes/);
    expect((await harness.admin('PATCH', `/admin/keys/${id}`, { scopes: ['world:link', 'chat:write'] })).status).toBe(
      400,
    );
    const reference = await harness.admin('POST', '/auth/api-keys', {
      name: 'mixed',
      scopes: ['world:link', 'roll:read'],
      scopedClientId: WORLD,
    });
    expect(reference.status).toBe(400);
  });
});

describe('item 01: a 2.x module connects end to end through "Connect a 2.x module"', () => {
  it('links with the key and relay URL the admin API answers with, serves API calls, and stops when the key is revoked', async () => {
    const world = createSandboxWorld({ seed: 7 });
    const clientId = `foundry-${world.game.moduleUserId}`;
    const created = await harness.admin('POST', '/admin/world-links', {
      clientId,
      foundryUrl: 'http://localhost:30000',
      name: 'The Keep (2.x module)',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scopes: ['world:link'], worldIds: [clientId], name: 'The Keep (2.x module)' });
    expect(created.body.settings).toEqual({
      'foundry-rest-api.wsRelayUrl': `${harness.wsUrl}/relay`,
      'foundry-rest-api.apiKey': created.body.key,
    });

    const link = await connectSandboxLegacy(world, {
      relayUrl: created.body.settings['foundry-rest-api.wsRelayUrl'],
      apiKey: created.body.settings['foundry-rest-api.apiKey'],
    });
    expect(harness.relay.services.tabletop.world(clientId)?.handshake).toBe('legacy-key');

    const tool = await harness.createKey({ scopes: ['world:info', 'search'] });
    const info = await harness.api(tool, 'GET', '/world-info', { query: { clientId } });
    expect(info.status).toBe(200);
    expect(info.body.data.world.id).toBe(world.metadata.worldId);
    const found = await harness.api(tool, 'GET', '/search', { query: { clientId, query: 'Goblin' } });
    expect(found.status).toBe(200);
    expect(found.body.results.length).toBeGreaterThan(0);

    await harness.admin('DELETE', `/admin/keys/${created.body.id}`);
    expect(await within(link.closed, AT_ONCE_MS, 'the 2.x link closing')).toEqual({
      code: 1008,
      reason: 'API key revoked',
    });
  });
});
