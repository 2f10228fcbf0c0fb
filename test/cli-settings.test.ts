// `tabletop-relay settings` (npm run settings): a new one-time link from the running relay, opened in the default
// browser where one can be seen, printed only under CI or without a display, and never a failure because of the browser.
// The browser opener is a stand-in `xdg-open` first on the PATH that records the URL it was given.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './harness/cli.ts';
import { startTestRelay, type TestRelay } from './harness/relay.ts';

const run = promisify(execFile);
const CLI = await compiledCli();
const LINK =
  /Settings \(one-time link, valid for two minutes\): (http:\/\/127\.0\.0\.1:\d+\/admin\/login\?code=[0-9a-f]+)\n/;

let relay: TestRelay;
let bin: string;
let opened: string;

beforeAll(async () => {
  relay = await startTestRelay();
  bin = mkdtempSync(join(tmpdir(), 'tabletop-relay-opener-'));
  opened = join(bin, 'opened.txt');
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
});

afterAll(async () => {
  await relay.close();
  rmSync(bin, { recursive: true, force: true });
});

function settings(env: NodeJS.ProcessEnv, command = 'settings') {
  rmSync(opened, { force: true });
  const { CI: _ci, DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...rest } = process.env;
  // Not spawnSync: the relay answering the CLI runs in this process.
  return run(process.execPath, [CLI, command, '--data-dir', relay.dataDir, '--port', String(relay.relay.port)], {
    env: { ...rest, PATH: `${bin}:${process.env.PATH}`, ...env },
  });
}

describe('tabletop-relay settings', () => {
  it.runIf(process.platform === 'linux')(
    'prints a new link and opens that link in the default browser of a desktop session',
    async () => {
      const result = await settings({ DISPLAY: ':0' });
      const link = LINK.exec(result.stdout)![1]!;
      expect(result.stdout).toContain('Opening it in your default browser.');
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : '')).toBe(link);
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    },
  );

  it('only prints the link under CI, and where no display can show a browser', async () => {
    for (const env of [{ CI: 'true', DISPLAY: ':0' }, {}]) {
      const result = await settings(env);
      expect(result.stdout).toMatch(LINK);
      expect(result.stdout).not.toContain('Opening');
    }
  });

  it('still prints the link, and succeeds, when no browser opener is installed', async () => {
    const result = await settings({ DISPLAY: ':0', PATH: join(process.execPath, '..') });
    expect(result.stdout).toMatch(LINK);
    expect(result.stdout).not.toContain('Opening');
  });

  it('login-link is the same command', async () => {
    const result = await settings({ CI: 'true' }, 'login-link');
    expect((await fetch(LINK.exec(result.stdout)![1]!, { redirect: 'manual' })).status).toBe(303);
  });
});

describe('serve, then settings', () => {
  it('serve prints a sign-in link at start, and settings gives a new one from that running relay', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-serve-'));
    const serve = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      serve.stdout.on('data', (chunk) => (output += chunk));
      await expect.poll(() => output, { timeout: 15_000 }).toContain('Press Ctrl+C');
      const port = /running at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]!;
      expect(output).toContain(`Worlds connect to ws://127.0.0.1:${port}/relay`);
      const atStart = /Settings \(one-time link\): (\S+)/.exec(output)![1]!;
      expect((await fetch(atStart, { redirect: 'manual' })).status).toBe(303);
      const fresh = await run(process.execPath, [CLI, 'settings', '--data-dir', dataDir, '--port', port], {
        env: { ...process.env, CI: 'true' },
      });
      const link = LINK.exec(fresh.stdout)![1]!;
      expect(link).not.toBe(atStart);
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    } finally {
      const exited = new Promise((resolve) => serve.once('exit', resolve));
      serve.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
