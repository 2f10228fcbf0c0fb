import { describe, expect, it } from 'vitest';
import { parseFilterString, scoreMatch } from '../../sandbox/search-index.ts';
import { ask, named, sandbox } from './helpers.ts';

describe('scoreMatch', () => {
  it('ranks exact, prefix, substring and subsequence matches with their highlights', () => {
    expect(scoreMatch('Goblin', 'goblin')).toEqual({ score: 100, formattedMatch: '<strong>Goblin</strong>' });
    expect(scoreMatch('Goblin Archer', 'GOB')).toEqual({ score: 80, formattedMatch: '<strong>Gob</strong>lin Archer' });
    expect(scoreMatch('Hobgoblin', 'goblin')).toEqual({ score: 60, formattedMatch: 'Hob<strong>goblin</strong>' });
    expect(scoreMatch('Globe of Blinding Light', 'goblin')).toEqual({
      score: 20,
      formattedMatch: 'Globe of Blinding Light',
    });
    expect(scoreMatch('Zombie', 'goblin')).toBeNull();
  });

  it('parses filter strings like the module', () => {
    expect(parseFilterString('Actor')).toEqual({ documentType: 'Actor' });
    expect(parseFilterString('documentType:Item, subType : weapon,package:world.armory:extra,bad')).toEqual({
      documentType: 'Item',
      subType: 'weapon',
      package: 'world.armory',
    });
  });
});

