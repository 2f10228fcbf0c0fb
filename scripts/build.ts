// Builds the desktop app: the settings UI (served by the relay at /admin/), the preload script and the main process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
export const RENDERER_OUT = join(root, 'dist', 'renderer');
const APP_OUT = join(root, 'dist', 'app');

/** Replaces a file in one step, so a relay serving the folder meanwhile (the UI tests) never sends half a file. */
function writeAtomically(path: string, contents: Uint8Array | string): void {
  writeFileSync(`${path}.tmp`, contents);
  renameSync(`${path}.tmp`, path);
}

/** The settings UI as static files: index.html, app.js, styles.css, logo.svg; no source maps. */
export async function buildRenderer(outDir = RENDERER_OUT): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const bundle = await build({
    entryPoints: [join(root, 'renderer', 'src', 'main.ts')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    // The relay serves this folder as it is, and it serves no source maps.
    sourcemap: false,
    logLevel: 'warning',
    write: false,
  });
  rmSync(join(outDir, 'app.js.map'), { force: true });
  for (const file of bundle.outputFiles) writeAtomically(file.path, file.contents);
  for (const file of ['index.html', 'styles.css', 'logo.svg']) writeAtomically(join(outDir, file), readFileSync(join(root, 'renderer', file)));
}

/** Sandboxed preload scripts cannot be ES modules, so the preload is bundled to CommonJS next to the compiled main. */
async function buildPreload(appOut: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'main', 'preload.ts')],
    outfile: join(appOut, 'main', 'preload.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    external: ['electron'],
    target: 'node22',
    logLevel: 'warning',
  });
}

function compileMain(appOut: string): void {
  rmSync(appOut, { recursive: true, force: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.main.json'), '--outDir', appOut], { stdio: 'inherit' });
}

/** The desktop app: compiled main, preload, and the settings UI where the compiled relay looks for it. */
export async function buildApp(appOut = APP_OUT): Promise<void> {
  compileMain(appOut);
  await buildPreload(appOut);
  // The compiled relay looks for the settings UI two folders up from dist/app/relay/http, as it does from the sources.
  await buildRenderer(join(appOut, 'dist', 'renderer'));
}

if (process.argv[1] && dirname(process.argv[1]) === import.meta.dirname) {
  const what = process.argv[2] ?? 'all';
  if (what === 'renderer' || what === 'all') await buildRenderer();
  if (what === 'all') await buildApp();
  process.stdout.write(`Built ${what === 'all' ? 'dist/app (main, preload) and dist/renderer' : 'dist/renderer'}\n`);
}
