// What `serve` and `demo` say when they cannot start: a data directory that cannot be used (a file in its place, no
// permission, a read-only file system) and a taken port end in one line that says what to do and exit code 1, never a
// stack trace; a demo that fails to start removes its temporary folder. Real processes, real loopback, real file systems.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './harness/cli.ts';
import { mountTinyDisk } from './security/tiny-disk.ts';

const CLI = await compiledCli();
/** An account without rights to the test's folders, for the permission case when the tests run as root. */
const NOBODY = 65534;

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'tabletop-relay-cli-data-dir-'));
  chmodSync(scratch, 0o755);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; uid?: number } = {}): Promise<Outcome> {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    uid: options.uid,
    gid: options.uid,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

function expectOneLine(outcome: Outcome, ...parts: string[]): void {
  expect(outcome.code).toBe(1);
  expect(outcome.stdout).toBe('');
  expect(outcome.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(outcome.stderr).not.toMatch(/^\s+at /m);
  for (const part of parts) expect(outcome.stderr).toContain(part);
}

describe('serve with a data directory it cannot use', () => {
  it('a file where the folder should be: says so, names it, exit 1', async () => {
    const file = join(scratch, 'not-a-folder');
    writeFileSync(file, 'notes');
    const outcome = await runCli(['serve', '--port', '0', '--data-dir', file]);
    expectOneLine(
      outcome,
      `The data directory ${file} is a file`,
      'move that file away, or give another folder with --data-dir',
    );
  });

  it('a folder inside a file: the same line for the folder asked for', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const outcome = await runCli(['serve', '--port', '0', '--data-dir', join(file, 'relay')]);
    expectOneLine(outcome, `The data directory ${join(file, 'relay')} is a file, or lies inside one`);
  });

  it('a folder it may not write: no permission, names it, exit 1', async () => {
    const locked = join(scratch, 'locked');
    mkdirSync(locked, { mode: 0o700 });
    const asRoot = process.getuid?.() === 0;
    // Root ignores file modes, so the relay runs as an account that does not own the folder.
    if (!asRoot) chmodSync(locked, 0o500);
    else chownSync(locked, 0, 0);
    const outcome = await runCli(['serve', '--port', '0', '--data-dir', locked], asRoot ? { uid: NOBODY } : {});
    expectOneLine(
      outcome,
      `Tabletop Relay has no permission to write in the data directory ${locked}`,
      'give another folder with --data-dir',
    );
  });

  it('a folder on a read-only file system: says so, names it, exit 1', async (context) => {
    const disk = mountTinyDisk(256);
    if ('reason' in disk) return context.skip(disk.reason);
    try {
      mkdirSync(join(disk.dir, 'relay'));
      disk.readOnly();
      for (const dir of [join(disk.dir, 'relay'), join(disk.dir, 'new-folder')]) {
        const outcome = await runCli(['serve', '--port', '0', '--data-dir', dir]);
        expectOneLine(outcome, `The data directory ${dir} is on a read-only file system`, 'on a writable disk');
      }
    } finally {
      disk.unmount();
    }
  });
});

describe('a taken port', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  let demoTmp: string;
  afterEach(() => rmSync(demoTmp, { recursive: true, force: true }));

  it('stops demo with one line and leaves no temporary folder behind', async () => {
    demoTmp = mkdtempSync(join(scratch, 'tmp-'));
    const outcome = await runCli(['demo', '--port', String(port)], { env: { ...process.env, TMPDIR: demoTmp } });
    expectOneLine(outcome, `Port ${port} is already in use`);
    expect(readdirSync(demoTmp)).toEqual([]);
  });

  it('stops serve with one line, exit 1', async () => {
    demoTmp = mkdtempSync(join(scratch, 'serve-'));
    const outcome = await runCli(['serve', '--port', String(port), '--data-dir', join(demoTmp, 'data')]);
    expectOneLine(outcome, `Port ${port} is already in use`, 'Pick another with --port');
  });
});
