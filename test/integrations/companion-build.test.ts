// `npm run build:companion` makes the package Companion 4.3+ imports: the .tgz holds one folder with the manifest
// Companion reads, valid by module-base's own check, and the bundled entry it names, which starts on its own (no
// node_modules beside it) in the stand-in of Companion.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { InstanceStatus } from '@companion-module/base';
import { validateManifest, type ModuleManifest } from '@companion-module/base/manifest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanionHost } from './companion-host.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const outDir = mkdtempSync(join(tmpdir(), 'companion-build-'));
const unpacked = mkdtempSync(join(tmpdir(), 'companion-package-'));
const source = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const moduleBase = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@companion-module/base/package.json'), 'utf8'),
);

let tgzName: string;
let manifest: ModuleManifest;

beforeAll(async () => {
  const { stdout } = await run(process.execPath, [join(root, 'scripts', 'build-companion.ts'), outDir], { cwd: root });
  tgzName = `tabletop-relay-${source.version}.tgz`;
  expect(stdout).toContain(join(outDir, tgzName));
  await run('tar', ['-xzf', join(outDir, tgzName), '-C', unpacked]);
  manifest = JSON.parse(readFileSync(join(unpacked, 'tabletop-relay', 'companion', 'manifest.json'), 'utf8'));
}, 60_000);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(unpacked, { recursive: true, force: true });
});

describe('npm run build:companion', () => {
  it('packs one folder named after the module, with the manifest, the help, the entry and a package.json', async () => {
    const { stdout } = await run('tar', ['-tzf', join(outDir, tgzName)]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([
      'tabletop-relay/',
      'tabletop-relay/companion/',
      'tabletop-relay/companion/HELP.md',
      'tabletop-relay/companion/manifest.json',
      'tabletop-relay/main.js',
      'tabletop-relay/package.json',
    ]);
    const packageJson = JSON.parse(readFileSync(join(unpacked, 'tabletop-relay', 'package.json'), 'utf8'));
    expect(packageJson).toEqual({
      name: 'tabletop-relay',
      version: source.version,
      license: 'MIT',
      type: 'module',
      dependencies: {},
    });
  });

  it("writes a manifest module-base's own check accepts, for the installed module-base and the module's version", () => {
    expect(() => validateManifest(manifest, false)).not.toThrow();
    expect(manifest).toMatchObject({ type: 'connection', id: 'tabletop-relay', version: source.version });
    expect(manifest.runtime).toEqual({
      type: 'node22',
      api: 'nodejs-ipc',
      apiVersion: moduleBase.version,
      entrypoint: '../main.js',
    });
    expect(manifest).not.toHaveProperty('$schema');
  });

  it('bundles an entry that starts without node_modules: the module as its default export, and its upgrade scripts', async () => {
    const entry = resolve(join(unpacked, 'tabletop-relay', 'companion'), manifest.runtime.entrypoint);
    expect(dirname(entry)).toBe(join(unpacked, 'tabletop-relay'));
    const bundled = await import(pathToFileURL(entry).href);
    expect(bundled.UpgradeScripts).toEqual([]);
    const host = await CompanionHost.start(
      bundled.default,
      { relayUrl: 'http://127.0.0.1:9', clientId: '', trackedActors: '' },
      { apiKey: '' },
    );
    expect(host.status).toEqual({ status: InstanceStatus.BadConfig, message: expect.stringMatching(/no API key/i) });
    expect(Object.keys(host.actions)).toContain('next-turn');
    expect(host.instance.getConfigFields().find((field) => field.id === 'apiKey')?.type).toBe('secret-text');
    await host.destroy();
  });
});
