// Issue 17, items 5 and 6: embedded arrays in an update merge by `_id` as Foundry's do, and a document's folder is the
// id of an existing folder of its type.
import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

const NEW_ID = /^[a-zA-Z0-9]{16}$/;

describe('embedded documents through an update', () => {
  it('creates the entries whose _id is not on the actor, with their type defaults, updates the others and keeps the rest', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const battleaxe = thorin.collection('Item').getName('Battleaxe')!;
    const itemCount = thorin.collection('Item').size;
    const reply = await ask(world, 'update', {
      uuid: thorin.uuid,
      data: {
        items: [
          { name: 'Dagger', type: 'weapon' },
          { _id: battleaxe.id, 'system.quantity': 2 },
          { _id: 'KeptId0000000001', name: 'Torch', type: 'consumable' },
        ],
        effects: [{ name: 'Blessed' }],
      },
    });
    expect(reply.error).toBeUndefined();
    const items = thorin.collection('Item');
    expect(items.size).toBe(itemCount + 2);
    const dagger = items.getName('Dagger')!;
    expect(dagger.id).toMatch(NEW_ID);
    expect(dagger.source).toMatchObject({
      type: 'weapon',
      img: 'icons/svg/item-bag.svg',
      system: { quantity: 1, equipped: false, range: { units: 'ft' }, activities: {} },
    });
    expect(items.get('KeptId0000000001')?.name).toBe('Torch');
    expect(battleaxe.system.quantity).toBe(2);
    expect(items.getName('Fighter')).toBeDefined();
    expect(thorin.collection('ActiveEffect').getName('Blessed')?.id).toMatch(NEW_ID);
    const answered = reply.entity[0].items.map((item: { name: string }) => item.name);
    expect(answered).toEqual(expect.arrayContaining(['Battleaxe', 'Fighter', 'Dagger', 'Torch']));
  });

  it('changes nothing when one entry is invalid, and answers with Foundry validation error', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const itemCount = thorin.collection('Item').size;
    const reply = await ask(world, 'update', {
      uuid: thorin.uuid,
      data: { name: 'Renamed', items: [{ name: 'Dagger', type: 'weapon' }, { type: 'weapon' }] },
    });
    expect(reply).toMatchObject({
      error: 'Item validation errors:\n  name: may not be undefined',
      message: 'Failed to update entity',
    });
    expect(thorin.name).toBe('Thorin Ironfoot');
    expect(thorin.collection('Item').size).toBe(itemCount);
  });

  it('fires the actor update hook with the created entries in its changes, and no create hook, as Foundry does', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    world.setChannel('actor-events', true);
    await ask(world, 'update', { uuid: thorin.uuid, data: { items: [{ name: 'Dagger', type: 'weapon' }] } });
    const dagger = thorin.collection('Item').getName('Dagger')!;
    const hooks = pushes.filter((push) => push.type === 'hook-event').map((push) => (push.data as any).hook);
    expect(hooks).toEqual(['updateActor']);
    const events = pushes.filter((push) => push.type === 'actor-event').map((push) => push.data as any);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUuid: thorin.uuid, eventType: 'update' });
    expect(events[0].changes.items).toEqual([expect.objectContaining({ _id: dagger.id, name: 'Dagger' })]);
  });
});

describe('folders', () => {
  it("takes only the id of an existing folder of the document's type, on create and on update", async () => {
    const world = sandbox();
    const heroes = named(world, 'folders', 'Heroes');
    const weapons = named(world, 'folders', 'Weapons');
    const refusals: [unknown, string][] = [
      [`Folder.${heroes.id}`, 'must be a valid 16-character alphanumeric ID'],
      ['no such folder', 'must be a valid 16-character alphanumeric ID'],
      ['Nosuchfolder0000', 'Nosuchfolder0000 is not the id of an existing Actor folder'],
      [weapons.id, `${weapons.id} is not the id of an existing Actor folder`],
    ];
    for (const [folder, problem] of refusals) {
      const created = await ask(world, 'create', { entityType: 'Actor', data: { name: 'Nomad', type: 'npc' }, folder });
      expect(created.error).toBe(`Actor validation errors:\n  folder: ${problem}`);
    }
    expect(world.game.actors.getName('Nomad')).toBeUndefined();
    const created = await ask(world, 'create', {
      entityType: 'Actor',
      data: { name: 'Nomad', type: 'npc' },
      folder: heroes.id,
    });
    expect(created.entity.folder).toBe(heroes.id);
    const refused = await ask(world, 'update', { uuid: created.uuid, data: { folder: weapons.id } });
    expect(refused.error).toBe(
      `Actor validation errors:\n  folder: ${weapons.id} is not the id of an existing Actor folder`,
    );
    expect(world.game.fromUuid(created.uuid)?.folderId).toBe(heroes.id);
    await ask(world, 'update', { uuid: created.uuid, data: { folder: null } });
    expect(world.game.fromUuid(created.uuid)?.folderId).toBeNull();
  });

  it('keeps a folder out of itself and out of folders of another type', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    const undead = named(world, 'folders', 'Undead');
    expect((await ask(world, 'update', { uuid: monsters.uuid, data: { folder: undead.id } })).error).toBe(
      'Folder validation errors:\n  folder: a folder may not contain itself',
    );
    const spells = named(world, 'folders', 'Spells');
    const mistyped = await ask(world, 'create-folder', { name: 'X', folderType: 'Actor', parentFolderId: spells.id });
    expect(mistyped.error).toBe(
      `Folder validation errors:\n  folder: ${spells.id} is not the id of an existing Actor folder`,
    );
    expect(monsters.folderId).toBeNull();
  });

  it('deleting a folder moves what it holds to its parent; deleteAll deletes it; no document points at a gone folder', async () => {
    const world = sandbox();
    const monsters = named(world, 'folders', 'Monsters');
    const undead = named(world, 'folders', 'Undead');
    const undeadActors = world.game.folderContents(undead).map((actor) => actor.id);
    expect(undeadActors.length).toBeGreaterThan(0);
    expect((await ask(world, 'delete', { uuid: undead.uuid })).success).toBe(true);
    for (const id of undeadActors) expect(world.game.actors.get(id)?.folderId).toBe(monsters.id);

    const rumours = named(world, 'folders', 'Rumours');
    const lore = named(world, 'folders', 'Lore');
    await ask(world, 'delete', { uuid: lore.uuid });
    expect(rumours.folderId).toBeNull();

    const gone = await ask(world, 'delete-folder', { folderId: monsters.id, deleteAll: true });
    expect(gone.data).toMatchObject({ deleted: true, foldersDeleted: 2 });
    for (const id of undeadActors) expect(world.game.actors.get(id)).toBeUndefined();
    for (const collection of Object.values(world.game.collections)) {
      for (const document of collection.values()) {
        if (document.folderId !== null) expect(world.game.folders.get(document.folderId)).toBeDefined();
      }
    }
  });
});
