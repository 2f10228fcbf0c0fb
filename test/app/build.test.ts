// `npm run build:app` produces what Electron loads: compiled main, a CommonJS preload, and the settings UI.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const app = join(root, 'dist', 'app');

function javascriptFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(folder, file));
}

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'build.ts')], { cwd: root });
}, 60_000);

describe('build:app', () => {
  it('compiles the main process next to the relay it starts', () => {
    expect(existsSync(join(app, 'main', 'index.js'))).toBe(true);
    expect(existsSync(join(app, 'relay', 'relay.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).main).toBe('dist/app/main/index.js');
  });

  it('leaves no import of a .ts file, and every relative import resolves', () => {
    for (const file of javascriptFiles(app)) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        expect(target, file).not.toMatch(/\.ts$/);
        expect(existsSync(resolve(dirname(file), target!)), `${file} imports ${target}`).toBe(true);
      }
    }
  });

  it('bundles the preload as CommonJS, since sandboxed preloads cannot be ES modules', () => {
    const preload = readFileSync(join(app, 'main', 'preload.cjs'), 'utf8');
    expect(preload).toContain('require("electron")');
    expect(preload).not.toMatch(/^import /m);
    expect(preload).toContain('desktop:set-start-at-login');
  });

  it('builds the settings UI where the relay serves it, in the sources and in the packaged app', () => {
    for (const folder of [join(root, 'dist', 'renderer'), join(app, 'renderer')]) {
      for (const file of ['index.html', 'app.js', 'styles.css', 'logo.svg'])
        expect(existsSync(join(folder, file)), join(folder, file)).toBe(true);
    }
  });
});
