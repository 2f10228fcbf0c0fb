// The release workflow's package smoke test (scripts/release/smoke-package.ts), run here on an unpacked folder laid out
// as electron-builder's, whose executable starts the compiled app on the Electron stand-in: the script must pass a
// package that boots and quits, and fail one that does not.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateApp, ROOT } from './boot-support.ts';

const run = promisify(execFile);
const SMOKE = join(ROOT, 'scripts', 'release', 'smoke-package.ts');
const LAUNCH = join(import.meta.dirname, 'electron-stand-in', 'launch.ts');

let appFolder: string;
let release: string;

/** A release folder with linux-unpacked/tabletop-relay running `command`. */
function releaseWith(command: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'tabletop-relay-release-'));
  const executable = join(folder, 'linux-unpacked', 'tabletop-relay');
  mkdirSync(join(folder, 'linux-unpacked'));
  writeFileSync(executable, `#!/bin/sh\n${command}\n`);
  chmodSync(executable, 0o755);
  return folder;
}

beforeAll(async () => {
  appFolder = await buildPrivateApp();
  release = releaseWith(`exec "${process.execPath}" "${LAUNCH}" "${appFolder}" "$@"`);
}, 60_000);

afterAll(() => {
  for (const folder of [appFolder, release]) if (folder) rmSync(folder, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('the release smoke test of an unpacked package', () => {
  it('passes a package that starts, answers, creates its tray and quits with 0 when started with --quit', async () => {
    const { stdout } = await run(process.execPath, [SMOKE, release], { timeout: 90_000 });
    expect(stdout).toMatch(/tabletop-relay: relay at http:\/\/127\.0\.0\.1:\d+ answered, tray created, quit with 0/);
  }, 120_000);

  it('fails a package that exits at once', async () => {
    const broken = releaseWith('exit 3');
    try {
      await expect(run(process.execPath, [SMOKE, broken], { timeout: 90_000 })).rejects.toMatchObject({
        stderr: expect.stringContaining('the app exited with 3'),
      });
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  }, 120_000);
});
