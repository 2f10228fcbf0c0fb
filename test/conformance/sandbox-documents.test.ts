// Issue 17, items 5 and 6, through the relay over HTTP and /ws/api: an update's embedded array creates and updates as
// Foundry's `EmbeddedCollection#update` does, and a document's folder is the id of an existing folder of its type,
// refused otherwise with the world's validation error as a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transports, type Transport, type TransportName } from '../contract/transports.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

const NEW_ID = /^[a-zA-Z0-9]{16}$/;

let harness: WorldHarness;
let ways: Record<TransportName, Transport>;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  ways = transports(harness.baseUrl, harness.wsUrl, harness.key);
});

afterAll(async () => {
  ways.http.close();
  ways.ws.close();
  await harness.close();
});

function folderNamed(name: string): { id: string; uuid: string } {
  const folder = harness.world.game.folders.getName(name);
  if (!folder) throw new Error(`no folder ${name}`);
  return { id: folder.id, uuid: folder.uuid };
}

async function createActor(way: Transport, name: string, folder?: string): Promise<string> {
  const created = await way.call('POST /create', { entityType: 'Actor', data: { name, type: 'npc' }, folder });
  expect(created.status).toBe(200);
  return created.body.uuid as string;
}

describe.each(['http', 'ws'] as const)('embedded documents through PUT /update (%s)', (transport) => {
  it('creates the items and effects whose _id is not on the actor, with their type defaults, and updates the known ones', async () => {
    const way = ways[transport];
    const uuid = await createActor(way, `Quartermaster ${transport}`);
    const first = await way.call('PUT /update', {
      uuid,
      data: { items: [{ name: 'Dagger', type: 'weapon' }], effects: [{ name: 'Blessed' }] },
    });
    expect(first.status).toBe(200);
    const [dagger] = first.body.entity[0].items;
    expect(dagger).toMatchObject({ name: 'Dagger', type: 'weapon', system: { quantity: 1, range: { units: 'ft' } } });
    expect(dagger._id).toMatch(NEW_ID);
    expect(first.body.entity[0].effects).toEqual([expect.objectContaining({ name: 'Blessed' })]);

    const second = await way.call('PUT /update', {
      uuid,
      data: {
        items: [
          { _id: dagger._id, system: { quantity: 3 } },
          { _id: 'KeptId0000000001', name: 'Rope', type: 'loot' },
        ],
      },
    });
    expect(second.status).toBe(200);
    const read = await way.call('GET /get', { uuid });
    const items = read.body.data.items.map((item: any) => [item._id, item.name, item.system.quantity]);
    expect(items).toEqual([
      [dagger._id, 'Dagger', 3],
      ['KeptId0000000001', 'Rope', 1],
    ]);
  });
});

describe('the events of such an update', () => {
  it('are the actor update carrying the new item, as Foundry fires only the parent update hook', async () => {
    const uuid = await createActor(ways.http, 'Herald');
    const stream = await ways.http.subscribe('GET /actor/subscribe', { actorUuid: uuid });
    expect(stream.status).toBe(200);
    const updated = await ways.http.call('PUT /update', { uuid, data: { items: [{ name: 'Horn', type: 'loot' }] } });
    expect(updated.status).toBe(200);
    const event = await stream.next('actor-update');
    const horn = updated.body.entity[0].items[0];
    expect(event.data.data.changes.items).toEqual([expect.objectContaining({ _id: horn._id, name: 'Horn' })]);
    expect(stream.events().map((received) => received.name)).toEqual(['actor-update']);
    await stream.close();
  });
});

describe.each(['http', 'ws'] as const)('folders (%s)', (transport) => {
  it("refuses a folder that is not the id of an existing folder of the document's type with the world's 400", async () => {
    const way = ways[transport];
    const heroes = folderNamed('Heroes');
    const weapons = folderNamed('Weapons');
    const refusals: [string, string][] = [
      [heroes.uuid, 'must be a valid 16-character alphanumeric ID'],
      ['no such folder', 'must be a valid 16-character alphanumeric ID'],
      [weapons.id, `${weapons.id} is not the id of an existing Actor folder`],
    ];
    for (const [folder, problem] of refusals) {
      const answer = await way.call('POST /create', {
        entityType: 'Actor',
        data: { name: 'Drifter', type: 'npc' },
        folder,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(`Actor validation errors:\n  folder: ${problem}`);
    }
    const uuid = await createActor(way, `Settler ${transport}`, heroes.id);
    const moved = await way.call('PUT /update', { uuid, data: { folder: 'Nosuchfolder0000' } });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toBe(
      'Actor validation errors:\n  folder: Nosuchfolder0000 is not the id of an existing Actor folder',
    );
    expect((await way.call('GET /get', { uuid })).body.data.folder).toBe(heroes.id);
  });
});

describe('deleting folders', () => {
  it('deleteAll deletes the documents inside, and no document points at a folder that is gone', async () => {
    const created = await harness.post('/create-folder', { name: 'Caravan', folderType: 'Actor' });
    expect(created.status).toBe(200);
    const caravan = created.body.data.id as string;
    const wagoner = await createActor(ways.http, 'Wagoner', caravan);
    const refused = await ways.http.call('POST /create', {
      entityType: 'Actor',
      data: { name: 'Stowaway', type: 'npc' },
      folder: `Folder.${caravan}`,
    });
    expect(refused.status).toBe(400);
    const deleted = await harness.del('/delete-folder', undefined, { folderId: caravan, deleteAll: 'true' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ deleted: true, entitiesDeleted: 1, foldersDeleted: 1 });
    expect((await ways.http.call('GET /get', { uuid: wagoner })).status).toBe(400);
    const search = await harness.get('/search', { query: 'Stowaway', filter: 'Actor' });
    expect(search.body.results).toEqual([]);
  });

  it("a folder deleted as a document hands its documents to its parent folder, as Foundry's Folder deletion does", async () => {
    const monsters = folderNamed('Monsters');
    const goblinoids = folderNamed('Goblinoids');
    const goblin = await uuidOf(harness, 'Goblin Archer');
    expect((await ways.http.call('GET /get', { uuid: goblin })).body.data.folder).toBe(goblinoids.id);
    expect((await ways.http.call('DELETE /delete', { uuid: goblinoids.uuid })).status).toBe(200);
    expect((await ways.http.call('GET /get', { uuid: goblin })).body.data.folder).toBe(monsters.id);
  });
});
