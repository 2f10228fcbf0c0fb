// Starts an Electron app on the stand-in, as `electron <app folder | entry file>` would: `electron` resolves to the
// stand-in, the entry is imported, and `ready` is emitted only after that import has settled
// (https://www.electronjs.org/docs/latest/tutorial/esm: "ES Modules are loaded asynchronously"; an entry that awaits
// `ready` at its top level therefore never gets it). Run under Node 24: node launch.ts <target>.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app } from './app.ts';
import { serveControl } from './control.ts';
import { runtime } from './runtime.ts';

const STAND_IN = new URL('./electron.ts', import.meta.url).href;
registerHooks({
  resolve: (specifier, context, nextResolve) =>
    specifier === 'electron'
      ? { url: STAND_IN, format: 'module', shortCircuit: true }
      : nextResolve(specifier, context),
});

function locate(target: string): { appPath: string; entry: string } {
  if (!statSync(target).isDirectory()) return { appPath: dirname(target), entry: target };
  const manifest = join(target, 'package.json');
  const main = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string }).main
    : undefined;
  return { appPath: target, entry: join(target, main ?? 'index.js') };
}

const report = (what: string) => (error: unknown) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  runtime.uncaught.push(`${what}: ${text}`);
  process.stderr.write(`${what}: ${text}\n`);
};
process.on('uncaughtException', report('A JavaScript error occurred in the main process'));
process.on('unhandledRejection', report('Unhandled promise rejection in the main process'));
Object.defineProperty(process, 'type', { value: 'browser' });

const target = resolve(process.argv[2] ?? '.');
const { appPath, entry } = locate(target);
runtime.appPath = appPath;
serveControl();
// An Electron app runs until it quits, whatever its event loop holds.
setInterval(() => undefined, 2 ** 30);

import(pathToFileURL(entry).href).then(
  () => setImmediate(() => app.standInReady()),
  (error: unknown) => {
    runtime.phase = 'load-failed';
    runtime.loadError = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`App threw an error during load\n${runtime.loadError}\n`);
  },
);
