import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, type SandboxLink } from '../../sandbox/index.ts';
import { eventWithin, getOverlay, markOf, makeOverlayLink, openOverlayStream } from '../harness/overlays.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

// Each overlay's stream shows a change in the sandbox world within 500 ms, over the real protocol and real sockets.
const WITHIN_MS = 500;

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

function actorId(uuid: string): string {
  return uuid.split('.').at(-1)!;
}

describe('overlay streams', () => {
  it('dice: a roll arrives as one item', async () => {
    const { link } = await makeOverlayLink(harness, 'dice');
    const stream = await openOverlayStream(harness, 'dice', link);
    expect(stream.headers?.get('content-type')).toBe('text/event-stream');
    expect(stream.events[0]).toEqual({ name: 'connected', data: { overlay: 'dice', clientId: harness.clientId } });
    const started = markOf(stream);
    const message = harness.world.simulate.playerRoll('bob', '2d6+1', 'Damage');
    const { data, ms } = await eventWithin(stream, 'item', (item) => item.id === message.id, started);
    expect(ms).toBeLessThan(WITHIN_MS);
    expect(data).toMatchObject({ who: 'Lyra Moonwhisper', formula: '2d6+1', flavor: 'Damage', critical: false });
    expect(data.dice).toHaveLength(1);
    expect(data.dice[0].results).toHaveLength(2);
    stream.close();
  });

  it('chat: a line said arrives as plain text; a roll does not', async () => {
    const { link } = await makeOverlayLink(harness, 'chat');
    const stream = await openOverlayStream(harness, 'chat', link);
    harness.world.simulate.playerRoll('alice', '1d20', 'Stealth');
    const started = markOf(stream);
    const message = harness.world.simulate.chat('alice', 'We go <em>quietly</em>.');
    const { data, ms } = await eventWithin(stream, 'item', (item) => item.id === message.id, started);
    expect(ms).toBeLessThan(WITHIN_MS);
    expect(data).toMatchObject({ who: 'Thorin Ironfoot', text: 'We go quietly.' });
    expect(stream.named('item')).toHaveLength(1);
    stream.close();
  });

  it('initiative: the whole view at once, then again on each turn', async () => {
    const { link } = await makeOverlayLink(harness, 'initiative');
    const stream = await openOverlayStream(harness, 'initiative', link);
    expect((await stream.next('state')).data).toMatchObject({ active: false });
    let started = markOf(stream);
    harness.world.simulate.startCombat();
    const begun = await eventWithin(stream, 'state', (view) => view.active && view.turn === 0, started);
    expect(begun.ms).toBeLessThan(WITHIN_MS);
    expect(begun.data.round).toBe(1);
    started = markOf(stream);
    harness.world.simulate.nextTurn();
    const next = await eventWithin(stream, 'state', (view) => view.active && view.turn === 1, started);
    expect(next.ms).toBeLessThan(WITHIN_MS);
    expect(next.data.combatants[1].id).not.toBe(begun.data.combatants[0].id);
    started = markOf(stream);
    harness.world.simulate.endCombat();
    expect((await eventWithin(stream, 'state', (view) => !view.active, started)).ms).toBeLessThan(WITHIN_MS);
    stream.close();
  });

  it('initiative with HP bars: an HP change shows', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    harness.world.simulate.startCombat();
    const { link } = await makeOverlayLink(harness, 'initiative', { hpBars: true });
    const stream = await openOverlayStream(harness, 'initiative', link);
    await stream.next('state', { where: (view) => view.active });
    const started = markOf(stream);
    harness.world.simulate.updateActor(actorId(thorin), { 'system.attributes.hp.value': 21 });
    const hurt = (view: any) => view.combatants.some((c: any) => c.name === 'Thorin Ironfoot' && c.hp?.value === 21);
    expect((await eventWithin(stream, 'state', hurt, started)).ms).toBeLessThan(WITHIN_MS);
    harness.world.simulate.updateActor(actorId(thorin), { 'system.attributes.hp.value': 34 });
    harness.world.simulate.endCombat();
    stream.close();
  });

  it('now playing: a track change shows', async () => {
    const { link } = await makeOverlayLink(harness, 'now-playing');
    const stream = await openOverlayStream(harness, 'now-playing', link);
    const first = (await stream.next('state')).data;
    let started = markOf(stream);
    harness.world.simulate.changeTrack();
    const playing = await eventWithin(stream, 'state', (view) => view.playing.length > 0, started);
    expect(playing.ms).toBeLessThan(WITHIN_MS);
    expect(first).toEqual({ playing: [] });
    const [track] = playing.data.playing;
    started = markOf(stream);
    harness.world.simulate.changeTrack();
    const changed = (view: any) => view.playing.length > 0 && view.playing[0].track !== track.track;
    expect((await eventWithin(stream, 'state', changed, started)).ms).toBeLessThan(WITHIN_MS);
    stream.close();
  });

  it('character card: an HP change shows, and a burst of changes costs one view', async () => {
    const lyra = await uuidOf(harness, 'Lyra Moonwhisper');
    const { link } = await makeOverlayLink(harness, 'character-card', { actorUuid: lyra });
    const stream = await openOverlayStream(harness, 'character-card', link);
    expect((await stream.next('state')).data).toMatchObject({ name: 'Lyra Moonwhisper', hp: { value: 22 } });
    const started = markOf(stream);
    for (const value of [20, 18, 15, 12]) {
      harness.world.simulate.updateActor(actorId(lyra), { 'system.attributes.hp.value': value });
    }
    const { ms } = await eventWithin(stream, 'state', (view) => view.hp.value === 12, started);
    expect(ms).toBeLessThan(WITHIN_MS);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(stream.named('state').map((event) => event.data.hp.value)).toEqual([22, 12]);
    stream.close();
  });

  it("counts a link's subscriptions against the per-key stream cap", async () => {
    expect((await harness.admin('PATCH', '/admin/settings', { streamsPerKey: 3 })).status).toBe(200);
    try {
      const { link } = await makeOverlayLink(harness, 'initiative', { hpBars: true });
      const first = await openOverlayStream(harness, 'initiative', link);
      const refused = await openOverlayStream(harness, 'initiative', link);
      expect(refused.status).toBe(429);
      expect(refused.events[0]!.data).toMatch(/initiative overlay takes 3/);
      first.close();
      await first.ended;
      await expect.poll(() => harness.relay.services.events.total()).toBe(0);
      const again = await openOverlayStream(harness, 'initiative', link);
      expect(again.status).toBe(200);
      again.close();
    } finally {
      await harness.admin('PATCH', '/admin/settings', { streamsPerKey: 20 });
    }
  });

  it('a revoked link ends its stream', async () => {
    const made = await makeOverlayLink(harness, 'dice');
    const stream = await openOverlayStream(harness, 'dice', made.link);
    const started = performance.now();
    expect((await harness.admin('DELETE', `/admin/overlay-links/${made.record.id}`)).status).toBeLessThan(300);
    await stream.ended;
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('a world that goes away and comes back', () => {
  it('keeps the stream open, answers the view with 503, and sends the view again once the world is back', async () => {
    const { link } = await makeOverlayLink(harness, 'initiative');
    const stream = await openOverlayStream(harness, 'initiative', link);
    await stream.next('state');
    await harness.link.close();
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const state = await getOverlay(harness, 'initiative', '/state', link);
    expect(state.status).toBe(503);
    expect(state.body.error).toMatch(/not connected/);
    harness.world.simulate.startCombat();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ended).toBe(false);
    const { token } = harness.relay.services.connectionTokens.issue(harness.clientId, 'Sandbox again', 'demo');
    const started = markOf(stream);
    const back: SandboxLink = await connectSandbox(harness.world, {
      relayUrl: harness.wsUrl,
      clientId: harness.clientId,
      token,
    });
    try {
      const { ms } = await eventWithin(stream, 'state', (view) => view.active, started);
      expect(ms).toBeLessThan(1000);
      harness.world.simulate.nextTurn();
      await stream.next('state', { where: (view) => view.active && view.turn === 1 });
      harness.world.simulate.endCombat();
    } finally {
      stream.close();
      await back.close();
    }
  });
});
