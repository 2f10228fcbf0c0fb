// Bundles the game page's script (the sandbox world core, its protocol peer and the Foundry-like client) for the
// browser with esbuild, once per process.
import { join } from 'node:path';
import { WEB_FOLDER } from './web-folder.ts';

const ENTRY = join(WEB_FOLDER, 'client', 'game-page.ts');

let bundle: Promise<string> | undefined;

export function gamePageBundle(): Promise<string> {
  bundle ??= build();
  bundle.catch(() => {
    bundle = undefined;
  });
  return bundle;
}

async function build(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome110',
    write: false,
    minify: false,
    logLevel: 'silent',
    // The dice library reaches for Node's crypto only when asked to; the sandbox never asks.
    external: ['crypto'],
  });
  return result.outputFiles[0]!.text;
}
