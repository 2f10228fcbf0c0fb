// One version source: package.json. The relay reads it, and the builds of the Stream Deck plugin and the Companion
// module stamp it into their manifests; no other file keeps a copy to forget.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELAY_VERSION } from '../../relay/version.ts';
import { pluginManifest } from '../../scripts/build-streamdeck.ts';
import { moduleManifest } from '../../scripts/build-companion.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;
const { version } = readJson('package.json') as { version: string };

/** Where a copy of the version could hide: the product's code, its integrations and their manifests, the builds. */
const PRODUCT_FOLDERS = ['relay', 'contracts', 'main', 'cli', 'renderer/src', 'overlays', 'integrations', 'scripts'];

function productFiles(): string[] {
  return PRODUCT_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|json)$/.test(name))
      .map((name) => posix.join(folder, name.split('\\').join('/'))),
  );
}

describe('the version', () => {
  it('is a semantic version in package.json', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is the relay’s (status, discovery, OpenAPI, the CLI)', () => {
    expect(RELAY_VERSION).toBe(version);
  });

  it('is the Stream Deck plugin’s, in the four numbers its manifest takes', () => {
    expect(pluginManifest().Version).toBe(`${version}.0`);
  });

  it('is the Companion module’s, in its manifest and so in its package', () => {
    expect(moduleManifest().version).toBe(version);
  });

  it('is written nowhere else: no source, manifest or package.json of the product keeps a copy', () => {
    const quoted = [`'${version}'`, `"${version}"`, `'${version}.0'`, `"${version}.0"`];
    const copies = productFiles().filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return quoted.some((literal) => text.includes(literal));
    });
    expect(copies).toEqual([]);
  });
});
