import { describe, expect, it } from 'vitest';
import { ask, recordPushes, sandbox } from './helpers.ts';

function macroUuid(world: ReturnType<typeof sandbox>, name: string): string {
  return world.game.collections.macros.getName(name)!.uuid;
}

describe('macros', () => {
  it('lists macros with their author, and only LIMITED+ ones for a user', async () => {
    const world = sandbox();
    const { macros } = await ask(world, 'macros');
    expect(macros).toHaveLength(3);
    expect(macros[0]).toEqual({
      uuid: macroUuid(world, 'Roll Initiative'),
      id: expect.any(String),
      name: 'Roll Initiative',
      type: 'script',
      author: 'Gamemaster',
      command: 'game.combat?.rollAll();',
      img: 'icons/svg/dice-target.svg',
      scope: 'global',
      canExecute: true,
    });
    expect((await ask(world, 'macros', { userId: 'Alice' })).macros).toEqual([]);
  });
});

describe('macro-execute', () => {
  it('is refused unless the world allows macro execution', async () => {
    const world = sandbox();
    const reply = await ask(world, 'macro-execute', { uuid: macroUuid(world, 'Roll Initiative') });
    expect(reply).toEqual({
      type: 'macro-execute-result',
      requestId: reply.requestId,
      uuid: macroUuid(world, 'Roll Initiative'),
      success: false,
      error: 'Macro execution is disabled in REST API module settings. A GM must enable allowMacroExecute.',
    });
  });

  it('runs script macros with args and chat macros into the chat log', async () => {
    const world = sandbox({ settings: { allowMacroExecute: true, allowMacroWrite: true } });
    const created = await ask(world, 'create', {
      entityType: 'Macro',
      data: { name: 'Double', command: 'return { doubled: args.n * 2, actors: game.actors.size };' },
    });
    expect(await ask(world, 'macro-execute', { uuid: created.uuid, args: { n: 21 } })).toMatchObject({
      success: true,
      result: { doubled: 42, actors: 12 },
    });
    const quiet = await ask(world, 'macro-execute', { uuid: macroUuid(world, 'Goblin Ambush') });
    expect(quiet).toMatchObject({ success: true, result: { value: undefined } });
    const pushes = recordPushes(world);
    world.setChannel('roll-events', true);
    const chat = await ask(world, 'macro-execute', { uuid: macroUuid(world, 'Toggle Darkness') });
    expect(chat.result.whisper).toEqual(
      world.game.users.filter((u) => (u.source.role as number) >= 3).map((u) => u.id),
    );
    expect(pushes.map((p) => p.type)).toEqual(['roll-data']);
  });

  it('reports missing, unknown and non-macro uuids and non-owners', async () => {
    const world = sandbox({ settings: { allowMacroExecute: true } });
    expect((await ask(world, 'macro-execute', {})).error).toBe('Macro UUID is required');
    expect((await ask(world, 'macro-execute', { uuid: 'Macro.nothing000000000' })).error).toBe(
      'Macro not found with UUID: Macro.nothing000000000',
    );
    const actor = world.game.actors.getName('Goblin')!;
    expect((await ask(world, 'macro-execute', { uuid: actor.uuid })).error).toBe(
      `Entity with UUID ${actor.uuid} is not a macro`,
    );
    expect(
      (await ask(world, 'macro-execute', { uuid: macroUuid(world, 'Roll Initiative'), userId: 'Bob' })).error,
    ).toBe("User 'Bob' does not have permission to execute 'Roll Initiative'");
  });
});
