import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

const DND5E_ACTIONS = [
  'get-actor-details',
  'modify-item-charges',
  'use-ability',
  'use-feature',
  'use-spell',
  'use-item',
  'modify-experience',
  'short-rest',
  'long-rest',
  'skill-check',
  'ability-save',
  'ability-check',
  'death-save',
  'get-concentration',
  'break-concentration',
  'concentration-save',
  'equip-item',
  'attune-item',
  'transfer-currency',
  'modify-currency',
  'prepare-spell',
];

describe('dnd5e routes in other systems', () => {
  it('answer every action at once with the system named', async () => {
    const world = sandbox({ system: { id: 'pf2e', title: 'Pathfinder Second Edition', version: '7.0.0' } });
    for (const type of DND5E_ACTIONS) {
      const reply = await ask(world, type, { actorUuid: named(world, 'actors', 'Goblin').uuid });
      expect(reply).toEqual({
        type: `${type}-result`,
        requestId: reply.requestId,
        error: 'The dnd5e routes are available only in D&D 5e worlds; this world runs Pathfinder Second Edition',
      });
    }
  });
});

describe('get-actor-details', () => {
  it('returns the requested parts with derived modifiers, proficiencies and class levels', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const { data } = await ask(world, 'get-actor-details', {
      actorUuid: thorin.uuid,
      details: ['stats', 'abilities', 'skills', 'features', 'conditions', 'details'],
    });
    expect(Object.keys(data)).toEqual([
      'uuid',
      'features',
      'stats',
      'abilities',
      'skills',
      'details',
      'conditions',
      'concentration',
    ]);
    expect(data.stats).toEqual({
      name: 'Thorin Ironfoot',
      img: thorin.img,
      uuid: thorin.uuid,
      level: 4,
      profBonus: 2,
      ac: 18,
      hp: { value: 34, max: 34, temp: 0 },
      speed: 25,
      exhaustion: 0,
      inspiration: false,
    });
    const str = thorin.system.abilities as Record<string, { value: number }>;
    const mod = Math.floor((str.str!.value - 10) / 2);
    expect(data.abilities.str).toEqual({ value: str.str!.value, mod, save: mod + 2, proficient: 1 });
    expect(data.skills.ath).toEqual({ ability: 'str', total: mod + 2, mod, value: 1, passive: 12 + mod });
    expect(data.features.map((item: { name: string }) => item.name)).toEqual(['Fighter', 'Second Wind']);
    expect(data.details).toMatchObject({ class: 'Fighter', race: '?', alignment: 'Neutral Good' });
    expect(data.conditions).toEqual([]);
    expect(data.concentration).toEqual({ active: false });
  });

  it('validates its parameters and the viewing permission', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    expect((await ask(world, 'get-actor-details', { details: ['stats'] })).error).toBe('actorUuid is required');
    expect((await ask(world, 'get-actor-details', { actorUuid: lyra.uuid, details: [] })).error).toBe(
      'details array is required and cannot be empty',
    );
    expect(
      (await ask(world, 'get-actor-details', { actorUuid: 'Actor.nothing000000000', details: ['stats'] })).error,
    ).toBe('Actor not found with UUID: Actor.nothing000000000');
    expect(
      (await ask(world, 'get-actor-details', { actorUuid: lyra.uuid, details: ['stats'], userId: 'Alice' })).error,
    ).toBe("User 'Alice' does not have permission to view actor 'Lyra Moonwhisper'");
    expect(
      (await ask(world, 'get-actor-details', { actorUuid: lyra.uuid, details: ['spells'], userId: 'Carol' })).data
        .spells,
    ).toHaveLength(2);
  });
});

