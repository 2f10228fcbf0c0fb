import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsSeenDuring, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let goblin: string;
let thorin: string;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  goblin = await uuidOf(harness, 'Goblin');
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(() => harness.close());

describe('Entity', () => {
  it('GET /get returns a document under {uuid, data}', async () => {
    const answer = await harness.get('/get', { uuid: goblin });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      type: 'entity-result',
      requestId: expect.stringMatching(/^entity_\d{13}$/),
      uuid: goblin,
    });
    expect(answer.body.data.name).toBe('Goblin');
  });

  it('GET /get needs uuid or selected, and an unknown uuid is a 400 from the world', async () => {
    expect((await harness.get('/get')).body).toEqual({ error: "Either 'uuid' or 'selected' is required" });
    const unknown = await harness.get('/get', { uuid: 'Actor.nobody0000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Entity not found', data: null });
  });

  it('POST /create, PUT /update and DELETE /delete manage a document', async () => {
    const created = await harness.post('/create', {
      entityType: 'Item',
      data: { name: 'Rope of Climbing', type: 'loot' },
    });
    expect(created.status).toBe(200);
    expect(created.body.type).toBe('create-result');
    const uuid = created.body.uuid;
    expect(uuid).toMatch(/^Item\./);
    const updated = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid, data: { name: 'Rope of Entanglement' } },
    });
    expect(updated.status).toBe(200);
    expect((await harness.get('/get', { uuid })).body.data.name).toBe('Rope of Entanglement');
    const deleted = await harness.del('/delete', undefined, { uuid });
    expect(deleted.body).toMatchObject({ type: 'delete-result', uuid, success: true });
    expect((await harness.get('/get', { uuid })).status).toBe(400);
  });

  it('POST /create needs entityType and data as an object', async () => {
    expect((await harness.post('/create', { data: { name: 'x' } })).body).toEqual({
      error: "'entityType' is required",
    });
    expect((await harness.post('/create', { entityType: 'Item', data: 'x' })).body).toEqual({
      error: "'data' must be a JSON object",
    });
  });

  it('POST /decrease and /increase change a numeric attribute, and /kill drops hit points to 0', async () => {
    const attribute = 'system.attributes.hp.value';
    const down = await harness.post('/decrease', { uuid: goblin, attribute, amount: 3 });
    expect(down.status).toBe(200);
    expect(down.body.results[0]).toMatchObject({ uuid: goblin, attribute, oldValue: 7, newValue: 4 });
    const up = await harness.post('/increase', { uuid: goblin, attribute, amount: 1 });
    expect(up.body.results[0].newValue).toBe(5);
    expect((await harness.post('/decrease', { uuid: goblin, attribute })).body).toEqual({
      error: "'amount' is required",
    });
    const killed = await harness.post('/kill', { uuid: goblin });
    expect(killed.status).toBe(200);
    expect((await harness.get('/get', { uuid: goblin })).body.data.system.attributes.hp.value).toBe(0);
  });

  it('POST /give and /remove move items between actors', async () => {
    const lyra = await uuidOf(harness, 'Lyra Moonwhisper');
    const given = await harness.post('/give', { fromUuid: thorin, toUuid: lyra, itemName: 'Battleaxe' });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({ type: 'give-result', success: true });
    const removed = await harness.post('/remove', { actorUuid: lyra, itemName: 'Battleaxe' });
    expect(removed.body).toMatchObject({ type: 'remove-result', success: true });
    expect((await harness.post('/give', { fromUuid: thorin, toUuid: lyra })).body).toEqual({
      error: "Either 'itemUuid' or 'itemName' is required",
    });
  });

  it("sends the key's scopes to the world with entity writes only, where the module guards macros with them", async () => {
    const [read, write] = await requestsSeenDuring(harness, async () => {
      await harness.get('/get', { uuid: goblin });
      await harness.post('/create', { entityType: 'Item', data: { name: 'Pebble', type: 'loot' } });
    });
    expect(read!._scopes).toBeUndefined();
    expect(write!._scopes).toContain('entity:write');
  });

  it('a key bound to a player may change their own character but not a monster', async () => {
    const alice = await harness.keyWith(['entity:write', 'entity:read'], { userId: 'Alice' });
    const own = await harness.api(alice, 'POST', '/increase', {
      body: { uuid: thorin, attribute: 'system.attributes.hp.value', amount: 1 },
    });
    expect(own.status).toBe(200);
    const monster = await harness.api(alice, 'POST', '/kill', { body: { uuid: goblin } });
    expect(monster.status).toBe(400);
    expect(JSON.stringify(monster.body)).toMatch(/permission/);
  });
});
