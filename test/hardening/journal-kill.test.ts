import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeView } from '../../contracts/admin-api.ts';
import { ChangeJournal } from '../../relay/journal/change-journal.ts';
import { SANDBOX_CLIENT_ID, startRelayWithWorld, uuidOf } from '../harness/world.ts';

// A relay killed with -9 while tools write keeps its change journal whole: every change a caller was answered for is
// listed after the restart (done, or unknown when it was still being read again), no file is damaged, and an undo puts
// the world back from what was kept.

const RELAY_MODULE = fileURLToPath(new URL('../../relay/relay.ts', import.meta.url));
const SANDBOX_MODULE = fileURLToPath(new URL('../../sandbox/index.ts', import.meta.url));
const ROUNDS = 1;

const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-journal-kill-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A relay with a sandbox world, renaming the Goblin as fast as the world answers, telling each answered rename. */
function writerScript(round: number): string {
  return `import { createRelay } from ${JSON.stringify(RELAY_MODULE)};
import { connectSandbox, createSandboxWorld } from ${JSON.stringify(SANDBOX_MODULE)};
const relay = createRelay({ port: 0, dataDir: ${JSON.stringify(dataDir)}, log: { info() {}, warn() {}, error() {} } });
await relay.start();
const world = createSandboxWorld({ seed: 7, foundryVersion: '13.348' });
const clientId = ${JSON.stringify(SANDBOX_CLIENT_ID)};
const { token } = relay.services.connectionTokens.issue(clientId, 'Sandbox world', 'demo');
await connectSandbox(world, { relayUrl: relay.url.replace(/^http/, 'ws'), clientId, token });
const { key } = relay.services.keys.create({ name: 'writer', scopes: ['entity:write'] });
const goblin = world.game.actors.find((actor) => actor.name === 'Goblin').uuid;
for (let count = 1; ; count += 1) {
  const answer = await fetch(relay.url + '/update', {
    method: 'PUT',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ uuid: goblin, data: { name: 'Goblin ${round}.' + count } }),
  });
  if (answer.status !== 200) throw new Error('the rename was refused: ' + (await answer.text()));
  process.send({ answered: count });
}
`;
}

/** Runs the writer until it was answered a few times, kills it with -9 mid-stride, and says how many it was answered. */
async function writeAndKill(round: number): Promise<number> {
  const script = join(dataDir, `writer-${round}.ts`);
  writeFileSync(script, writerScript(round));
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let answered = 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: { answered: number }) => {
      answered = message.answered;
      if (answered === 10) setTimeout(resolve, 7 * round);
    });
    child.once('exit', (code) => reject(new Error(`the writer ended on its own (${code})`)));
  });
  child.kill('SIGKILL');
  await exited;
  return answered;
}

const nameOf = (change: ChangeView) => (change.asked.data as { name: string }).name;

describe('The change journal and kill -9', () => {
  it('keeps every answered change whole, and an undo after the restart puts the world back', async () => {
    const answered: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) answered.push(await writeAndKill(round));

    const problems: string[] = [];
    const log = {
      info() {},
      warn: (line: string) => problems.push(line),
      error: (line: string) => problems.push(line),
    };
    const changes = new ChangeJournal(join(dataDir, 'changes'), () => ({ maxChanges: 1000, maxDays: 30 }), log).list();
    expect(problems).toEqual([]);
    expect(readdirSync(join(dataDir, 'changes')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const names = new Set(changes.map(nameOf));
    for (const [index, count] of answered.entries())
      for (let rename = 1; rename <= count; rename += 1) expect(names).toContain(`Goblin ${index + 1}.${rename}`);
    expect(changes.every((change) => change.state === 'done' || change.state === 'unknown')).toBe(true);
    expect(changes.every((change) => change.state === 'done' || change.before?.length === 1)).toBe(true);

    const harness = await startRelayWithWorld({ relay: { dataDir } });
    try {
      const goblin = await uuidOf(harness, 'Goblin');
      const newest = (await harness.admin('GET', '/admin/changes')).body.changes[0] as ChangeView;
      expect(newest.id).toBe(changes[0]!.id);
      const undone = await harness.admin('POST', `/admin/changes/${newest.id}/undo`, { force: true });
      expect(undone.status, undone.text).toBe(200);
      const [round, count] = nameOf(newest).slice('Goblin '.length).split('.').map(Number) as [number, number];
      expect(harness.world.game.fromUuid(goblin)!.name).toBe(count === 1 ? 'Goblin' : `Goblin ${round}.${count - 1}`);
    } finally {
      await harness.close();
    }
  }, 30_000);
});
