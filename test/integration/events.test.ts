import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { connectRawWorld } from '../harness/raw-world.ts';
import { startTestRelay } from '../harness/relay.ts';
import { EventStream } from '../harness/sse.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keepaliveIntervalMs: 100 } });
});
afterAll(() => harness.close());

function tokenIdOf(name: string): string {
  for (const scene of harness.world.game.scenes.values()) {
    const token = scene.collection('Token').find((candidate) => candidate.name === name);
    if (token) return token.id;
  }
  throw new Error(`no token ${name}`);
}

function sceneIdOf(name: string): string {
  for (const scene of harness.world.game.scenes.values()) if (scene.name === name) return scene.id;
  throw new Error(`no scene ${name}`);
}

describe('event streams', () => {
  it('opens with a connected event and sends keepalive comments', async () => {
    const stream = await harness.stream('/hooks/subscribe');
    expect(stream.status).toBe(200);
    expect(stream.headers?.get('content-type')).toBe('text/event-stream');
    expect(stream.headers?.get('cache-control')).toBe('no-cache');
    expect(stream.events[0]).toEqual({ name: 'connected', data: { clientId: harness.clientId } });
    await expect.poll(() => stream.comments, { timeout: 2000 }).toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it('/hooks/subscribe names each event after its hook and applies the hooks filter', async () => {
    const all = await harness.stream('/hooks/subscribe');
    const actorsOnly = await harness.stream('/hooks/subscribe', { hooks: 'updateActor' });
    const goblin = await uuidOf(harness, 'Goblin');
    harness.world.simulate.moveToken(tokenIdOf('Thorin Ironfoot'), 1050, 850);
    harness.world.simulate.updateActor(goblin.split('.')[1]!, { 'system.attributes.hp.value': 3 });
    const moved = await all.next('updateToken');
    expect(moved.data.type).toBe('hook-event');
    expect(moved.data.data.hook).toBe('updateToken');
    expect(Array.isArray(moved.data.data.args)).toBe(true);
    expect(moved.data.data.args[1]).toMatchObject({ x: 1050, y: 850 });
    await actorsOnly.next('updateActor');
    expect(actorsOnly.events.map((event) => event.name)).toEqual(['connected', 'updateActor']);
    all.close();
    actorsOnly.close();
  });

  it('/encounters/subscribe delivers combat-start, combat-turn and combat-end, filtered by encounterId', async () => {
    const stream = await harness.stream('/encounters/subscribe');
    const other = await harness.stream('/encounters/subscribe', { encounterId: 'someOtherCombat' });
    const combat = harness.world.simulate.startCombat();
    const started = await stream.next('combat-start');
    // combatStart fires before the combat's first update, so the module reports it as not yet started.
    expect(started.data).toMatchObject({ eventType: 'start', encounterId: combat.id, started: false });
    expect(started.data.combatants.length).toBeGreaterThan(0);
    for (const combatant of started.data.combatants)
      expect(Object.keys(combatant).sort()).toEqual(['defeated', 'id', 'initiative', 'name', 'uuid']);
    harness.world.simulate.nextTurn();
    const turn = await stream.next('combat-turn');
    expect(turn.data.encounterId).toBe(combat.id);
    const filtered = await harness.stream('/encounters/subscribe', { encounterId: combat.id });
    harness.world.simulate.endCombat();
    expect((await filtered.next('combat-end')).data).toMatchObject({ eventType: 'end', encounterId: combat.id });
    await stream.next('combat-end');
    expect(other.events.map((event) => event.name)).toEqual(['connected']);
    for (const each of [stream, other, filtered]) each.close();
  });

  it('/actor/subscribe follows one actor: updates, effects added through the API', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const lyra = await uuidOf(harness, 'Lyra Moonwhisper');
    const stream = await harness.stream('/actor/subscribe', { actorUuid: thorin });
    expect(stream.events[0]!.data).toEqual({ clientId: harness.clientId, actorUuid: thorin });
    harness.world.simulate.updateActor(lyra.split('.')[1]!, { name: 'Lyra the Bold' });
    harness.world.simulate.updateActor(thorin.split('.')[1]!, { 'system.attributes.hp.value': 30 });
    const updated = await stream.next('actor-update');
    expect(updated.data).toMatchObject({ type: 'actor-event', data: { actorUuid: thorin } });
    const added = await harness.post('/effects', { uuid: thorin, effectData: { name: 'Prone', statuses: ['prone'] } });
    const effect = await stream.next('actor-effect-add');
    expect(effect.data.data).toMatchObject({ actorUuid: thorin, eventType: 'effect-add' });
    expect(effect.data.data.effect._id ?? effect.data.data.effect.id).toBe(added.body.data.effect.id);
    expect(stream.events.every((event) => event.name === 'connected' || event.data.data.actorUuid === thorin)).toBe(
      true,
    );
    stream.close();
  });

  it('/actor/subscribe without actorUuid follows every actor', async () => {
    const goblin = await uuidOf(harness, 'Goblin');
    const stream = await harness.stream('/actor/subscribe');
    expect(stream.events[0]!.data).toEqual({ clientId: harness.clientId, actorUuid: '' });
    harness.world.simulate.updateActor(goblin.split('.')[1]!, { 'system.attributes.hp.value': 5 });
    expect((await stream.next('actor-update')).data.data.actorUuid).toBe(goblin);
    stream.close();
  });

  it('/scene/subscribe delivers token moves of its scene only', async () => {
    const courtyard = sceneIdOf('Keep Courtyard');
    const crypt = sceneIdOf('Crypt of Whispers');
    const stream = await harness.stream('/scene/subscribe', { sceneId: courtyard });
    harness.world.simulate.moveToken(tokenIdOf('Zombie'), 950, 750);
    harness.world.simulate.moveToken(tokenIdOf('Pip Thistledown'), 1250, 950);
    const moved = await stream.next('scene-token-update');
    expect(moved.data).toMatchObject({
      type: 'scene-event',
      data: { sceneId: courtyard, eventType: 'token-update', tokenId: tokenIdOf('Pip Thistledown') },
    });
    expect(stream.events.filter((event) => event.data?.data?.sceneId === crypt)).toEqual([]);
    stream.close();
  });

  it("turns the world's channel on while a stream listens and off when the last one leaves", async () => {
    await expect.poll(() => harness.world.enabledChannels()).not.toContain('scene-events');
    const first = await harness.stream('/scene/subscribe');
    const second = await harness.stream('/scene/subscribe');
    await expect.poll(() => harness.world.enabledChannels()).toContain('scene-events');
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.world.enabledChannels()).toContain('scene-events');
    second.close();
    await expect.poll(() => harness.world.enabledChannels()).not.toContain('scene-events');
  });

  it('a stream for a world nobody connected is a 404', async () => {
    const answer = await harness.get('/hooks/subscribe', { clientId: 'fvtt_nobody' });
    expect(answer.status).toBe(404);
  });
});

