// The `npx tabletop-relay` commands that stand in for the README's terminal recipes on Windows, run as real processes
// against a relay with the sandbox world: what each prints is what a script keeps, and what it cannot do it says in one
// line with exit code 1. test/readme-windows.test.ts runs the README's own Windows forms in order.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyPreset } from '../contracts/scopes.ts';
import { compiledCli } from './harness/cli.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from './harness/world.ts';

const run = promisify(execFile);
const CLI = await compiledCli();

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function helper(...args: string[]): Promise<Outcome> {
  const where = ['--data-dir', harness.dataDir, '--port', String(harness.relay.port)];
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, ...where]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function keyRecord(name: string): Promise<{ scopes: string[]; userId?: string; worldIds?: string[] }> {
  return (await harness.admin('GET', '/admin/keys')).body.keys.find((key: { name: string }) => key.name === name);
}

describe('npx tabletop-relay, for scripts in any shell', () => {
  it('admin-token prints the admin token alone', async () => {
    expect(await helper('admin-token')).toEqual({ code: 0, stdout: `${harness.relay.adminToken}\n`, stderr: '' });
  });

  it("key create makes a key with a preset's scopes, bound to a player named and a world, and prints the key alone", async () => {
    const made = await helper(
      'key',
      'create',
      '--name',
      'Discord bot',
      '--preset',
      'bot',
      '--user',
      'Alice',
      '--world',
      harness.clientId,
    );
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(made.stdout).toBe(`${key}\n`);
    expect(key).toMatch(/^ttr_/);
    const record = await keyRecord('Discord bot');
    expect([...record.scopes].sort()).toEqual([...keyPreset('bot').scopes].sort());
    const players = (await harness.admin('GET', '/admin/status')).body.worlds[0].players;
    expect(record.userId).toBe(players.find((player: { name: string }) => player.name === 'Alice').id);
    expect(record.worldIds).toEqual([harness.clientId]);
    expect((await harness.api(key, 'GET', '/world-info')).status).toBe(200);
  });

  it('key create says what it needs, and which presets there are', async () => {
    expect(await helper('key', 'create', '--name', 'x', '--preset', 'nonsense')).toEqual({
      code: 1,
      stdout: '',
      stderr: "No preset 'nonsense': use stream-deck, obs-page, player, bot, read-only, everything\n",
    });
    expect((await helper('key', 'create', '--preset', 'bot')).stderr).toBe(
      'key create needs --name: what the key is for, as the settings list it.\n',
    );
  });

  it('call sends the fields as a form, as a Stream Deck plugin does, and prints the answer', async () => {
    const key = await harness.keyWith(['roll:execute']);
    const rolled = await helper('call', 'POST', '/roll', 'formula=1d20+5', 'createChatMessage=true', '--key', key);
    expect(rolled.code, rolled.stderr).toBe(0);
    const { data } = JSON.parse(rolled.stdout) as { data: { roll: { formula: string; total: number } } };
    expect(data.roll.formula).toBe('1d20+5');
    expect(data.roll.total).toBeGreaterThanOrEqual(6);
    expect(data.roll.total).toBeLessThanOrEqual(25);
    expect(await helper('call', 'GET', '/clients', '--key', key)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'HTTP 403: API key lacks required scope: clients:read\n',
    });
  });

  it('call --out writes a byte answer to a file; --admin sends JSON with the admin token', async () => {
    const key = await harness.keyWith(['sheet:read']);
    const file = join(harness.dataDir, 'sheet.png');
    const uuid = await uuidOf(harness, 'Thorin Ironfoot');
    const saved = await helper('call', 'GET', '/sheet', `uuid=${uuid}`, '--key', key, '--out', file);
    expect(saved.code, saved.stderr).toBe(0);
    expect(readFileSync(file).subarray(1, 4).toString('latin1')).toBe('PNG');
    rmSync(file);
    const changed = await helper('call', 'PATCH', '/admin/settings', 'requestsPerMinute=240', '--admin');
    expect(changed.code, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ requestsPerMinute: 240 });
  });

  it('approve without a code says when no request waits', async () => {
    expect(await helper('approve')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'No pair request is waiting: press Pair in the Foundry module first.\n',
    });
    expect((await helper('pair-requests')).stdout).toBe('No pair request is waiting.\n');
  });
});
