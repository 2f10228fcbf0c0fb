// examples/key-request.mjs run as a reader would run it (plain Node, no dependencies) against a relay with the sandbox
// world: it asks for a key, the GM approves or denies through the admin API, and the script uses the key it received.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

const SCRIPT = join(import.meta.dirname, '..', '..', 'examples', 'key-request.mjs');

interface ScriptRun {
  output(): string;
  /** The code the script shows its user, once it printed it. */
  code(): Promise<string>;
  exit: Promise<number | null>;
}

function runScript(baseUrl: string, ...args: string[]): ScriptRun {
  const child = spawn(process.execPath, [SCRIPT, '--relay', baseUrl, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    output: () => output,
    code: async () => {
      await expect.poll(() => /Your code: (\S+)/.exec(output)?.[1], { timeout: 10_000 }).toBeDefined();
      return /Your code: (\S+)/.exec(output)![1]!;
    },
    exit,
  };
}

let harness: WorldHarness;
let folder: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 200 } });
  folder = mkdtempSync(join(tmpdir(), 'key-request-example-'));
});
afterAll(async () => {
  await harness.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('examples/key-request.mjs', () => {
  it('shows the code, waits for the approval, then rolls with the key it received', async () => {
    const saved = join(folder, 'stream-deck.key');
    const run = runScript(harness.baseUrl, '--save', saved);
    const code = await run.code();
    expect(run.output()).toContain(`${harness.baseUrl}/admin/#keys`);
    const waiting = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
    expect(waiting).toEqual([
      expect.objectContaining({
        code,
        appName: 'Stream Deck',
        scopes: ['roll:execute', 'playlist:control', 'encounter:manage', 'macro:execute', 'effects:write'],
      }),
    ]);
    const rollsBefore = (await harness.get('/rolls')).body.data.length as number;
    expect((await harness.admin('POST', `/admin/key-requests/${code}/approve`, {})).status).toBe(200);
    expect(await run.exit).toBe(0);
    expect(run.output()).toMatch(/Rolled 1d20 with the new key: \d+/);
    const key = /Your API key .*: (ttr_\S+)/.exec(run.output())![1]!;
    expect(readFileSync(saved, 'utf8').trim()).toBe(key);
    expect(statSync(saved).mode & 0o777).toBe(0o600);
    const rolls = (await harness.get('/rolls')).body.data;
    expect(rolls).toHaveLength(rollsBefore + 1);
    expect(rolls[0]).toMatchObject({ flavor: 'Stream Deck is connected' });
    expect((await harness.api(key, 'POST', '/next-turn', { body: {} })).status).not.toBe(403);
  });

  it('stores nothing on disk unless asked, and says so when the GM denies the request', async () => {
    const run = runScript(harness.baseUrl, '--name', 'Unknown tool', '--scopes', 'chat:write');
    const code = await run.code();
    await harness.admin('POST', `/admin/key-requests/${code}/deny`);
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain('The GM denied the request.');
    expect(run.output()).not.toContain('ttr_');
  });
});
