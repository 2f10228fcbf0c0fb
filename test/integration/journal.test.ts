import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeView, DocumentChangeView } from '../../contracts/admin-api.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { documentState, latestOf, settledChange, worldState } from '../harness/journal.ts';
import { ApiSocket } from '../harness/caller-api.ts';

let harness: WorldHarness;
let goblin: string;
let thorin: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ link: { reconnect: true, reconnectBaseDelayMs: 50 } });
  goblin = await uuidOf(harness, 'Goblin');
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(() => harness.close());

const HP = 'system.attributes.hp.value';
const update = (data: Record<string, unknown>, headers?: Record<string, string>) =>
  harness.api(harness.key, 'PUT', '/update', { body: { uuid: goblin, data }, headers });
const undo = (change: ChangeView, force = false) =>
  harness.admin('POST', `/admin/changes/${change.id}/undo`, force ? { force: true } : {});

/** Waits for the world's link to come back after the relay restarted. */
async function worldBack(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await harness.admin('GET', '/admin/status')).body.worlds.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the world did not come back');
}

/** A change's documents without what Foundry keeps for itself, for comparing a dry run's with the real call's. */
function comparable(changes: DocumentChangeView[]) {
  return changes.map(({ uuid, kind, fields, document }) => ({
    uuid,
    kind,
    fields,
    ids: document && Object.keys(document),
  }));
}

