import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox, tokenNamed } from './helpers.ts';

describe('event channels', () => {
  it('pushes nothing until a channel is enabled and stops after it is disabled', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    const token = tokenNamed(world, 'Keep Courtyard', 'Thorin Ironfoot');
    world.simulate.moveToken(token.id, 1300, 800);
    expect(pushes).toEqual([]);
    world.setChannel('scene-events', true);
    expect(world.enabledChannels()).toEqual(['scene-events']);
    world.simulate.moveToken(token.id, 1400, 800);
    expect(pushes).toEqual([
      {
        type: 'scene-event',
        data: {
          sceneId: named(world, 'scenes', 'Keep Courtyard').id,
          eventType: 'token-update',
          tokenId: token.id,
          changes: { x: 1400, _id: token.id },
        },
      },
    ]);
    world.setChannel('scene-events', false);
    world.simulate.moveToken(token.id, 1500, 800);
    expect(pushes).toHaveLength(1);
    expect(world.enabledChannels()).toEqual([]);
  });

  it('accepts event-subscription-update through handle, without replying', async () => {
    const world = sandbox();
    expect(
      await world.handle({ type: 'event-subscription-update', requestId: '', channel: 'hooks', count: 2 }),
    ).toBeUndefined();
    expect(world.enabledChannels()).toEqual(['hooks']);
    await world.handle({ type: 'event-subscription-update', requestId: '', channel: 'hooks', count: 0 });
    expect(world.enabledChannels()).toEqual([]);
  });

  it('sends add-effect as a createActiveEffect hook and an effect-add actor event', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    world.setChannel('actor-events', true);
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const { data } = await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'prone' });
    expect(pushes.map((p) => p.type)).toEqual(['hook-event', 'actor-event']);
    const hook = pushes[0]!.data as { hook: string; args: any[] };
    expect(hook.hook).toBe('createActiveEffect');
    expect(hook.args[0]).toMatchObject({
      _id: data.effect.id,
      name: 'DND5E.ConProne',
      img: 'systems/dnd5e/icons/svg/statuses/prone.svg',
      statuses: ['prone'],
    });
    expect(hook.args[2]).toBe(world.game.moduleUserId);
    expect(pushes[1]).toEqual({
      type: 'actor-event',
      data: { actorUuid: thorin.uuid, eventType: 'effect-add', effect: hook.args[0] },
    });
    await ask(world, 'remove-effect', { uuid: thorin.uuid, effectId: data.effect.id });
    expect(pushes.at(-1)).toEqual({
      type: 'actor-event',
      data: {
        actorUuid: thorin.uuid,
        eventType: 'effect-remove',
        effectId: data.effect.id,
        effectName: 'DND5E.ConProne',
      },
    });
  });

  it('sends actor updates with the diff', () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('actor-events', true);
    const pip = named(world, 'actors', 'Pip Thistledown');
    world.simulate.updateActor(pip.id, { 'system.attributes.hp.value': 12, name: 'Pip Thistledown' });
    expect(pushes).toEqual([
      {
        type: 'actor-event',
        data: {
          actorUuid: pip.uuid,
          eventType: 'update',
          changes: { system: { attributes: { hp: { value: 12 } } }, _id: pip.id },
        },
      },
    ]);
    world.simulate.updateActor(pip.id, { 'system.attributes.hp.value': 12 });
    expect(pushes).toHaveLength(1);
  });

  it('sends chat create events and player rolls', () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('chat-events', true);
    const message = world.simulate.chat('Bob', 'Hello there');
    const alice = named(world, 'users', 'Alice');
    world.simulate.playerRoll('Alice', '2d20kh+4');
    expect(pushes).toHaveLength(2);
    expect(pushes[0]).toMatchObject({
      type: 'chat-event',
      data: {
        eventType: 'create',
        data: {
          id: message.id,
          uuid: message.uuid,
          content: 'Hello there',
          author: { id: named(world, 'users', 'Bob').id, name: 'Bob' },
          isRoll: false,
          rolls: [],
          whisper: [],
          flags: {},
        },
      },
    });
    const roll = (pushes[1]!.data as any).data;
    expect(roll).toMatchObject({ author: { id: alice.id, name: 'Alice' }, isRoll: true });
    expect(roll.rolls[0]).toMatchObject({ formula: '2d20kh+4', isCritical: false, isFumble: false });
    expect(roll.rolls[0].dice[0].results.filter((r: { active: boolean }) => !r.active)).toHaveLength(1);
    world.game.deleteDocument(message);
    expect(pushes.at(-1)).toEqual({ type: 'chat-event', data: { eventType: 'delete', data: { id: message.id } } });
  });

  it('runs a combat: start, turns, a new round and the end', () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('combat-events', true);
    const combat = world.simulate.startCombat();
    const [start, firstTurn] = pushes.map((p) => p.data as any);
    expect(start).toMatchObject({ eventType: 'start', encounterId: combat.id, round: 0, started: false });
    expect(start.combatants).toHaveLength(4);
    expect(firstTurn).toMatchObject({ eventType: 'turn', round: 1, turn: 0, started: true });
    const initiatives = firstTurn.combatants.map((c: { initiative: number }) => c.initiative);
    expect(initiatives).toEqual([...initiatives].sort((a, b) => b - a));
    expect(firstTurn.combatants[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      initiative: expect.any(Number),
      defeated: false,
      uuid: expect.stringMatching(new RegExp(`^Combat\\.${combat.id}\\.Combatant\\.`)),
    });
    for (let i = 0; i < 4; i++) world.simulate.nextTurn();
    expect(pushes.slice(2).map((p) => [(p.data as any).round, (p.data as any).turn])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 0],
    ]);
    world.simulate.endCombat();
    expect(pushes.at(-1)).toEqual({
      type: 'combat-event',
      data: { eventType: 'end', encounterId: combat.id, round: 2 },
    });
    expect(world.game.combats.get(combat.id)).toBeUndefined();
  });

  it('forwards combat and world-time hooks, and the canvas as a string', () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    world.setChannel('scene-events', true);
    world.simulate.activateScene(named(world, 'scenes', 'Crypt of Whispers').id);
    const hooks = pushes.filter((p) => p.type === 'hook-event').map((p) => (p.data as { hook: string }).hook);
    expect(hooks).toEqual(['updateScene', 'updateScene', 'canvasReady']);
    expect((pushes.at(-1)!.data as { args: unknown[] }).args).toEqual(['[object Object]']);
    expect(pushes.find((p) => p.type === 'scene-event')).toEqual({
      type: 'scene-event',
      data: {
        sceneId: named(world, 'scenes', 'Crypt of Whispers').id,
        eventType: 'scene-activate',
        name: 'Crypt of Whispers',
      },
    });
    pushes.length = 0;
    world.simulate.startCombat();
    for (let i = 0; i < 2; i++) world.simulate.nextTurn();
    const names = pushes.map((p) => (p.data as { hook: string }).hook);
    expect(names).toEqual([
      'createCombat',
      'createCombatant',
      'createCombatant',
      'updateCombatant',
      'updateCombatant',
      'combatStart',
      'updateCombat',
      'combatTurn',
      'updateCombat',
      'combatRound',
      'updateCombat',
      'updateWorldTime',
    ]);
    expect((pushes.at(-1)!.data as { args: unknown[] }).args.slice(0, 2)).toEqual([6, 6]);
  });

  it('announces player list changes', () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.game.updateDocument(named(world, 'users', 'Carol'), { active: true });
    expect(pushes).toEqual([{ type: 'player-list', users: world.playerList() }]);
    expect(world.playerList().find((u) => u.name === 'Carol')).toEqual({
      id: named(world, 'users', 'Carol').id,
      name: 'Carol',
      role: 1,
      active: true,
    });
  });

  it("moves the GM's music on: starts a playlist, then its next track, with the playlist hooks", () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    const playingTrack = () =>
      world.game.playlists.contents
        .flatMap((playlist) => playlist.collection('PlaylistSound').contents)
        .filter((sound) => sound.source.playing === true)
        .map((sound) => sound.name);
    expect(playingTrack()).toEqual([]);
    world.simulate.changeTrack();
    const first = playingTrack();
    expect(first).toHaveLength(1);
    world.simulate.changeTrack();
    expect(playingTrack()).toHaveLength(1);
    expect(playingTrack()).not.toEqual(first);
    const hooks = pushes.map((push) => (push.data as { hook?: string } | undefined)?.hook);
    expect(hooks).toContain('updatePlaylist');
  });

  it('keeps ambient activity going until stopped', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('chat-events', true);
    world.setChannel('scene-events', true);
    world.setChannel('actor-events', true);
    world.setChannel('combat-events', true);
    world.startAmbientActivity(5);
    await new Promise((resolve) => setTimeout(resolve, 150));
    world.stopAmbientActivity();
    const count = pushes.length;
    expect(count).toBeGreaterThan(3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pushes.length).toBe(count);
  });
});
