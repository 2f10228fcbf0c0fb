// `tabletop-relay settings` (npm run settings): a new one-time link from the running relay, opened in the default
// browser where one can be seen, printed only under CI or without a display, and never a failure because of the browser.
// The browser opener is a stand-in `xdg-open` first on the PATH that records the URL it was given.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from './harness/relay.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'relay', 'cli.ts');
const LINK = /Settings \(one-time link, valid for two minutes\): (http:\/\/127\.0\.0\.1:\d+\/admin\/login\?code=[0-9a-f]+)\n/;

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
  it.runIf(process.platform === 'linux')('prints a new link and opens that link in the default browser of a desktop session', async () => {
    const result = await settings({ DISPLAY: ':0' });
    const link = LINK.exec(result.stdout)![1]!;
    expect(result.stdout).toContain('Opening it in your default browser.');
    await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : '')).toBe(link);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
  });

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
