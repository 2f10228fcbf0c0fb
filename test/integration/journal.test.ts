import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { latestOf, worldState } from '../harness/journal.ts';

let harness: WorldHarness;
let goblin: string;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  goblin = await uuidOf(harness, 'Goblin');
});
afterAll(() => harness.close());

const HP = 'system.attributes.hp.value';

describe('The change journal', () => {
  it('records an update with the fields it changed, and undoes it', async () => {
    const before = worldState(harness);
    const answer = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid: goblin, data: { name: 'Goblin Boss', [HP]: 2 } },
    });
    expect(answer.status).toBe(200);
    const change = await latestOf(harness, 'PUT', '/update');
    expect(change).toMatchObject({
      state: 'done',
      by: { name: 'test key' },
      summary: 'Update a document, or the selected tokens',
    });
    expect(change.changes).toEqual([
      expect.objectContaining({
        uuid: goblin,
        kind: 'changed',
        fields: expect.arrayContaining([
          { path: 'name', before: 'Goblin', after: 'Goblin Boss' },
          { path: HP, before: 7, after: 2 },
        ]),
      }),
    ]);
    const undo = await harness.admin('POST', `/admin/changes/${change.id}/undo`, {});
    expect(undo.status).toBe(200);
    expect(worldState(harness)).toEqual(before);
  });
});