describe('search', () => {
  it('orders by tier then name and returns the full row shape', async () => {
    const world = sandbox();
    const reply = await ask(world, 'search', { query: 'goblin' });
    expect(Object.keys(reply)).toEqual(['type', 'requestId', 'clientId', 'query', 'filter', 'results']);
    const names = reply.results.map((r: { name: string }) => r.name);
    expect(names.slice(0, 1)).toEqual(['Goblin']);
    expect(names.indexOf('Goblin Archer')).toBeLessThan(names.indexOf('Hobgoblin'));
    expect(names.slice(-1)).toEqual(['Globe of Blinding Light']);
    const prefix = names.filter((n: string) => n.toLowerCase().startsWith('goblin') && n !== 'Goblin');
    expect(prefix).toEqual([...prefix].sort((a, b) => a.localeCompare(b)));
    const middle = names.slice(1 + prefix.length, -1);
    expect(middle).toEqual(['Greater Goblin King', 'Hobgoblin', 'The Goblin Threat']);
    const goblin = named(world, 'actors', 'Goblin');
    expect(reply.results[0]).toEqual({
      documentType: 'Actor',
      folder: named(world, 'folders', 'Goblinoids').id,
      id: goblin.id,
      name: 'Goblin',
      package: null,
      packageName: null,
      subType: 'npc',
      uuid: goblin.uuid,
      icon: 'icons/creatures/goblin.webp',
      journalLink: `@UUID[${goblin.uuid}]{Goblin}`,
      tagline: 'Actors Directory',
      formattedMatch: '<strong>Goblin</strong>',
      resultType: 'WorldEntity',
    });
    const compendium = reply.results.find((r: { name: string }) => r.name === 'Goblin Boss');
    expect(compendium).toMatchObject({
      package: 'world.bestiary',
      packageName: 'Sandbox Bestiary',
      tagline: 'Sandbox Bestiary',
      folder: null,
      resultType: 'CompendiumEntity',
    });
  });

  it('filters by type, subtype, package, folder and result type, and limits before anything else', async () => {
    const world = sandbox();
    const names = async (parameters: Record<string, unknown>) =>
      (await ask(world, 'search', parameters)).results.map((r: { name: string }) => r.name);
    expect(await names({ query: 'goblin', filter: 'Item' })).toEqual([
      'Goblin Bane Dagger',
      'Goblin Scimitar',
      'Globe of Blinding Light',
    ]);
    expect(await names({ query: 'goblin', filter: 'documentType:Item,subType:weapon,resultType:worldentity' })).toEqual(
      ['Goblin Scimitar'],
    );
    expect(await names({ query: 'goblin', filter: 'package:Compendium.world.bestiary' })).toEqual([
      'Goblin Boss',
      'Goblin Shaman',
    ]);
    expect(await names({ query: 'goblin', filter: { folder: named(world, 'folders', 'Goblinoids').uuid } })).toEqual([
      'Goblin',
      'Goblin Archer',
      'Greater Goblin King',
      'Hobgoblin',
    ]);
    expect(await names({ query: 'goblin', excludeCompendiums: 'true', filter: 'Actor' })).toEqual([
      'Goblin',
      'Goblin Archer',
      'Greater Goblin King',
      'Hobgoblin',
    ]);
    expect(await names({ query: 'goblin', limit: 2 })).toEqual(['Goblin', 'Goblin Ambush']);
    const everything = await names({});
    expect(everything.length).toBeGreaterThan(40);
    expect((await ask(world, 'search', { query: 'goblin', minified: true })).results[0]).toEqual({
      uuid: named(world, 'actors', 'Goblin').uuid,
      id: named(world, 'actors', 'Goblin').id,
      name: 'Goblin',
      img: 'icons/creatures/goblin.webp',
      documentType: 'Actor',
    });
  });

  it('applies the user permission after the limit and keeps LIMITED hits minified', async () => {
    const world = sandbox();
    const results = (
      await ask(world, 'search', { query: 'o', filter: 'Actor', excludeCompendiums: true, userId: 'Carol' })
    ).results;
    expect(results.map((r: { name: string }) => r.name).sort()).toEqual([
      'Captain Goodwin',
      'Lyra Moonwhisper',
      'Pip Thistledown',
    ]);
    expect(Object.keys(results.find((r: { name: string }) => r.name === 'Lyra Moonwhisper'))).toEqual([
      'uuid',
      'id',
      'name',
      'img',
      'documentType',
    ]);
    expect(results.find((r: { name: string }) => r.name === 'Captain Goodwin')).toHaveProperty('journalLink');
    const limited = (
      await ask(world, 'search', {
        query: 'goblin',
        filter: 'Actor',
        excludeCompendiums: true,
        limit: 2,
        userId: 'Alice',
      })
    ).results;
    expect(limited).toEqual([]);
    expect(await ask(world, 'search', { query: 'x', userId: 'nobody' })).toMatchObject({
      error: 'User not found: nobody',
      data: null,
    });
  });

  it('keeps only documents the ownedByUserId user owns, and ignores an unknown owner', async () => {
    const world = sandbox();
    const owned = (await ask(world, 'search', { filter: 'Actor', excludeCompendiums: true, ownedByUserId: 'Bob' }))
      .results;
    expect(owned.map((r: { name: string }) => r.name)).toEqual(['Lyra Moonwhisper']);
    const ignored = (await ask(world, 'search', { filter: 'Actor', excludeCompendiums: true, ownedByUserId: 'Nobody' }))
      .results;
    expect(ignored.length).toBe(world.game.actors.size);
  });

  it('follows document hooks: renamed documents are found, embedded items join once updated', async () => {
    const world = sandbox();
    world.game.updateDocument(named(world, 'actors', 'Zombie'), { name: 'Goblin Zombie' });
    expect((await ask(world, 'search', { query: 'goblin zombie' })).results[0].formattedMatch).toBe(
      '<strong>Goblin Zombie</strong>',
    );
    const battleaxe = named(world, 'actors', 'Thorin Ironfoot').collection('Item').getName('Battleaxe')!;
    expect((await ask(world, 'search', { query: 'Battleaxe' })).results).toEqual([]);
    world.game.updateDocument(battleaxe, { 'system.damage': '1d10+3' });
    expect((await ask(world, 'search', { query: 'Battleaxe' })).results[0].uuid).toBe(battleaxe.uuid);
  });
});