describe('checks and saves', () => {
  it('rolls a skill check into chat, with advantage and a bonus', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('roll-events', true);
    const pip = named(world, 'actors', 'Pip Thistledown');
    const reply = await ask(world, 'skill-check', { actorUuid: pip.uuid, skill: 'ste', advantage: true, bonus: '1d4' });
    const expected = Math.floor(((pip.system.abilities as any).dex.value - 10) / 2) + 4;
    expect(reply.data).toMatchObject({
      actorUuid: pip.uuid,
      skill: 'ste',
      formula: `2d20kh${expected < 0 ? ` - ${-expected}` : ` + ${expected}`} + 1d4`,
    });
    expect(reply.data.result).toMatch(/^\d+ [+-] \d+ \+ \d+$/);
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.data as { rollTotal: number; flavor: string }).toMatchObject({
      rollTotal: reply.data.total,
      flavor: 'Stealth Skill Check',
    });
    await ask(world, 'ability-save', { actorUuid: pip.uuid, ability: 'dex', createChatMessage: false });
    expect(pushes).toHaveLength(1);
  });

  it('validates skills and abilities in the module order', async () => {
    const world = sandbox();
    const pip = named(world, 'actors', 'Pip Thistledown');
    expect((await ask(world, 'skill-check', { actorUuid: pip.uuid, skill: 'juggling' })).error).toMatch(
      /^Invalid skill 'juggling'\. Valid skills: acr, ani, /,
    );
    expect((await ask(world, 'ability-check', { actorUuid: 'Actor.nothing000000000', ability: 'luck' })).error).toBe(
      "Invalid ability 'luck'. Valid abilities: str, dex, con, int, wis, cha",
    );
    expect((await ask(world, 'ability-check', { actorUuid: pip.uuid })).error).toBe('ability is required');
    expect((await ask(world, 'ability-check', { actorUuid: pip.uuid, ability: 'wis', userId: 'Bob' })).error).toBe(
      "User 'Bob' does not have permission to view actor 'Pip Thistledown'",
    );
  });

  it('rolls death saves only at 0 HP and counts them', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const healthy = await ask(world, 'death-save', { actorUuid: thorin.uuid });
    expect(healthy.data).toEqual({ actorUuid: thorin.uuid, deathSaves: { success: 0, failure: 0 } });
    world.game.updateDocument(thorin, { 'system.attributes.hp.value': 0 });
    const { data } = await ask(world, 'death-save', { actorUuid: thorin.uuid });
    expect(data.formula).toBe('1d20');
    const counted = data.deathSaves.success + data.deathSaves.failure;
    expect(counted > 0 || (thorin.system.attributes as any).hp.value === 1).toBe(true);
    expect((await ask(world, 'death-save', { actorUuid: thorin.uuid, userId: 'Bob' })).error).toBe(
      "User 'Bob' does not have permission to roll death saves for 'Thorin Ironfoot'",
    );
  });
});

describe('concentration', () => {
  it('reports, saves and breaks concentration', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    expect((await ask(world, 'get-concentration', { actorName: 'lyra moonwhisper' })).data).toEqual({
      actorUuid: lyra.uuid,
      isConcentrating: false,
      effect: null,
      spell: null,
    });
    const spell = lyra.collection('Item').getName('Hold Person')!;
    world.game.createDocument(
      'ActiveEffect',
      { name: 'Concentrating', statuses: ['concentrating'], origin: spell.uuid },
      { parent: lyra },
    );
    const held = await ask(world, 'get-concentration', { actorUuid: lyra.uuid });
    expect(held.data).toMatchObject({
      isConcentrating: true,
      spell: 'Hold Person',
      effect: { name: 'Concentrating', statuses: ['concentrating'], origin: spell.uuid },
    });
    const save = await ask(world, 'concentration-save', { actorUuid: lyra.uuid, damage: 30 });
    expect(save.data).toMatchObject({ actorUuid: lyra.uuid, dc: 15 });
    expect(save.data.maintained).toBe(save.data.total >= 15);
    if (save.data.maintained) {
      expect((await ask(world, 'break-concentration', { actorUuid: lyra.uuid })).data).toMatchObject({
        broken: true,
        removedEffectId: held.data.effect.id,
      });
    }
    expect((await ask(world, 'break-concentration', { actorUuid: lyra.uuid })).error).toBe(
      "Actor 'Lyra Moonwhisper' is not concentrating",
    );
    expect((await ask(world, 'concentration-save', { actorUuid: lyra.uuid, damage: 4 })).error).toBe(
      "Actor 'Lyra Moonwhisper' is not concentrating",
    );
    expect((await ask(world, 'get-concentration', {})).error).toBe('actorUuid or actorName is required');
  });
});

