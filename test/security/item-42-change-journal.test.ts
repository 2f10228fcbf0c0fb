// Item 42: the change journal holds world data as the GM sees it (whole documents before a delete, every field an update
// changed), undoes as the GM, answers dry runs, and holds the changes of keys that ask before changes. Who may read it,
// who may undo, what a dry run may show, and how a held change can be neither forged nor bypassed, attacked over real
// sockets against the sandbox world.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationView } from '../../contracts/admin-api.ts';
import { MOST_HELD_PER_KEY } from '../../relay/journal/confirmations.ts';
import { TOOL_SCOPES } from '../harness/relay.ts';
import { userIdsByName } from '../harness/chat-rolls.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { latestOf } from '../harness/journal.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let goblin: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { requestsPerMinute: 0 } } });
  goblin = await uuidOf(harness, 'Goblin');
});
afterAll(() => harness.close());

const goblinName = () => harness.world.game.fromUuid(goblin)!.name;
const rename = (key: string, name: string, headers?: Record<string, string>) =>
  harness.api(key, 'PUT', '/update', { body: { uuid: goblin, data: { name } }, headers });

async function keyThatAsks(name: string): Promise<{ id: string; key: string }> {
  const made = await harness.admin('POST', '/admin/keys', { name, scopes: TOOL_SCOPES, askBeforeChanges: true });
  return { id: made.body.id, key: made.body.key };
}

async function heldOf(keyName: string, count = 1): Promise<ConfirmationView[]> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const { confirmations } = (await harness.admin('GET', '/admin/confirmations')).body as {
      confirmations: ConfirmationView[];
    };
    const held = confirmations.filter((confirmation) => confirmation.keyName === keyName);
    if (held.length >= count) return held;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${keyName} has no ${count} changes held`);
}

describe('item 42: who may read the journal and undo', () => {
  it("a tool's key, whatever its scopes, can neither read the journal nor undo a change: only the GM", async () => {
    await rename(harness.key, 'Goblin Scout');
    const change = await latestOf(harness, 'PUT', '/update');
    for (const [method, path] of [
      ['GET', '/admin/changes'],
      ['GET', `/admin/changes/${change.id}`],
      ['POST', `/admin/changes/${change.id}/undo`],
      ['GET', '/admin/confirmations'],
    ] as const) {
      const asTool = await harness.api(harness.key, method, path, method === 'POST' ? { body: {} } : {});
      expect(asTool.status, `${method} ${path}`).toBe(401);
      expect(JSON.stringify(asTool.body)).not.toContain('Goblin');
    }
    expect(goblinName()).toBe('Goblin Scout');
  });

  it('the journal on disk is readable by the account that runs the relay only', async () => {
    const folder = join(harness.dataDir, 'changes');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(statSync(join(folder, file)).mode & 0o777, file).toBe(0o600);
  });

  it('passwords asked of the user routes are never kept, neither on disk nor in the admin API', async () => {
    const secret = 'correct horse battery staple';
    expect((await harness.post('/user', { name: 'Erin', role: 1, password: secret })).status).toBe(200);
    const erin = userIdsByName(harness).Erin!;
    const changed = await harness.api(harness.key, 'PUT', '/user', {
      body: { id: erin, data: { password: secret, color: '#123456' } },
    });
    expect(changed.status).toBe(200);
    const created = await latestOf(harness, 'POST', '/user');
    const updated = await latestOf(harness, 'PUT', '/user');
    expect(created.asked).toMatchObject({ name: 'Erin', password: '(not kept)' });
    expect(updated.asked).toMatchObject({ data: { password: '(not kept)' } });
    expect(JSON.stringify((await harness.admin('GET', '/admin/changes')).body)).not.toContain(secret);
    const folder = join(harness.dataDir, 'changes');
    for (const file of readdirSync(folder))
      expect(readFileSync(join(folder, file), 'utf8'), file).not.toContain(secret);
  });
});

describe('item 42: dry runs', () => {
  it("a player's dry run reads the world as that player: it never shows a document the player may not see", async () => {
    const bob = await harness.keyWith(['entity:read', 'entity:write'], {
      userId: userIdsByName(harness).Bob,
      worldIds: [harness.clientId],
    });
    const tried = await harness.api(bob, 'DELETE', '/delete', {
      body: { uuid: goblin },
      headers: { 'x-dry-run': '1' },
    });
    expect(tried.status).toBe(400);
    expect(JSON.stringify(tried.body)).not.toContain('hp');
    expect(tried.body.changes).toBeUndefined();
    expect(harness.world.game.fromUuid(goblin)).not.toBeNull();
  });

  it('a dry run the relay cannot read as yes or no is refused, never taken for the real call', async () => {
    const before = goblinName();
    for (const value of ['yes', 'on', '2', 'TRUE ']) {
      const answer = await rename(harness.key, 'Goblin Boss', { 'x-dry-run': value });
      expect(answer.status, value).toBe(400);
      expect(answer.body.error).toMatch(/X-Dry-Run/);
    }
    const socket = await ApiSocket.open(harness.wsUrl, harness.key);
    try {
      socket.send({
        type: 'update',
        requestId: 'misspelt',
        uuid: goblin,
        data: { name: 'Goblin Boss' },
        dryRun: 'yes',
      });
      expect(await socket.next((message) => message.requestId === 'misspelt')).toMatchObject({
        error: expect.stringMatching(/dryRun/),
      });
    } finally {
      socket.close();
    }
    expect(goblinName()).toBe(before);
  });
});

describe('item 42: changes held for the GM', () => {
  it('a key in a loop cannot bury the Status page: past its held changes, the next is refused at once', async () => {
    const looping = await keyThatAsks('Looping bot');
    const calls = Array.from({ length: MOST_HELD_PER_KEY }, (_, index) => rename(looping.key, `Goblin ${index}`));
    const held = await heldOf('Looping bot', MOST_HELD_PER_KEY);
    const refused = await rename(looping.key, 'Goblin too many');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/already wait for the GM's approval/);
    expect(await heldOf('Looping bot')).toHaveLength(MOST_HELD_PER_KEY);
    for (const confirmation of held) await harness.admin('POST', `/admin/confirmations/${confirmation.code}/deny`, {});
    expect((await Promise.all(calls)).map((answer) => answer.status)).toEqual(calls.map(() => 403));
  });

  it("a revoked key's held change is refused at once, and no later approval can make it", async () => {
    const leaked = await keyThatAsks('Leaked assistant');
    const before = goblinName();
    const call = rename(leaked.key, 'Goblin Pawn');
    const [held] = await heldOf('Leaked assistant');
    expect((await harness.admin('DELETE', `/admin/keys/${leaked.id}`)).status).toBe(200);
    const answer = await call;
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatch(/^API key revoked; this change waited for the GM and nothing was changed/);
    expect((await harness.admin('POST', `/admin/confirmations/${held!.code}/approve`, {})).status).toBe(409);
    expect(goblinName()).toBe(before);
  });

  it('a key that asks has every writing route held, rolls too, with why it could not be undone', async () => {
    const careful = await keyThatAsks('Careful dice');
    const roll = harness.api(careful.key, 'POST', '/roll', { body: { formula: '1d20' } });
    const [held] = await heldOf('Careful dice');
    expect(held).toMatchObject({ path: '/roll', notUndoable: expect.stringMatching(/roll/) });
    await harness.admin('POST', `/admin/confirmations/${held!.code}/deny`, {});
    expect((await roll).status).toBe(403);
  });
});
