import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_FOUNDRY_14, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const USER_KEYS = ['active', 'avatar', 'color', 'id', 'isGM', 'name', 'role'];

describe('Utility', () => {
  it('POST /select selects tokens by name and answers with top-level success, count, message, selected', async () => {
    const answer = await harness.post('/select', { name: 'goblin', overwrite: true });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['count', 'message', 'requestId', 'selected', 'success', 'type']);
    expect(answer.body).toMatchObject({
      type: 'select-result',
      success: true,
      count: 2,
      message: '2 entities selected',
    });
    for (const uuid of answer.body.selected) expect(uuid).toMatch(/^Scene\.\w{16}\.Token\.\w{16}$/);
  });

  it('POST /select never sends an empty data object, which would select every token', async () => {
    const answer = await harness.post('/select', { name: 'Thorin Ironfoot', overwrite: true, data: {} });
    expect(answer.body.count).toBe(1);
  });

  it('POST /select with all selects every token of the active scene', async () => {
    const answer = await harness.post('/select', { all: true, overwrite: true });
    expect(answer.body.count).toBe(7);
  });

  it('POST /select by uuids and by data', async () => {
    const all = await harness.post('/select', { all: true, overwrite: true });
    const byUuid = await harness.post('/select', { uuids: all.body.selected.slice(0, 2), overwrite: true });
    expect(byUuid.body.selected).toEqual(all.body.selected.slice(0, 2));
    const byData = await harness.post('/select', { data: { hidden: true }, overwrite: true });
    // Module 3.4.1 matches by data with the global getProperty, which Foundry 14 removed.
    if (ON_FOUNDRY_14) {
      expect(byData.status).toBe(400);
      expect(byData.body.error).toMatch(
        /select them by uuids or name instead \(the world answered: getProperty is not defined\)$/,
      );
    } else expect(byData.body.count).toBe(1);
  });

  it('GET /selected lists {tokenUuid, actorUuid} of the selection', async () => {
    await harness.post('/select', { name: 'Pip Thistledown', overwrite: true });
    const answer = await harness.get('/selected');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['requestId', 'selected', 'success', 'type']);
    expect(answer.body.type).toBe('selected-result');
    expect(answer.body.selected).toHaveLength(1);
    expect(Object.keys(answer.body.selected[0]).sort()).toEqual(['actorUuid', 'tokenUuid']);
    expect(answer.body.selected[0].actorUuid).toMatch(/^Actor\./);
  });

  it('GET /players lists the users with their seven fields', async () => {
    const answer = await harness.get('/players');
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['requestId', 'type', 'users']);
    expect(answer.body.type).toBe('players-result');
    for (const user of answer.body.users) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    const gm = answer.body.users.find((user: { name: string }) => user.name === 'Gamemaster');
    expect(gm).toMatchObject({ role: 4, isGM: true, active: true });
    expect(gm.color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('GET /players for a player lists nobody', async () => {
    const answer = await harness.get('/players', { userId: 'Alice' });
    expect(answer.body.users).toEqual([]);
  });

  it('GET /world-info describes world, system, versions, modules, users and active scene', async () => {
    const answer = await harness.get('/world-info');
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('world-info-result');
    const { data } = answer.body;
    expect(Object.keys(data).sort()).toEqual(['activeScene', 'foundryVersion', 'modules', 'system', 'users', 'world']);
    expect(Object.keys(data.world).sort()).toEqual(['id', 'title']);
    expect(Object.keys(data.system).sort()).toEqual(['id', 'title', 'version']);
    expect(typeof data.foundryVersion).toBe('string');
    for (const module of data.modules) expect(Object.keys(module)).toHaveLength(4);
    for (const user of data.users) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(data.activeScene).toMatchObject({ name: 'Keep Courtyard' });
  });

  it('POST /execute-js is refused by a world that does not allow it', async () => {
    const answer = await harness.post('/execute-js', { script: 'return 1 + 1' });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('execute-js-result');
    expect(answer.body.success).toBe(false);
    expect(answer.body.error).toMatch(/execute-js is disabled/);
    expect((await harness.post('/execute-js', {})).body).toEqual({ error: "'script' is required" });
  });

  it('GET /clients lists the connected world with its metadata', async () => {
    const answer = await harness.get('/clients');
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(1);
    expect(answer.body.clients[0]).toMatchObject({
      clientId: harness.clientId,
      isOnline: true,
      worldId: harness.world.metadata.worldId,
      worldTitle: harness.world.metadata.worldTitle,
      systemId: harness.world.metadata.systemId,
      foundryVersion: harness.world.metadata.foundryVersion,
    });
    expect(answer.body.clients[0].connectedSince).toBeGreaterThan(0);
    expect(answer.body.clients[0].lastSeen).toBeGreaterThanOrEqual(answer.body.clients[0].connectedSince);
  });
});
