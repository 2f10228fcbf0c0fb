import { describe, expect, it } from 'vitest';
import { ask, named, sandbox, tokenNamed } from './helpers.ts';

describe('get-status-effects', () => {
  it('lists CONFIG.statusEffects with unlocalized names and ignores userId', async () => {
    const world = sandbox();
    const reply = await ask(world, 'get-status-effects', { userId: 'nobody' });
    expect(reply.error).toBeUndefined();
    expect(reply.data.effects[0]).toEqual({
      id: 'dead',
      name: 'EFFECT.DND5E.StatusDead',
      icon: 'systems/dnd5e/icons/svg/statuses/dead.svg',
    });
    expect(reply.data.effects.map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining(['prone', 'blinded', 'poisoned']),
    );
  });

  it('uses core statuses for other systems and fails on v14 where the list became an object', async () => {
    const other = await ask(
      sandbox({ system: { id: 'pf2e', title: 'Pathfinder Second Edition', version: '7.0.0' } }),
      'get-status-effects',
    );
    expect(other.data.effects[0]).toEqual({ id: 'dead', name: 'EFFECT.StatusDead', icon: 'icons/svg/dead.svg' });
    const v14 = await ask(sandbox({ foundryVersion: '14.350' }), 'get-status-effects');
    expect(v14).toEqual({
      type: 'get-status-effects-result',
      requestId: v14.requestId,
      error: 'CONFIG.statusEffects.map is not a function',
    });
  });
});

describe('get-effects', () => {
  it('lists the effects embedded on an actor', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'get-effects', { uuid: thorin.uuid });
    expect(reply.data.uuid).toBe(thorin.uuid);
    expect(reply.data.effects).toHaveLength(1);
    expect(reply.data.effects[0]).toMatchObject({
      name: 'Bless',
      disabled: false,
      statuses: [],
      origin: null,
      duration: { rounds: 10 },
    });
    expect(Object.keys(reply.data.effects[0])).toEqual([
      'id',
      'uuid',
      'name',
      'icon',
      'disabled',
      'duration',
      'statuses',
      'changes',
      'origin',
    ]);
  });

  it('resolves a token uuid to its actor', async () => {
    const world = sandbox();
    const token = tokenNamed(world, 'Keep Courtyard', 'Thorin Ironfoot');
    const reply = await ask(world, 'get-effects', { uuid: token.uuid });
    expect(reply.data.uuid).toBe(named(world, 'actors', 'Thorin Ironfoot').uuid);
  });

  it('gives an unlinked token its own synthetic actor', async () => {
    const world = sandbox();
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin Archer');
    const reply = await ask(world, 'get-effects', { uuid: token.uuid });
    expect(reply.data.uuid).toBe(`${token.uuid}.Actor.${named(world, 'actors', 'Goblin Archer').id}`);
    expect(reply.data.effects[0].statuses).toEqual(['poisoned']);
  });

  it('reports validation and lookup errors in order', async () => {
    const world = sandbox();
    expect((await ask(world, 'get-effects', {})).error).toBe('uuid is required');
    const missing = await ask(world, 'get-effects', { uuid: 'Actor.doesnotexist0000' });
    expect(missing).toEqual({
      type: 'get-effects-result',
      requestId: missing.requestId,
      error: 'Document not found with UUID: Actor.doesnotexist0000',
    });
    expect(await ask(world, 'get-effects', { userId: 'ghost' })).toMatchObject({
      error: 'User not found: ghost',
      data: null,
    });
  });

  it('lets LIMITED users see effects but refuses users without permission', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    expect((await ask(world, 'get-effects', { uuid: lyra.uuid, userId: 'carol' })).data.effects).toHaveLength(1);
    const refused = await ask(world, 'get-effects', { uuid: lyra.uuid, userId: 'Alice' });
    expect(refused.error).toBe("User 'Alice' does not have permission to view 'Lyra Moonwhisper'");
  });
});