describe('items, currency and spells', () => {
  it('uses items and features, spending limited uses, and posts a chat card', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const used = await ask(world, 'use-feature', { actorUuid: thorin.uuid, abilityName: 'second wind' });
    const message = world.game.messages.get(used.data.result)!;
    expect(used.data).toEqual({ uuid: thorin.uuid, ability: 'Second Wind', result: message.id });
    expect(message.source.content).toContain('<h3>Second Wind</h3>');
    expect(
      (await ask(world, 'use-feature', { actorUuid: thorin.uuid, abilityName: 'Second Wind' })).data.result,
    ).toBeNull();
    expect((await ask(world, 'use-spell', { actorUuid: thorin.uuid, abilityName: 'Battleaxe' })).error).toBe(
      'Ability not found on actor Thorin Ironfoot',
    );
    expect(
      (await ask(world, 'use-item', { actorUuid: thorin.uuid, abilityName: 'Battleaxe', userId: 'Bob' })).error,
    ).toBe("User 'Bob' does not have permission to use abilities on 'Thorin Ironfoot'");
    const charges = await ask(world, 'modify-item-charges', {
      actorUuid: thorin.uuid,
      itemName: 'Second Wind',
      amount: 1,
    });
    expect(charges.data).toMatchObject({ oldCharges: 0, newCharges: 1 });
  });

  it('equips and attunes items and prepares spells', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    const cloak = lyra.collection('Item').getName('Cloak of Protection')!;
    expect(
      (await ask(world, 'equip-item', { actorUuid: lyra.uuid, itemName: 'Cloak of Protection', equipped: true })).data,
    ).toEqual({ actorUuid: lyra.uuid, itemUuid: cloak.uuid, itemName: 'Cloak of Protection', equipped: true });
    expect(
      (await ask(world, 'attune-item', { actorUuid: lyra.uuid, itemUuid: cloak.uuid, attuned: true })).data.attuned,
    ).toBe(true);
    expect(cloak.system).toMatchObject({ equipped: true, attuned: true });
    expect(
      (await ask(world, 'equip-item', { actorUuid: lyra.uuid, itemName: 'Cloak of Protection', equipped: 'yes' }))
        .error,
    ).toBe('equipped must be a boolean');
    expect((await ask(world, 'attune-item', { actorUuid: lyra.uuid, itemName: 'Wand', attuned: true })).error).toBe(
      'Item not found on actor Lyra Moonwhisper: Wand',
    );
    const prepared = await ask(world, 'prepare-spell', {
      actorUuid: lyra.uuid,
      spellName: 'hold person',
      prepared: true,
    });
    expect(prepared.data).toEqual({
      spellName: 'Hold Person',
      prepared: true,
      uuid: lyra.collection('Item').getName('Hold Person')!.uuid,
    });
    expect((await ask(world, 'prepare-spell', { actorUuid: lyra.uuid, spellName: 'Wish', prepared: true })).error).toBe(
      'Spell not found: Wish',
    );
  });

  it('moves and changes currency, refusing overdrafts', async () => {
    const world = sandbox();
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    const pip = named(world, 'actors', 'Pip Thistledown');
    const moved = await ask(world, 'transfer-currency', {
      sourceActorUuid: lyra.uuid,
      targetActorName: 'Pip Thistledown',
      currency: { gp: 10 },
    });
    expect(moved.data).toMatchObject({
      sourceActorUuid: lyra.uuid,
      targetActorUuid: pip.uuid,
      transferred: { gp: 10 },
      sourceBalance: { gp: 32 },
      targetBalance: { gp: 17 },
    });
    expect(
      (
        await ask(world, 'transfer-currency', {
          sourceActorUuid: lyra.uuid,
          targetActorUuid: pip.uuid,
          currency: { pp: 5 },
        })
      ).error,
    ).toBe('Insufficient pp: Lyra Moonwhisper has 1, needs 5');
    expect((await ask(world, 'modify-currency', { actorUuid: pip.uuid, currency: 'cp', amount: -50 })).data).toEqual({
      currency: 'cp',
      previous: 30,
      current: 0,
      delta: -50,
    });
    expect((await ask(world, 'modify-currency', { actorUuid: pip.uuid, currency: 'gp' })).error).toBe(
      'Missing required params: uuid, currency, amount',
    );
    expect(
      (await ask(world, 'modify-currency', { actorUuid: pip.uuid, currency: 'gp', amount: 5, userId: 'Bob' })).error,
    ).toBe("User 'Bob' does not have permission to modify currency on 'Pip Thistledown'");
  });
});

describe('rests and experience', () => {
  it('spends hit dice on a short rest and restores everything on a long rest', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    world.game.updateDocument(thorin, { 'system.attributes.hp.value': 10 });
    const short = await ask(world, 'short-rest', { actorUuid: thorin.uuid, autoHD: true });
    const fighter = thorin.collection('Item').getName('Fighter')!;
    expect(short.data.result).toMatchObject({ type: 'short', newDay: false });
    expect(short.data.result.deltas.hitDice).toBe(-short.data.result.rolls.length);
    expect((fighter.system.hd as { spent: number }).spent).toBe(1 + short.data.result.rolls.length);
    const long = await ask(world, 'long-rest', { actorUuid: thorin.uuid });
    expect(long.data.result).toMatchObject({ type: 'long', newDay: true });
    expect((thorin.system.attributes as any).hp.value).toBe(34);
    expect(world.game.messages.contents.at(-1)!.source.content).toMatch(/^Thorin Ironfoot takes a long rest/);
    expect((await ask(world, 'short-rest', {})).error).toBe('Either actorUuid or selected must be provided');
    expect((await ask(world, 'long-rest', { selected: true })).error).toBe('No token selected');
  });

  it('changes experience of characters only', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    expect((await ask(world, 'modify-experience', { actorUuid: thorin.uuid, amount: 300 })).data).toEqual({
      actorUuid: thorin.uuid,
      oldXp: 2700,
      newXp: 3000,
    });
    const goblin = named(world, 'actors', 'Goblin');
    expect((await ask(world, 'modify-experience', { actorUuid: goblin.uuid, amount: 1 })).error).toBe(
      "Actor 'Goblin' does not have experience points (may be an NPC or using milestone leveling)",
    );
    expect((await ask(world, 'modify-experience', { actorUuid: thorin.uuid, amount: '5' })).error).toBe(
      'amount must be a number',
    );
  });
});