describe('event-subscription-update', () => {
  it("is sent when a channel's count changes and again after the world reconnects", async () => {
    const relay = await startTestRelay();
    try {
      const { token } = relay.relay.services.connectionTokens.issue('fvtt_raw', 'raw', 'demo');
      const key = await relay.createKey({ scopes: ['events:subscribe'] });
      const first = await connectRawWorld(relay.wsUrl, 'fvtt_raw', token);
      const stream = new EventStream(`${relay.baseUrl}/rolls/subscribe`, key);
      await stream.ready;
      expect(await first.next((m) => m.type === 'event-subscription-update' && m.count > 0)).toEqual({
        type: 'event-subscription-update',
        channel: 'roll-events',
        count: 1,
      });
      const second = new EventStream(`${relay.baseUrl}/rolls/subscribe`, key);
      await second.ready;
      await first.next((m) => m.type === 'event-subscription-update' && m.count === 2);
      first.close();
      await first.closed;
      const again = await connectRawWorld(relay.wsUrl, 'fvtt_raw', token);
      expect(await again.next((m) => m.type === 'event-subscription-update' && m.channel === 'roll-events')).toEqual({
        type: 'event-subscription-update',
        channel: 'roll-events',
        count: 2,
      });
      again.send({ type: 'roll-data', data: { id: 'r1', formula: '1d20', rollTotal: 12, user: null } });
      expect((await stream.next('roll')).data).toEqual({
        type: 'roll-data',
        data: { id: 'r1', formula: '1d20', rollTotal: 12, user: null },
      });
      stream.close();
      second.close();
      await again.next((m) => m.type === 'event-subscription-update' && m.channel === 'roll-events' && m.count === 0);
      again.close();
    } finally {
      await relay.close();
    }
  });
});