describe('add-effect and remove-effect', () => {
  it('adds a status effect with the raw status name and icon', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'prone' });
    const effect = reply.data.effect;
    expect(effect).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
      uuid: `${thorin.uuid}.ActiveEffect.${effect.id}`,
      name: 'DND5E.ConProne',
      icon: 'systems/dnd5e/icons/svg/statuses/prone.svg',
      statuses: ['prone'],
    });
    expect(thorin.collection('ActiveEffect').size).toBe(2);
    const again = await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'prone' });
    expect(again.error).toBe("Actor 'Thorin Ironfoot' already has status 'prone'");
  });

  it('prefers statusId over effectData and rejects unknown statuses with the available list', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const both = await ask(world, 'add-effect', {
      uuid: thorin.uuid,
      statusId: 'blinded',
      effectData: { name: 'Ignored' },
    });
    expect(both.data.effect.name).toBe('DND5E.ConBlinded');
    const unknown = await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'sparkly' });
    expect(unknown.error).toMatch(/^Unknown status effect: 'sparkly'\. Available: dead, bleeding, blinded, /);
  });

  it('creates effects from effectData, migrating label/icon, and reports schema errors', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const created = await ask(world, 'add-effect', {
      uuid: thorin.uuid,
      effectData: { label: 'Haste', icon: 'icons/haste.webp', changes: [] },
    });
    expect(created.data.effect).toMatchObject({ name: 'Haste', icon: 'icons/haste.webp', statuses: [] });
    const invalid = await ask(world, 'add-effect', { uuid: thorin.uuid, effectData: { changes: [] } });
    expect(invalid.error).toBe('ActiveEffect validation errors:\n  name: may not be undefined');
    expect((await ask(world, 'add-effect', { uuid: thorin.uuid })).error).toBe(
      'Either statusId or effectData is required',
    );
  });

  it('requires OWNER for a player and accepts the owner', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const refused = await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'prone', userId: 'Bob' });
    expect(refused.error).toBe("User 'Bob' does not have permission to add effects to 'Thorin Ironfoot'");
    const owner = world.game.users.getName('Alice')!;
    expect(
      (await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'prone', userId: owner.id })).data.effect.statuses,
    ).toEqual(['prone']);
    expect(
      (await ask(world, 'add-effect', { uuid: thorin.uuid, statusId: 'stunned', userId: 'Assistant GM' })).error,
    ).toBeUndefined();
  });

  it('removes the first effect with a status, or an effect by id', async () => {
    const world = sandbox();
    const archer = named(world, 'actors', 'Goblin Archer');
    const [poisoned] = archer.collection('ActiveEffect').contents;
    const byStatus = await ask(world, 'remove-effect', {
      uuid: archer.uuid,
      statusId: 'poisoned',
      effectId: 'ignored',
    });
    expect(byStatus.data).toEqual({ uuid: archer.uuid, removedEffectId: poisoned!.id });
    expect(archer.collection('ActiveEffect').size).toBe(0);
    expect((await ask(world, 'remove-effect', { uuid: archer.uuid, statusId: 'poisoned' })).error).toBe(
      "Status 'poisoned' not found on actor 'Goblin Archer'",
    );
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const bless = thorin.collection('ActiveEffect').contents[0]!;
    expect((await ask(world, 'remove-effect', { uuid: thorin.uuid, effectId: bless.id })).data.removedEffectId).toBe(
      bless.id,
    );
    expect((await ask(world, 'remove-effect', { uuid: thorin.uuid, effectId: bless.id })).error).toBe(
      `Effect with ID '${bless.id}' not found on actor 'Thorin Ironfoot'`,
    );
    expect((await ask(world, 'remove-effect', { uuid: thorin.uuid })).error).toBe(
      'Either effectId or statusId is required',
    );
    expect((await ask(world, 'remove-effect', { uuid: thorin.uuid, statusId: 'prone', userId: 'Carol' })).error).toBe(
      "User 'Carol' does not have permission to remove effects from 'Thorin Ironfoot'",
    );
  });
});
