import { describe, expect, it } from 'vitest';
import { ask, named, sandbox, tokenNamed } from './helpers.ts';

describe('select and selected', () => {
  it('selects a union of criteria on the active scene and reports controlled tokens', async () => {
    const world = sandbox();
    const goblins = named(world, 'scenes', 'Keep Courtyard')
      .collection('Token')
      .filter((t) => t.name === 'Goblin');
    const thorin = tokenNamed(world, 'Keep Courtyard', 'Thorin Ironfoot');
    const reply = await ask(world, 'select', { name: 'goblin', uuids: [thorin.uuid, goblins[0]!.uuid] });
    expect(reply).toEqual({
      type: 'select-result',
      requestId: reply.requestId,
      success: true,
      count: 3,
      message: '3 entities selected',
      selected: [thorin.uuid, goblins[0]!.uuid, goblins[1]!.uuid],
    });
    const selected = await ask(world, 'selected');
    expect(selected.selected).toContainEqual({
      tokenUuid: thorin.uuid,
      actorUuid: named(world, 'actors', 'Thorin Ironfoot').uuid,
    });
    expect(selected.selected).toContainEqual({
      tokenUuid: goblins[0]!.uuid,
      actorUuid: `${goblins[0]!.uuid}.Actor.${named(world, 'actors', 'Goblin').id}`,
    });
  });

  it('matches data criteria on the token and, with actor. keys, on its actor; overwrite releases others', async () => {
    const world = sandbox();
    await ask(world, 'select', { all: true });
    expect((await ask(world, 'selected')).selected).toHaveLength(7);
    const hidden = await ask(world, 'select', { data: { hidden: true }, overwrite: true });
    expect(hidden.selected).toEqual([tokenNamed(world, 'Keep Courtyard', 'Hobgoblin').uuid]);
    expect((await ask(world, 'selected')).selected).toHaveLength(1);
    const characters = await ask(world, 'select', { data: { 'actor.type': 'character', disposition: 1 } });
    expect(characters.count).toBe(3);
    expect((await ask(world, 'select', { data: {} })).count).toBe(7);
  });

  it('reports no match, no active scene and refuses players', async () => {
    const world = sandbox();
    expect(await ask(world, 'select', { name: 'Dragon' })).toMatchObject({
      success: false,
      error: 'No matching entities found',
    });
    expect((await ask(world, 'select', { all: true, userId: 'Alice' })).error).toBe(
      "User 'Alice' must be a GM to select tokens",
    );
    expect((await ask(world, 'selected', { userId: 'Alice' })).error).toBe(
      "User 'Alice' must be a GM to get selected tokens",
    );
    world.game.updateDocument(named(world, 'scenes', 'Keep Courtyard'), { active: false });
    expect(await ask(world, 'select', { all: true })).toMatchObject({ success: false, error: 'No active scene found' });
    expect(await ask(world, 'selected')).toMatchObject({ success: false, error: 'No active scene found' });
  });

  it('reports tokens of an active scene that is not on the canvas without controlling them', async () => {
    const world = sandbox();
    world.game.updateDocument(named(world, 'scenes', 'Keep Courtyard'), { active: false });
    world.game.updateDocument(named(world, 'scenes', 'Crypt of Whispers'), { active: true });
    expect((await ask(world, 'select', { all: true })).count).toBe(2);
    expect((await ask(world, 'selected')).selected).toEqual([]);
  });
});

