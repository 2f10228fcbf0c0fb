import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsSeenDuring, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('Structure', () => {
  it('GET /structure without types covers all 8 document types (the relay sends the defaults)', async () => {
    const answer = await harness.get('/structure');
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('structure-result');
    expect(answer.body.requestId).toMatch(/^structure_\d{13}$/);
    const { folders, entities } = answer.body.data;
    const types = new Set(Object.values(folders).map((folder: any) => folder.type));
    expect([...types].sort()).toEqual([
      'Actor',
      'Cards',
      'Item',
      'JournalEntry',
      'Macro',
      'Playlist',
      'RollTable',
      'Scene',
    ]);
    expect(Array.isArray(entities.scenes)).toBe(true);
    for (const folder of Object.values(folders) as any[])
      expect(Object.keys(folder)).toEqual(expect.arrayContaining(['id', 'uuid', 'type']));
  });

  it('GET /structure takes types as a comma list or a JSON array, sent to the world as an array', async () => {
    let comma: any;
    let json: any;
    const seen = await requestsSeenDuring(harness, async () => {
      comma = await harness.get('/structure', { types: 'Actor,Item' });
      json = await harness.get('/structure', { types: '["Actor","Item"]' });
    });
    expect(seen.map((request) => request.types)).toEqual([
      ['Actor', 'Item'],
      ['Actor', 'Item'],
    ]);
    expect(comma.body.data).toEqual(json.body.data);
    const types = new Set(Object.values(comma.body.data.folders).map((folder: any) => folder.type));
    expect([...types].sort()).toEqual(['Actor', 'Item']);
  });

  it('GET /structure defaults recursiveDepth to 5 and includeEntityData and recursive to false', async () => {
    const [sent] = await requestsSeenDuring(harness, () => harness.get('/structure'));
    expect(sent).toMatchObject({ type: 'structure', recursiveDepth: 5, includeEntityData: false, recursive: false });
    expect(sent!.types).toHaveLength(8);
  });

  it('GET /structure rejects unknown document types and a bad depth', async () => {
    const types = await harness.get('/structure', { types: 'Actor,Spaceship' });
    expect(types.status).toBe(400);
    expect(types.body.error).toMatch(/^'types\.1' must be one of Scene, Actor/);
    const depth = await harness.get('/structure', { recursiveDepth: 'deep' });
    expect(depth.body).toEqual({ error: "'recursiveDepth' must be a number" });
  });

  it('GET /structure recursive descends into child folders', async () => {
    const flat = await harness.get('/structure', { types: 'Actor' });
    const deep = await harness.get('/structure', { types: 'Actor', recursive: true });
    expect(flat.body.data.folders.Monsters.Goblinoids).toBeUndefined();
    expect(deep.body.data.folders.Monsters.Goblinoids).toMatchObject({ type: 'Actor' });
  });

  it('GET /get-folder returns a folder with its contents, and a 400 for an unknown name', async () => {
    const answer = await harness.get('/get-folder', { name: 'Goblinoids' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('get-folder-result');
    expect(Object.keys(answer.body.data).sort()).toEqual(['contents', 'id', 'name', 'parentFolder', 'type', 'uuid']);
    expect(answer.body.data.contents.map((entry: { name: string }) => entry.name)).toContain('Goblin Archer');
    const missing = await harness.get('/get-folder', { name: 'Nowhere' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Folder not found with name: Nowhere');
    expect((await harness.get('/get-folder')).body).toEqual({ error: "'name' is required" });
  });

  it('POST /create-folder creates a folder and returns it without contents', async () => {
    const answer = await harness.post('/create-folder', { name: 'Villains', folderType: 'Actor' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('create-folder-result');
    expect(Object.keys(answer.body.data).sort()).toEqual(['id', 'name', 'parentFolder', 'type', 'uuid']);
    expect(answer.body.data).toMatchObject({
      name: 'Villains',
      type: 'Actor',
      parentFolder: null,
      uuid: `Folder.${answer.body.data.id}`,
    });
    const found = await harness.get('/get-folder', { name: 'Villains' });
    expect(found.body.data.contents).toEqual([]);
  });

  it('POST /create-folder under a parent', async () => {
    const parent = await harness.post('/create-folder', { name: 'Outer', folderType: 'Item' });
    const child = await harness.post('/create-folder', {
      name: 'Inner',
      folderType: 'Item',
      parentFolderId: parent.body.data.id,
    });
    expect(child.body.data.parentFolder).toBe(parent.body.data.id);
  });

  it('POST /create-folder needs name and a valid folderType', async () => {
    expect((await harness.post('/create-folder', { folderType: 'Actor' })).body).toEqual({
      error: "'name' is required",
    });
    const bad = await harness.post('/create-folder', { name: 'x', folderType: 'Monster' });
    expect(bad.body.error).toBe(
      "'folderType' must be one of Scene, Actor, Item, JournalEntry, RollTable, Cards, Macro, Playlist",
    );
  });

  it('DELETE /delete-folder removes an empty folder and counts nothing deleted', async () => {
    const created = await harness.post('/create-folder', { name: 'Temporary', folderType: 'Scene' });
    const answer = await harness.del('/delete-folder', { folderId: created.body.data.id });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('delete-folder-result');
    expect(answer.body.data).toEqual({
      deleted: true,
      folderId: created.body.data.id,
      entitiesDeleted: 0,
      foldersDeleted: 1,
    });
    expect((await harness.get('/get-folder', { name: 'Temporary' })).status).toBe(400);
  });

  it('DELETE /delete-folder refuses a folder with contents unless deleteAll, then counts what it deleted', async () => {
    const folder = await harness.get('/get-folder', { name: 'Monsters' });
    const refused = await harness.del('/delete-folder', { folderId: folder.body.data.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/contains/);
    const deleted = await harness.del('/delete-folder', { folderId: folder.body.data.id, deleteAll: true });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deleted).toBe(true);
    expect(deleted.body.data.foldersDeleted).toBe(3);
    expect(deleted.body.data.entitiesDeleted).toBe(7);
    const search = await harness.get('/search', { query: 'Hobgoblin', excludeCompendiums: true });
    expect(search.body.results.filter((result: { documentType: string }) => result.documentType === 'Actor')).toEqual(
      [],
    );
  });

  it('a player may not create folders', async () => {
    const answer = await harness.post('/create-folder', { name: 'Mine', folderType: 'Actor', userId: 'Alice' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/must be a GM/);
  });
});
