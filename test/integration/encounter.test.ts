import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('Encounter', () => {
  it("starts a combat with the tokens named under the reference relay's field name, and lists it", async () => {
    const tokens = (await harness.post('/select', { name: 'goblin', overwrite: true })).body.selected;
    const started = await harness.post('/start-encounter', { tokens, name: 'Ambush' });
    expect(started.status).toBe(200);
    expect(started.body.type).toBe('start-encounter-result');
    expect(started.body.encounter.name).toBe('Ambush');
    expect(started.body.encounter.combatants).toHaveLength(2);
    const listed = await harness.get('/encounters');
    expect(listed.body.encounters.map((encounter: { id: string }) => encounter.id)).toContain(started.body.encounterId);
  });

  it('advances turns and rounds of the named combat (encounter or encounterId), then ends it', async () => {
    const { encounterId } = (await harness.post('/start-encounter', { startWithPlayers: true, name: 'Second' })).body;
    const turn = await harness.post('/next-turn', { encounter: encounterId });
    expect(turn.body).toMatchObject({ type: 'next-turn-result', encounterId });
    const round = await harness.post('/next-round', { encounterId });
    expect(round.body.currentRound).toBeGreaterThan(turn.body.currentRound - 1);
    const back = await harness.post('/last-turn', { encounterId });
    expect(back.status).toBe(200);
    const added = await harness.post('/add-to-encounter', {
      encounterId,
      uuids: (await harness.post('/select', { name: 'Goblin Archer', overwrite: true })).body.selected,
    });
    expect(added.body.added).toHaveLength(1);
    const removed = await harness.post('/remove-from-encounter', { encounterId, uuids: added.body.added });
    expect(removed.body.removed).toHaveLength(1);
    const ended = await harness.post('/end-encounter', { encounterId });
    expect(ended.body).toMatchObject({ type: 'end-encounter-result', encounterId });
  });

  it('an unknown combat is a 400 from the world, and a player may not run combats', async () => {
    const unknown = await harness.post('/next-turn', { encounterId: 'nocombat00000000' });
    expect(unknown.status).toBe(400);
    const player = await harness.post('/start-encounter', { startWithPlayers: true, userId: 'Bob' });
    expect(player.status).toBe(400);
    expect(player.body.error).toMatch(/must be a GM/);
  });
});