describe('players and world-info', () => {
  it('lists users with seven keys, and nothing for a player', async () => {
    const world = sandbox();
    const { users } = await ask(world, 'players', { userId: 'Gamemaster' });
    expect(users).toHaveLength(6);
    expect(users[0]).toEqual({
      id: world.game.moduleUserId,
      name: 'Gamemaster',
      role: 4,
      isGM: true,
      active: true,
      color: '#c0392b',
      avatar: null,
    });
    expect(users.find((u: { name: string }) => u.name === 'Assistant GM')).toMatchObject({ role: 3, isGM: true });
    expect(users.filter((u: { role: number }) => u.role === 1)).toHaveLength(3);
    expect((await ask(world, 'players', { userId: 'Alice' })).users).toEqual([]);
    expect(await ask(world, 'players', { userId: 'Zed' })).toMatchObject({ error: 'User not found: Zed', data: null });
  });

  it('describes the world, system, modules and active scene', async () => {
    const world = sandbox({
      system: { id: 'pf2e', title: 'Pathfinder Second Edition', version: '7.1.0' },
      worldTitle: 'Elsewhere',
    });
    const { data } = await ask(world, 'world-info', { userId: 'Bob' });
    expect(data.world).toEqual({ id: 'sandbox-world', title: 'Elsewhere' });
    expect(data.system).toEqual({ id: 'pf2e', title: 'Pathfinder Second Edition', version: '7.1.0' });
    expect(data.foundryVersion).toBe('13.348');
    expect(data.modules).toContainEqual({
      id: 'dice-so-nice',
      title: 'Dice So Nice!',
      version: '5.2.4',
      active: false,
    });
    expect(data.activeScene).toEqual({ id: named(world, 'scenes', 'Keep Courtyard').id, name: 'Keep Courtyard' });
    expect(world.metadata).toEqual({
      worldId: 'sandbox-world',
      worldTitle: 'Elsewhere',
      foundryVersion: '13.348',
      systemId: 'pf2e',
      systemTitle: 'Pathfinder Second Edition',
      systemVersion: '7.1.0',
    });
  });
});

describe('execute-js', () => {
  it('is disabled by default', async () => {
    const reply = await ask(sandbox(), 'execute-js', { script: 'return 1' });
    expect(reply).toEqual({
      type: 'execute-js-result',
      requestId: reply.requestId,
      success: false,
      error: 'execute-js is disabled in REST API module settings. A GM must enable it to allow JavaScript execution.',
    });
  });

  it('runs an async function body with game, checking role, script and the settings guard', async () => {
    const world = sandbox({ settings: { allowExecuteJs: true } });
    const before = world.game.messages.size;
    expect(
      (await ask(world, 'execute-js', { script: 'return game.actors.getName("Goblin").system.attributes.hp.max * 2' }))
        .result,
    ).toBe(14);
    expect(world.game.messages.contents.at(-1)!.source.speaker).toMatchObject({ alias: 'REST API Module' });
    expect(world.game.messages.size).toBe(before + 1);
    expect(
      (await ask(world, 'execute-js', { script: 'await null; return { scene: game.scenes.active.name }' })).result,
    ).toEqual({ scene: 'Keep Courtyard' });
    expect((await ask(world, 'execute-js', { script: 'return game.actors.getName("Zombie")' })).result).toMatchObject({
      name: 'Zombie',
      type: 'npc',
    });
    expect((await ask(world, 'execute-js', { script: 'throw new Error("boom")' })).error).toBe(
      'Error executing script: boom',
    );
    expect((await ask(world, 'execute-js', { script: '' })).error).toBe('Invalid script provided');
    expect((await ask(world, 'execute-js', { script: 'game.settings.set("foundry-rest-api", "x", 1)' })).error).toBe(
      'Scripts cannot modify REST API module settings',
    );
    expect((await ask(world, 'execute-js', { script: 'return 1', userId: 'Assistant GM' })).error).toBe(
      'User Assistant GM does not have permission to execute code (requires role 4+)',
    );
    const circular = await world.handle({
      type: 'execute-js',
      requestId: 'c',
      script: 'const a = {}; a.a = a; return a',
    });
    expect(circular).toBeUndefined();
  });
});

describe('dispatch', () => {
  it('does not answer unknown types', async () => {
    const world = sandbox();
    expect(await world.handle({ type: 'entity-teleport', requestId: 'x' })).toBeUndefined();
    expect(await world.handle({ type: 'ping', requestId: 'y' })).toBeUndefined();
    expect(await world.handle({ type: 'toString', requestId: 'z' })).toBeUndefined();
  });

  it('builds the same world for the same seed', () => {
    const ids = (seed: number) => sandbox({ seed }).game.actors.contents.map((actor) => actor.id);
    expect(ids(5)).toEqual(ids(5));
    expect(ids(5)).not.toEqual(ids(6));
    expect(ids(5).every((id) => /^[A-Za-z0-9]{16}$/.test(id))).toBe(true);
  });
});
