import { describe, expect, it } from 'vitest';
import { ask, named, sandbox } from './helpers.ts';

const ALL = ['Scene', 'Actor', 'Item', 'JournalEntry', 'RollTable', 'Cards', 'Macro', 'Playlist'];

describe('structure', () => {
  it('lists root folders, folderless entities under odd plural keys, and compendium packs', async () => {
    const world = sandbox();
    const { data } = await ask(world, 'structure', { types: ALL });
    expect(Object.keys(data.folders)).toEqual(
      expect.arrayContaining(['Heroes', 'Monsters', 'Allies', 'Weapons', 'Dungeons', 'Lore', 'Ambience']),
    );
    expect(data.folders).not.toHaveProperty('Goblinoids');
    expect(Object.keys(data.folders.Allies)).toEqual(['id', 'uuid', 'type']);
    expect(data.folders.Heroes.entities.map((e: { name: string }) => e.name)).toEqual([
      'Thorin Ironfoot',
      'Lyra Moonwhisper',
      'Pip Thistledown',
    ]);
    expect(Object.keys(data.entities).sort()).toEqual([
      'actors',
      'cardss',
      'items',
      'journalentrys',
      'macros',
      'playlists',
      'rolltables',
      'scenes',
    ]);
    expect(data.entities.actors.map((e: { name: string }) => e.name)).toEqual(['Innkeeper Bram', 'Captain Goodwin']);
    const captain = named(world, 'actors', 'Captain Goodwin');
    expect(data.entities.actors[1]).toEqual({
      uuid: captain.uuid,
      name: 'Captain Goodwin',
      id: captain.id,
      type: 'Actor',
    });
    expect(data.compendiumPacks['Sandbox Bestiary']).toMatchObject({
      id: 'world.bestiary',
      name: 'Sandbox Bestiary',
      type: 'Actor',
      uuid: 'Compendium.world.bestiary',
    });
    expect(data.compendiumPacks['Keep Chronicles'].entities[0].type).toBe('JournalEntry');
    expect(data.compendiumPacks['Sandbox Armory'].entities[0].type).toBe('weapon');
  });

  it('matches nothing when types are omitted, because the wire type is the action name', async () => {
    const world = sandbox();
    expect((await ask(world, 'structure')).data).toEqual({ folders: {}, compendiumPacks: {} });
  });

  it('parses comma separated types and nests recursively up to recursiveDepth', async () => {
    const world = sandbox();
    const deep = (await ask(world, 'structure', { types: 'Actor, Item', recursive: true })).data;
    expect(Object.keys(deep.folders.Monsters)).toEqual(['id', 'uuid', 'type', 'Goblinoids', 'Undead']);
    expect(deep.folders.Monsters.Goblinoids.entities).toHaveLength(5);
    expect(deep.folders.Spells.Cantrips.entities[0].name).toBe('Fire Bolt');
    expect(deep.folders).not.toHaveProperty('Dungeons');
    const shallow = (await ask(world, 'structure', { types: ['Actor'], recursive: true, recursiveDepth: 1 })).data;
    expect(Object.keys(shallow.folders.Monsters)).toEqual(['id', 'uuid', 'type']);
  });

  it('returns full documents with includeEntityData', async () => {
    const world = sandbox();
    const { data } = await ask(world, 'structure', { types: ['Actor'], includeEntityData: true });
    const thorin = data.folders.Heroes.entities[0];
    expect(thorin).toMatchObject({
      name: 'Thorin Ironfoot',
      type: 'character',
      system: { attributes: { hp: { value: 34 } } },
    });
    expect(thorin.items[0].name).toBe('Battleaxe');
  });

  it('filters entities by permission for a player but never folders or packs', async () => {
    const world = sandbox();
    const { data } = await ask(world, 'structure', { types: ['Actor'], userId: 'Carol' });
    const lyra = named(world, 'actors', 'Lyra Moonwhisper');
    expect(data.folders.Heroes.entities).toEqual([
      { uuid: lyra.uuid, name: 'Lyra Moonwhisper', id: lyra.id, type: 'Actor', img: 'icons/creatures/elf-wizard.webp' },
      expect.objectContaining({ name: 'Pip Thistledown', type: 'Actor' }),
    ]);
    expect(data.folders.Heroes.entities[1]).not.toHaveProperty('img');
    expect(data.folders.Monsters).toEqual({
      id: named(world, 'folders', 'Monsters').id,
      uuid: named(world, 'folders', 'Monsters').uuid,
      type: 'Actor',
    });
    expect(data.entities.actors.map((e: { name: string }) => e.name)).toEqual(['Innkeeper Bram', 'Captain Goodwin']);
    expect(data.compendiumPacks['Sandbox Bestiary'].entities).toHaveLength(5);
  });

  it('answers folder and compendium paths and their errors', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    const folder = (await ask(world, 'structure', { types: ALL, path: monsters.uuid, recursive: true })).data;
    expect(Object.keys(folder.folders)).toEqual(['Goblinoids', 'Undead']);
    expect(folder).not.toHaveProperty('entities');
    expect((await ask(world, 'structure', { types: ALL, path: monsters.uuid })).data).toEqual({ folders: {} });
    const pack = (await ask(world, 'structure', { types: ALL, path: 'Compendium.world.armory' })).data;
    expect(pack.compendium).toMatchObject({ name: 'Sandbox Armory', type: 'Item' });
    expect(pack.compendium.entities[0]).toEqual({
      uuid: expect.stringMatching(/^Compendium\.world\.armory\.Item\./),
      name: 'Greataxe',
      id: expect.any(String),
      type: 'Item',
    });
    const errors = [
      [{ path: 'Compendium.world.nothing' }, 'Compendium not found: Compendium.world.nothing'],
      [{ path: 'Folder.' }, 'Invalid folder path: Folder.'],
      [{ path: 'Folder.abc' }, 'Folder not found: Folder.abc'],
      [{ path: monsters.uuid, types: ['Item'] }, 'Folder type Actor not included in requested types'],
    ] as const;
    for (const [parameters, error] of errors) {
      const reply = await ask(world, 'structure', { types: ALL, ...parameters });
      expect(reply).toEqual({ type: 'structure-result', requestId: reply.requestId, error, data: {} });
    }
  });
});

