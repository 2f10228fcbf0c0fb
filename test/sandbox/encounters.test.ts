import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox, tokenNamed } from './helpers.ts';

describe('encounters', () => {
  it('lists combats with their combatants and which one is current', async () => {
    const world = sandbox();
    const { encounters } = await ask(world, 'encounters');
    expect(encounters).toHaveLength(1);
    expect(encounters[0]).toMatchObject({ name: null, round: 0, turn: null, current: true });
    const thorinToken = tokenNamed(world, 'Keep Courtyard', 'Thorin Ironfoot');
    expect(encounters[0].combatants[0]).toEqual({
      id: expect.any(String),
      name: 'Thorin Ironfoot',
      tokenUuid: thorinToken.uuid,
      actorUuid: named(world, 'actors', 'Thorin Ironfoot').uuid,
      img: 'icons/creatures/dwarf-warrior.webp',
      initiative: null,
      hidden: false,
      defeated: false,
    });
  });
});

describe('start-encounter', () => {
  it('creates, starts and activates a combat from tokenUuids and the players, pushing combat events', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('combat-events', true);
    const goblin = tokenNamed(world, 'Keep Courtyard', 'Goblin');
    const reply = await ask(world, 'start-encounter', {
      name: 'Gate Fight',
      tokenUuids: [goblin.uuid],
      startWithPlayers: true,
      rollAll: true,
    });
    const { encounterId, encounter } = reply;
    expect(encounter).toMatchObject({ id: encounterId, name: 'Gate Fight', round: 1, turn: 0 });
    expect(encounter.combatants.map((c: { name: string }) => c.name)).toEqual([
      'Goblin',
      'Thorin Ironfoot',
      'Lyra Moonwhisper',
      'Pip Thistledown',
    ]);
    expect(encounter.combatants.every((c: { initiative: unknown }) => typeof c.initiative === 'number')).toBe(true);
    expect(world.game.activeCombat()?.id).toBe(encounterId);
    expect(pushes[0]).toEqual({
      type: 'combat-event',
      data: { eventType: 'start', encounterId, round: 0, turn: null, started: false, combatants: [] },
    });
    expect(pushes.filter((p) => (p.data as { eventType: string }).eventType === 'combatant-add')).toHaveLength(4);
  });

  it('is GM-only for a userId', async () => {
    const world = sandbox();
    expect((await ask(world, 'start-encounter', { userId: 'Alice' })).error).toBe(
      "User 'Alice' must be a GM to manage encounters",
    );
    expect((await ask(world, 'start-encounter', { userId: 'Assistant GM' })).encounterId).toBeDefined();
  });
});

describe('turn navigation', () => {
  it('starts, advances and steps back through turns and rounds', async () => {
    const world = sandbox();
    const first = await ask(world, 'next-turn');
    expect(first).toMatchObject({ action: 'nextTurn', currentRound: 1, currentTurn: 0 });
    const combat = world.game.activeCombat()!;
    expect(first.encounter).toEqual({ id: combat.id, name: null, round: 1, turn: 0 });
    expect(first.tokenTurn).toMatch(/^Scene\..+\.Token\./);
    expect(first.actorTurn).toMatch(/Actor\./);
    expect((await ask(world, 'next-round', { encounterId: combat.id })).encounter).toMatchObject({ round: 2, turn: 0 });
    expect((await ask(world, 'last-turn')).encounter).toMatchObject({ round: 1, turn: 3 });
    expect((await ask(world, 'last-turn')).encounter).toMatchObject({ round: 1, turn: 2 });
    const back = await ask(world, 'last-round');
    expect(back).toMatchObject({ action: 'previousRound', currentRound: 0, currentTurn: null });
    expect(back.tokenTurn).toBeUndefined();
    expect(world.game.worldTime).toBe(6);
  });

  it('answers errors under the request type, also for last-round', async () => {
    const world = sandbox();
    expect((await ask(world, 'next-turn', { encounterId: 'nope' })).error).toBe('Encounter with ID nope not found');
    expect((await ask(world, 'last-round', { encounterId: 'nope' })).error).toBe('Encounter with ID nope not found');
    expect((await ask(world, 'next-round', { userId: 'Bob' })).error).toBe(
      "User 'Bob' must be a GM to manage encounters",
    );
  });

  it('ends the current encounter, pushing the end event', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('combat-events', true);
    const combat = world.game.activeCombat()!;
    const ended = await ask(world, 'end-encounter');
    expect(ended).toEqual({
      type: 'end-encounter-result',
      requestId: ended.requestId,
      encounterId: combat.id,
      message: 'Encounter successfully ended',
    });
    expect(pushes).toEqual([{ type: 'combat-event', data: { eventType: 'end', encounterId: combat.id, round: 0 } }]);
    expect((await ask(world, 'end-encounter')).error).toBe('No encounter not found');
  });
});

describe('add-to-encounter and remove-from-encounter', () => {
  it('adds tokens and actors, reporting what failed and why', async () => {
    const world = sandbox();
    const combat = world.game.activeCombat()!;
    const pip = named(world, 'actors', 'Pip Thistledown');
    const hobgoblin = tokenNamed(world, 'Keep Courtyard', 'Hobgoblin');
    const zombie = named(world, 'actors', 'Zombie');
    const reply = await ask(world, 'add-to-encounter', {
      uuids: [
        pip.uuid,
        hobgoblin.uuid,
        zombie.uuid,
        'Actor.nothing000000000',
        named(world, 'scenes', 'Tavern Interior').uuid,
      ],
    });
    expect(reply).toEqual({
      type: 'add-to-encounter-result',
      requestId: reply.requestId,
      encounterId: combat.id,
      added: [pip.uuid, hobgoblin.uuid],
      failed: [
        { uuid: zombie.uuid, reason: 'No token found for this actor in the current scene' },
        { uuid: 'Actor.nothing000000000', reason: 'Entity not found' },
        { uuid: named(world, 'scenes', 'Tavern Interior').uuid, reason: 'Entity must be a Token or Actor' },
      ],
    });
    expect(combat.collection('Combatant').size).toBe(6);
  });

  it('removes the combatants of a token or an actor', async () => {
    const world = sandbox();
    const combat = world.game.activeCombat()!;
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const pip = named(world, 'actors', 'Pip Thistledown');
    const reply = await ask(world, 'remove-from-encounter', { encounterId: combat.id, uuids: [thorin.uuid, pip.uuid] });
    expect(reply.removed).toEqual([thorin.uuid]);
    expect(reply.failed).toEqual([{ uuid: pip.uuid, reason: 'No combatant found for this entity' }]);
    expect(combat.collection('Combatant').size).toBe(3);
  });
});