describe('The change journal', () => {
  it('records an update with the fields it changed, and undoes it', async () => {
    const before = worldState(harness);
    const answer = await update({ name: 'Goblin Boss', [HP]: 2 });
    expect(answer.status).toBe(200);
    const change = await latestOf(harness, 'PUT', '/update');
    expect(change).toMatchObject({
      state: 'done',
      by: { name: 'test key' },
      clientId: harness.clientId,
      summary: 'Update a document, or the selected tokens',
      asked: { uuid: goblin, data: { name: 'Goblin Boss', [HP]: 2 } },
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
    expect((await undo(change)).status).toBe(200);
    expect(worldState(harness)).toEqual(before);
  });

  it('a deleted actor comes back with its id, its items and its effects', async () => {
    const original = harness.world.game.fromUuid(thorin)!.toObject();
    expect((await harness.del('/delete', { uuid: thorin })).status).toBe(200);
    expect(harness.world.game.fromUuid(thorin)).toBeNull();
    const change = await latestOf(harness, 'DELETE', '/delete');
    expect(change.changes).toMatchObject([{ uuid: thorin, kind: 'deleted', name: 'Thorin Ironfoot' }]);
    expect((await undo(change)).status).toBe(200);
    const restored = harness.world.game.fromUuid(thorin)!.toObject();
    const ids = (document: Record<string, unknown>, field: string) =>
      (document[field] as { _id: string }[]).map((child) => child._id).sort();
    expect(ids(restored, 'items')).toEqual(ids(original, 'items'));
    expect(ids(restored, 'effects')).toEqual(ids(original, 'effects'));
    expect(documentState(restored)).toEqual(documentState(original));
  });

  it('an undo after a later change is refused with what differs, and forced it puts the change back all the same', async () => {
    await update({ [HP]: 3 });
    const change = await latestOf(harness, 'PUT', '/update');
    await harness.post('/decrease', { uuid: goblin, attribute: HP, amount: 1 });
    const refused = await undo(change);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/changed again since: undo with force/);
    expect(refused.body.differences).toEqual([
      expect.objectContaining({ uuid: goblin, kind: 'changed', fields: [{ path: HP, before: 3, after: 2 }] }),
    ]);
    expect(harness.world.game.fromUuid(goblin)!.source.system).toMatchObject({ attributes: { hp: { value: 2 } } });
    const forced = await undo(change, true);
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ undoes: change.id, by: { name: 'The GM' } });
    expect(harness.world.game.fromUuid(goblin)!.source.system).toMatchObject({ attributes: { hp: { value: 7 } } });
  });

  it('an undo is a change of its own: undoing it makes the change again, and a change is undone once', async () => {
    await update({ name: 'Goblin Chief' });
    const change = await latestOf(harness, 'PUT', '/update');
    const undone = await undo(change);
    expect(harness.world.game.fromUuid(goblin)!.name).toBe('Goblin');
    const again = await undo(change);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/undone already/);
    const redo = await harness.admin('POST', `/admin/changes/${undone.body.id}/undo`, {});
    expect(redo.status).toBe(200);
    expect(harness.world.game.fromUuid(goblin)!.name).toBe('Goblin Chief');
    expect((await harness.admin('GET', `/admin/changes/${change.id}`)).body.undoneBy).toBeUndefined();
    expect((await undo(change)).status).toBe(200);
    expect(harness.world.game.fromUuid(goblin)!.name).toBe('Goblin');
  });

  it('a dry run changes nothing and answers the same changes the real call then makes', async () => {
    const before = worldState(harness);
    const data = { name: 'Goblin Scout', [HP]: 5, 'flags.tabletop.note': 'seen at the gate' };
    const tried = await update(data, { 'x-dry-run': '1' });
    expect(tried.status).toBe(200);
    expect(tried.body).toMatchObject({ dryRun: true, method: 'PUT', path: '/update' });
    expect(worldState(harness)).toEqual(before);
    await update(data);
    const change = await latestOf(harness, 'PUT', '/update');
    expect(comparable(tried.body.changes)).toEqual(comparable(change.changes));
    await undo(change);

    const triedDelete = await harness.api(harness.key, 'DELETE', '/delete', {
      body: { uuid: thorin },
      headers: { 'x-dry-run': 'true' },
    });
    expect(worldState(harness)).toEqual(before);
    expect(harness.world.game.fromUuid(thorin)).not.toBeNull();
    await harness.del('/delete', { uuid: thorin });
    const deleted = await latestOf(harness, 'DELETE', '/delete');
    expect(comparable(triedDelete.body.changes)).toEqual(comparable(deleted.changes));
    await undo(deleted);
  });

  it('a dry run over /ws/api is a field of the message, with the same answer', async () => {
    const socket = await ApiSocket.open(harness.wsUrl, harness.key);
    try {
      const before = worldState(harness);
      socket.send({ type: 'update', requestId: 'try-1', uuid: goblin, data: { [HP]: 1 }, dryRun: true });
      const answer = await socket.next((message) => message.requestId === 'try-1');
      expect(answer).toMatchObject({
        type: 'update-result',
        dryRun: true,
        changes: [{ uuid: goblin, kind: 'changed' }],
      });
      expect(answer.changes[0].fields).toEqual([{ path: HP, before: 7, after: 1 }]);
      expect(worldState(harness)).toEqual(before);
    } finally {
      socket.close();
    }
  });

  it('a dry run of a route only the world can tell about says so, and a misspelt one is refused', async () => {
    const rest = await harness.api(harness.key, 'POST', '/dnd5e/long-rest', {
      body: { actorUuid: thorin },
      headers: { 'x-dry-run': '1' },
    });
    expect(rest.body).toMatchObject({
      dryRun: true,
      changes: null,
      touches: [{ uuid: thorin, name: 'Thorin Ironfoot' }],
    });
    const roll = await harness.api(harness.key, 'POST', '/roll', {
      body: { formula: '1d20' },
      headers: { 'x-dry-run': '1' },
    });
    expect(roll.body).toMatchObject({ dryRun: true, changes: null, notUndoable: expect.stringMatching(/roll/) });
    const misspelt = await update({ name: 'Nobody' }, { 'x-dry-run': 'yes please' });
    expect(misspelt.status).toBe(400);
    expect(harness.world.game.fromUuid(goblin)!.name).toBe('Goblin');
  });

  it('a call that cannot be undone is recorded only where it says so, and its undo is refused with the reason', async () => {
    harness.world.game.settings.allowExecuteJs = true;
    const script = await harness.post('/execute-js', { script: 'return 6 * 7' });
    expect(script.status).toBe(200);
    const recorded = await latestOf(harness, 'POST', '/execute-js');
    expect(recorded).toMatchObject({ asked: { script: 'return 6 * 7' }, notUndoable: expect.stringMatching(/script/) });
    const refused = await undo(recorded);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/cannot be undone: a script may change anything/);
    const count = (await harness.admin('GET', '/admin/changes')).body.changes.length;
    await harness.post('/roll', { formula: '1d6' });
    expect((await harness.admin('GET', '/admin/changes')).body.changes.length).toBe(count);
  });

  it('a call the world refuses leaves no change', async () => {
    const count = (await harness.admin('GET', '/admin/changes')).body.changes.length;
    const refused = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid: 'Actor.nobody0000000000', data: { name: 'x' } },
    });
    expect(refused.status).toBe(400);
    expect((await harness.admin('GET', '/admin/changes')).body.changes.length).toBe(count);
  });

  it('the journal survives a restart: its changes are listed again, and an undo still works', async () => {
    await update({ name: 'Goblin Sentry' });
    const change = await latestOf(harness, 'PUT', '/update');
    const listed = (await harness.admin('GET', '/admin/changes')).body.changes;
    await harness.restart();
    expect((await harness.admin('GET', '/admin/changes')).body.changes).toEqual(listed);
    await worldBack();
    expect((await undo(change)).status).toBe(200);
    expect(harness.world.game.fromUuid(goblin)!.name).toBe('Goblin');
  });

  it('keeps as many changes as the settings say, the oldest going first, and none when switched off', async () => {
    await harness.admin('PATCH', '/admin/settings', { journalMaxChanges: 2 });
    for (const name of ['A', 'B', 'C']) await update({ name: `Goblin ${name}` });
    await settledChange(harness, (change) => (change.asked.data as { name?: string }).name === 'Goblin C');
    const kept = (await harness.admin('GET', '/admin/changes')).body.changes as ChangeView[];
    expect(kept.map((change) => (change.asked.data as { name: string }).name)).toEqual(['Goblin C', 'Goblin B']);
    await harness.admin('PATCH', '/admin/settings', { journalChanges: false, journalMaxChanges: 1000 });
    await update({ name: 'Goblin D' });
    expect((await harness.admin('GET', '/admin/changes')).body.changes).toHaveLength(2);
    await harness.admin('PATCH', '/admin/settings', { journalChanges: true });
  });
});