describe('folders', () => {
  it('gets a folder by exact name with its contents', async () => {
    const world = sandbox();
    const heroes = named(world, 'folders', 'Heroes');
    const reply = await ask(world, 'get-folder', { name: 'Heroes' });
    expect(reply.data).toMatchObject({
      id: heroes.id,
      uuid: heroes.uuid,
      name: 'Heroes',
      type: 'Actor',
      parentFolder: null,
    });
    expect(reply.data.contents[0]).toEqual({
      uuid: named(world, 'actors', 'Thorin Ironfoot').uuid,
      id: expect.any(String),
      name: 'Thorin Ironfoot',
      type: 'Actor',
      img: 'icons/creatures/dwarf-warrior.webp',
    });
    expect((await ask(world, 'get-folder', { name: 'Goblinoids' })).data.parentFolder).toBe(
      named(world, 'folders', 'Monsters').id,
    );
    expect(
      (await ask(world, 'get-folder', { name: 'Heroes', userId: 'Alice' })).data.contents.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['Thorin Ironfoot']);
    expect((await ask(world, 'get-folder', { name: 'Lore' })).data.contents[0].img).toBeNull();
    expect(await ask(world, 'get-folder', { name: 'heroes' })).toMatchObject({
      error: 'Folder not found with name: heroes',
      data: null,
    });
  });

  it('creates folders, idempotently with a folderId, and validates the parent', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    const created = (
      await ask(world, 'create-folder', { name: 'Dragons', folderType: 'Actor', parentFolderId: monsters.id })
    ).data;
    expect(created).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{16}$/),
      uuid: `Folder.${created.id}`,
      name: 'Dragons',
      type: 'Actor',
      parentFolder: monsters.id,
    });
    const kept = (
      await ask(world, 'create-folder', { name: 'Synced', folderType: 'Item', folderId: 'AbCdEfGh12345678' })
    ).data;
    expect(kept).toEqual({
      id: 'AbCdEfGh12345678',
      uuid: 'Folder.AbCdEfGh12345678',
      name: 'Synced',
      type: 'Item',
      parentFolder: null,
    });
    const again = (
      await ask(world, 'create-folder', { name: 'Renamed', folderType: 'Actor', folderId: 'AbCdEfGh12345678' })
    ).data;
    expect(again).toEqual(kept);
    expect(
      await ask(world, 'create-folder', { name: 'X', folderType: 'Actor', parentFolderId: 'missing' }),
    ).toMatchObject({ error: 'Parent folder not found with ID: missing', data: null });
    expect((await ask(world, 'create-folder', { name: 'X', folderType: 'Spaceship' })).error).toBe(
      'Folder validation errors:\n  type: Spaceship is not a valid choice',
    );
    expect((await ask(world, 'create-folder', { name: 'X', folderType: 'Actor', userId: 'Dana' })).error).toBe(
      "User 'Dana' must be a GM to create folders",
    );
  });

  it('refuses to delete non-empty folders without deleteAll, entities checked first', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    expect((await ask(world, 'delete-folder', { folderId: monsters.id })).error).toBe(
      'Folder contains 2 child folders. Use deleteAll=true to delete them or move them first.',
    );
    const heroes = named(world, 'folders', 'Heroes');
    expect((await ask(world, 'delete-folder', { folderId: heroes.id })).error).toBe(
      'Folder contains 3 entities. Use deleteAll=true to delete them or move them first.',
    );
    const allies = named(world, 'folders', 'Allies');
    expect((await ask(world, 'delete-folder', { folderId: allies.id })).data).toEqual({
      deleted: true,
      folderId: allies.id,
      entitiesDeleted: 0,
      foldersDeleted: 1,
    });
    expect(world.game.folders.get(allies.id)).toBeUndefined();
    expect(await ask(world, 'delete-folder', { folderId: 'gone' })).toMatchObject({
      error: 'Folder not found with ID: gone',
      data: null,
    });
    expect((await ask(world, 'delete-folder', { folderId: heroes.id, userId: 'Bob' })).error).toBe(
      "User 'Bob' must be a GM to delete folders",
    );
  });

  it('deletes a tree depth-first with deleteAll and counts what went', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    const reply = await ask(world, 'delete-folder', { folderId: monsters.id, deleteAll: true });
    expect(reply.data).toEqual({ deleted: true, folderId: monsters.id, entitiesDeleted: 7, foldersDeleted: 3 });
    expect(world.game.actors.getName('Goblin')).toBeUndefined();
    expect(world.game.folders.getName('Undead')).toBeUndefined();
    const search = await ask(world, 'search', { query: 'Zombie', excludeCompendiums: true });
    expect(search.results).toEqual([]);
  });
});
