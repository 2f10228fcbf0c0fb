// One relay per data directory: a second `serve` on the folder another relay uses stops at once, naming the process
// that holds it and how to use another folder, and changes nothing there; the lock is gone with its holder, however it
// ended (kill -9 included), and of two relays started at the same moment exactly one runs. Real processes, real sockets.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './harness/cli.ts';
import { freePort } from './harness/ports.ts';

const CLI = await compiledCli();

interface Serve {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

let scratch: string;
const started: Serve[] = [];
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'tabletop-relay-lock-'));
});
afterEach(async () => {
  for (const serve of started.splice(0)) {
    serve.child.kill('SIGKILL');
    await serve.exited;
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function serve(dataDir: string): Promise<Serve> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = { child, port, output: () => output, exited };
  started.push(running);
  return running;
}

/** Resolves once the relay is running, or with its exit code when it stopped instead. */
async function outcome(running: Serve): Promise<'running' | number | null> {
  const up = (async () => {
    while (!running.output().includes('Press Ctrl+C')) await new Promise((resolve) => setTimeout(resolve, 50));
    return 'running' as const;
  })();
  return Promise.race([up, running.exited]);
}

async function makeKey(running: Serve, dataDir: string, name: string): Promise<void> {
  const { token } = JSON.parse(readFileSync(join(dataDir, 'admin-token'), 'utf8')) as { token: string };
  const answer = await fetch(`http://127.0.0.1:${running.port}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, scopes: ['roll:execute'] }),
  });
  expect(answer.status).toBe(201);
}

function keyNames(dataDir: string): string[] {
  const stored = JSON.parse(readFileSync(join(dataDir, 'api-keys.json'), 'utf8')) as { name: string }[];
  return stored.map((key) => key.name);
}

describe('one relay per data directory', () => {
  it('a second serve on the same folder stops, names the holder and --data-dir, and changes nothing', async () => {
    const dataDir = join(scratch, 'shared');
    const first = await serve(dataDir);
    expect(await outcome(first)).toBe('running');
    await makeKey(first, dataDir, 'Stream Deck');

    const second = await serve(dataDir);
    expect(await outcome(second)).toBe(1);
    expect(second.output()).toBe(
      `Another Tabletop Relay (npm run serve, process ${first.child.pid}, at http://127.0.0.1:${first.port}) already uses the data directory ${dataDir}: two relays on one folder would erase each other's changes. Stop that one first, or give this one another folder with --data-dir.\n`,
    );
    await expect(fetch(`http://127.0.0.1:${second.port}/api/status`)).rejects.toThrow();

    await makeKey(first, dataDir, 'OBS');
    expect(keyNames(dataDir)).toEqual(['Stream Deck', 'OBS']);
    const elsewhere = await serve(join(scratch, 'another'));
    expect(await outcome(elsewhere)).toBe('running');
  });

  it('is free again once its holder was killed with SIGKILL, and the next relay finds everything stored', async () => {
    const dataDir = join(scratch, 'killed');
    const first = await serve(dataDir);
    expect(await outcome(first)).toBe('running');
    await makeKey(first, dataDir, 'Stream Deck');
    first.child.kill('SIGKILL');
    await first.exited;

    const next = await serve(dataDir);
    expect(await outcome(next)).toBe('running');
    await makeKey(next, dataDir, 'OBS');
    expect(keyNames(dataDir)).toEqual(['Stream Deck', 'OBS']);
    const after = await serve(dataDir);
    expect(await outcome(after)).toBe(1);
    expect(after.output()).toContain(`process ${next.child.pid}`);
  });

  it('stopped with Ctrl+C, leaves no lock behind in the folder', async () => {
    const dataDir = join(scratch, 'stopped');
    const first = await serve(dataDir);
    expect(await outcome(first)).toBe('running');
    expect(existsSync(join(dataDir, 'relay.lock'))).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'relay.lock'))).toBe(false);
  });

  it('of two relays started at once on a folder a killed relay left, exactly one runs', async () => {
    const dataDir = join(scratch, 'race');
    const killed = await serve(dataDir);
    expect(await outcome(killed)).toBe('running');
    killed.child.kill('SIGKILL');
    await killed.exited;
    for (let round = 0; round < 3; round += 1) {
      const pair = [await serve(dataDir), await serve(dataDir)];
      const outcomes = await Promise.all(pair.map(outcome));
      expect([...outcomes].sort()).toEqual([1, 'running'].sort());
      const winner = pair[outcomes.indexOf('running')]!;
      winner.child.kill('SIGKILL');
      await winner.exited;
    }
  }, 30_000);
});
