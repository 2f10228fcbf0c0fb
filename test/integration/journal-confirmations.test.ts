import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationView } from '../../contracts/admin-api.ts';
import { TOOL_SCOPES } from '../harness/relay.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { latestOf } from '../harness/journal.ts';
import { ApiSocket } from '../harness/caller-api.ts';

// "Ask before changes": a key so marked (an AI assistant's, say) has each write held on a card of the Status page until
// the GM approves it (the call goes on), denies it (403) or lets the time run out (408).

const TIMEOUT_SECONDS = 2;

let harness: WorldHarness;
let goblin: string;
let careful: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { confirmationTimeoutSeconds: TIMEOUT_SECONDS } } });
  goblin = await uuidOf(harness, 'Goblin');
  const made = await harness.admin('POST', '/admin/keys', {
    name: 'Assistant',
    scopes: TOOL_SCOPES,
    askBeforeChanges: true,
  });
  expect(made.body).toMatchObject({ askBeforeChanges: true });
  careful = made.body.key;
});
afterAll(() => harness.close());

const goblinName = () => harness.world.game.fromUuid(goblin)!.name;
const rename = (name: string) => harness.api(careful, 'PUT', '/update', { body: { uuid: goblin, data: { name } } });

/** The change that waits for the GM, as the Status page lists it. */
async function heldChange(): Promise<ConfirmationView> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { confirmations } = (await harness.admin('GET', '/admin/status')).body as {
      confirmations: ConfirmationView[];
    };
    if (confirmations.length > 0) return confirmations[0]!;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no change is held');
}

describe('Ask before changes', () => {
  it('holds a write on a card that shows what it would change, and makes it once the GM approves', async () => {
    const call = rename('Goblin Chief');
    const held = await heldChange();
    expect(held).toMatchObject({
      status: 'pending',
      keyName: 'Assistant',
      method: 'PUT',
      path: '/update',
      clientId: harness.clientId,
      asked: { uuid: goblin, data: { name: 'Goblin Chief' } },
      changes: [{ uuid: goblin, kind: 'changed', fields: [{ path: 'name', before: 'Goblin', after: 'Goblin Chief' }] }],
    });
    expect(held.code).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{3}$/);
    expect(goblinName()).toBe('Goblin');
    const approved = await harness.admin('POST', `/admin/confirmations/${held.code}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'approved' });
    expect((await call).status).toBe(200);
    expect(goblinName()).toBe('Goblin Chief');
    expect(await latestOf(harness, 'PUT', '/update')).toMatchObject({ by: { name: 'Assistant' }, state: 'done' });
    expect((await harness.admin('GET', '/admin/confirmations')).body.confirmations).toEqual([]);
  });

  it('a denied change is a 403 that says so, and nothing is changed', async () => {
    const before = goblinName();
    const call = rename('Goblin Warlord');
    const held = await heldChange();
    await harness.admin('POST', `/admin/confirmations/${held.code.toLowerCase().replace('-', '')}/deny`, {});
    const answer = await call;
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe(`The GM denied this change (${held.code}) in the settings of Tabletop Relay`);
    expect(goblinName()).toBe(before);
    const again = await harness.admin('POST', `/admin/confirmations/${held.code}/approve`, {});
    expect(again.status).toBe(409);
  });

  it('a change nobody decides on is a 408 once the time is up, and nothing is changed', async () => {
    const before = goblinName();
    const started = Date.now();
    const answer = await rename('Goblin Sleeper');
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 50);
    expect(answer.status).toBe(408);
    expect(answer.body.error).toMatch(
      /^The GM did not approve this change \([A-Z0-9-]{7}\) within 2 s: ask them to watch for it in the settings/,
    );
    expect(goblinName()).toBe(before);
  });

  it('holds a write over /ws/api alike, and a dry run is answered at once', async () => {
    const socket = await ApiSocket.open(harness.wsUrl, careful);
    try {
      socket.send({ type: 'update', requestId: 'try', uuid: goblin, data: { name: 'Goblin Scout' }, dryRun: true });
      expect(await socket.next((message) => message.requestId === 'try')).toMatchObject({ dryRun: true });
      socket.send({ type: 'update', requestId: 'held', uuid: goblin, data: { name: 'Goblin Scout' } });
      const held = await heldChange();
      expect(socket.received.some((message) => message.requestId === 'held')).toBe(false);
      await harness.admin('POST', `/admin/confirmations/${held.code}/approve`, {});
      expect(await socket.next((message) => message.requestId === 'held')).toMatchObject({ type: 'update-result' });
      expect(goblinName()).toBe('Goblin Scout');
    } finally {
      socket.close();
    }
  });

  it('a key that does not ask is never held, and the setting can be turned off for a key', async () => {
    expect(
      (await harness.api(harness.key, 'PUT', '/update', { body: { uuid: goblin, data: { name: 'Goblin' } } })).status,
    ).toBe(200);
    const { keys } = (await harness.admin('GET', '/admin/keys')).body as { keys: { id: string; name: string }[] };
    const assistant = keys.find((key) => key.name === 'Assistant')!;
    const changed = await harness.admin('PATCH', `/admin/keys/${assistant.id}`, { askBeforeChanges: false });
    expect(changed.body.askBeforeChanges).toBeUndefined();
    expect((await rename('Goblin Free')).status).toBe(200);
    expect(goblinName()).toBe('Goblin Free');
  });
});
