// Builds the Stream Deck plugin: dist/streamdeck/org.tabletoprelay.deck.sdPlugin (manifest, bin/plugin.js, imgs, ui),
// validated by Elgato's CLI (a manifest it refuses fails the build), then packed into
// dist/streamdeck/org.tabletoprelay.deck.streamDeckPlugin, the file a double-click installs in the Stream Deck app.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { build } from 'esbuild';
import {
  ACTION_ICONS,
  categoryIconSvg,
  actionIconSvg,
  actionKeySvg,
  playingKeySvg,
} from '../integrations/streamdeck/icons.ts';
import project from '../package.json' with { type: 'json' };

const root = join(import.meta.dirname, '..');
const SOURCE = join(root, 'integrations', 'streamdeck');
export const STREAMDECK_OUT = join(root, 'dist', 'streamdeck');
export const PLUGIN_UUID = 'org.tabletoprelay.deck';
const CLI = join(root, 'node_modules', '@elgato', 'cli', 'bin', 'streamdeck.mjs');

const run = promisify(execFile);

/** The plugin's manifest: the source's, with the project's version (package.json) as the four numbers Elgato wants. */
export function pluginManifest(): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(SOURCE, 'static', 'manifest.json'), 'utf8')) as Record<string, unknown>;
  return { ...manifest, Version: `${project.version}.0` };
}

/** The icons the manifest names, drawn from the same glyphs the keys show at run time. */
function writeIcons(pluginDir: string): void {
  mkdirSync(join(pluginDir, 'imgs', 'plugin'), { recursive: true });
  writeFileSync(join(pluginDir, 'imgs', 'plugin', 'category-icon.svg'), categoryIconSvg());
  for (const name of ACTION_ICONS) {
    const folder = join(pluginDir, 'imgs', 'actions', name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'icon.svg'), actionIconSvg(name));
    writeFileSync(join(folder, 'key.svg'), actionKeySvg(name));
  }
  writeFileSync(join(pluginDir, 'imgs', 'actions', 'playlist', 'playing.svg'), playingKeySvg());
}

/**
 * The plugin's code as the Stream Deck app runs it: one ES module for Node 20 with the SDK inside (bin/package.json
 * marks bin/ as ES modules), and the property inspector's script for the app's browser.
 */
async function bundle(pluginDir: string): Promise<void> {
  await build({
    entryPoints: [join(SOURCE, 'plugin.ts')],
    outfile: join(pluginDir, 'bin', 'plugin.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // ws loads these native speed-ups only when they are installed; the plugin runs without them.
    external: ['bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
  });
  writeFileSync(join(pluginDir, 'bin', 'package.json'), '{ "type": "module" }\n');
  await build({
    entryPoints: [join(SOURCE, 'ui', 'settings.ts')],
    outfile: join(pluginDir, 'ui', 'settings.js'),
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    logLevel: 'warning',
  });
}

/** Elgato's validation of a plugin folder, offline; throws with the CLI's report when it refuses the plugin. */
export async function validatePlugin(pluginDir: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [CLI, 'validate', '--no-update-check', pluginDir], {
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`The Stream Deck plugin is not valid:\n${stdout}${stderr}`, { cause: error });
  }
}

async function pack(pluginDir: string, outDir: string): Promise<void> {
  await run(
    process.execPath,
    [CLI, 'pack', '--no-update-check', '--force', '--no-file-list', '--output', outDir, pluginDir],
    { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
  );
}

/** Builds, validates and packs the plugin into `outDir` (dist/streamdeck by default), replacing what was there. */
export async function buildStreamDeck(outDir = STREAMDECK_OUT): Promise<{ pluginDir: string; pluginFile: string }> {
  const pluginDir = join(outDir, `${PLUGIN_UUID}.sdPlugin`);
  const pluginFile = join(outDir, `${PLUGIN_UUID}.streamDeckPlugin`);
  rmSync(pluginDir, { recursive: true, force: true });
  rmSync(pluginFile, { force: true });
  mkdirSync(pluginDir, { recursive: true });
  cpSync(join(SOURCE, 'static'), pluginDir, { recursive: true });
  writeFileSync(join(pluginDir, 'manifest.json'), `${JSON.stringify(pluginManifest(), null, 2)}\n`);
  writeIcons(pluginDir);
  await bundle(pluginDir);
  await validatePlugin(pluginDir);
  await pack(pluginDir, outDir);
  return { pluginDir, pluginFile };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const { pluginDir, pluginFile } = await buildStreamDeck(values.out ?? STREAMDECK_OUT);
  process.stdout.write(`Built ${pluginDir}\nPacked ${pluginFile}\n`);
}
