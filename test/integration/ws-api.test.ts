import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

function connect(key = harness.key): Promise<ApiSocket> {
  return ApiSocket.open(harness.wsUrl, key);
}

describe('/ws/api', () => {
  it('authenticates with a first auth frame and announces the supported types and channels', async () => {
    const caller = await new ApiSocket(`${harness.wsUrl}/ws/api`).opened();
    caller.send({ type: 'auth', token: harness.key });
    const connected = await caller.next((m) => m.type === 'connected');
    expect(connected.supportedTypes).toEqual(expect.arrayContaining(['search', 'roll', 'get-effects', 'subscribe']));
    expect(connected.eventChannels).toEqual([
      'roll-events',
      'chat-events',
      'hooks',
      'combat-events',
      'actor-events',
      'scene-events',
    ]);
    caller.socket.close();
  });

  it('closes with 4002 for an invalid key or a frame that is not auth', async () => {
    const bad = await new ApiSocket(`${harness.wsUrl}/ws/api`).opened();
    bad.send({ type: 'auth', token: 'ttr_wrong' });
    expect(await bad.closed).toEqual({ code: 4002, reason: 'Invalid API key' });
    const noAuth = await new ApiSocket(`${harness.wsUrl}/ws/api`).opened();
    noAuth.send({ type: 'search', requestId: 'a' });
    expect(await noAuth.closed).toEqual({ code: 4002, reason: 'Invalid auth message' });
  });

  it("answers requests with the world's result, correlated by the caller's request id", async () => {
    const caller = await connect();
    caller.send({ type: 'search', requestId: 'find-1', query: 'goblin', limit: 3 });
    caller.send({ type: 'world-info', requestId: 'info-1' });
    const search = await caller.next((m) => m.requestId === 'find-1');
    const info = await caller.next((m) => m.requestId === 'info-1');
    expect(search).toMatchObject({ type: 'search-result', clientId: harness.clientId });
    expect(search.results).toHaveLength(3);
    expect(info.type).toBe('world-info-result');
    expect(info.data.world.id).toBe(harness.world.metadata.worldId);
    caller.socket.close();
  });

  it('validates parameters and scopes as HTTP does', async () => {
    const narrow = await harness.keyWith(['search']);
    const caller = await connect(narrow);
    caller.send({ type: 'search', requestId: 'bad', limit: 9999 });
    caller.send({ type: 'roll', requestId: 'forbidden', formula: '1d20' });
    caller.send({ type: 'teleport', requestId: 'unknown' });
    caller.send({ type: 'search' });
    expect(await caller.next((m) => m.requestId === 'bad')).toEqual({
      type: 'search-result',
      requestId: 'bad',
      status: 400,
      error: "'limit' must be between 1 and 500",
    });
    expect(await caller.next((m) => m.requestId === 'forbidden')).toMatchObject({
      type: 'roll-result',
      status: 403,
      error: 'API key lacks required scope: roll:execute',
    });
    expect(await caller.next((m) => m.requestId === 'unknown')).toMatchObject({
      type: 'error',
      error: 'Unknown message type: "teleport"',
    });
    expect(await caller.next((m) => m.type === 'error' && m.requestId === undefined)).toMatchObject({
      status: 400,
      error: expect.stringContaining('"requestId"'),
    });
    caller.socket.close();
  });

  it('delivers roll and chat events after subscribing, and stops after unsubscribing', async () => {
    const caller = await connect();
    caller.send({ type: 'subscribe', channel: 'roll-events', requestId: 's1' });
    caller.send({ type: 'subscribe', channel: 'chat-events', requestId: 's2' });
    await caller.next((m) => m.type === 'subscribed' && m.channel === 'chat-events');
    caller.send({ type: 'roll', requestId: 'r1', formula: '1d20', createChatMessage: true });
    const roll = await caller.next((m) => m.type === 'roll-event');
    expect(roll).toMatchObject({
      event: 'roll',
      clientId: harness.clientId,
      data: { type: 'roll-data', data: { formula: '1d20' } },
    });
    const chat = await caller.next((m) => m.type === 'chat-event');
    expect(chat.event).toBe('chat-create');
    expect(chat.data).toMatchObject({ type: 'chat-event', data: { eventType: 'create', data: { isRoll: true } } });
    caller.send({ type: 'unsubscribe', channel: 'roll-events', requestId: 'u1' });
    expect(await caller.next((m) => m.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      channel: 'roll-events',
      removed: 1,
      requestId: 'u1',
    });
    const before = caller.received.filter((m) => m.type === 'roll-event').length;
    harness.world.simulate.playerRoll('Alice', '1d6');
    await caller.next((m) => m.type === 'chat-event' && m.data.data.data.rolls?.[0]?.formula === '1d6');
    expect(caller.received.filter((m) => m.type === 'roll-event')).toHaveLength(before);
    caller.socket.close();
    await expect.poll(() => harness.world.enabledChannels()).not.toContain('chat-events');
  });

  it("applies a user-bound key's user to every call", async () => {
    const key = await harness.keyWith(['entity:read'], { userId: 'Alice' });
    const caller = await connect(key);
    caller.send({ type: 'players', requestId: 'p' });
    expect((await caller.next((m) => m.requestId === 'p')).users).toEqual([]);
    caller.send({ type: 'players', requestId: 'q', userId: 'Gamemaster' });
    const asked = await caller.next((m) => m.requestId === 'q');
    expect(asked.status).toBeUndefined();
    expect(asked.users).toEqual([]);
    caller.socket.close();
  });

  it('stops a socket whose key is revoked', async () => {
    const created = await harness.admin('POST', '/admin/keys', { name: 'short-lived', scopes: ['search'] });
    const caller = await connect(created.body.key);
    await harness.admin('DELETE', `/admin/keys/${created.body.id}`);
    caller.send({ type: 'search', requestId: 'after', query: 'x' });
    expect((await caller.closed).code).toBe(4002);
  });
});
