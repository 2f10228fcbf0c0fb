// The Elgato plugin as a GM runs it: `npm run build:streamdeck` builds it, the app installs its folder into its
// Plugins folder and starts it; the plugin talks to a relay with a sandbox world of the Foundry version asked for.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { WorldMessage, WorldRequest } from '../../../contracts/world-protocol.ts';
import { DECK_SCOPES } from '../../../integrations/client/actions.ts';
import type { Scope } from '../../../relay/auth/scopes.ts';
import { startRelayWithWorld, type WorldHarness } from '../../harness/world.ts';
import { installPluginPackage } from './install.ts';
import { StreamDeckApp } from './stream-deck-app.ts';

export const DECK_UUID = 'org.tabletoprelay.deck';
export const deckAction = (name: string) => `${DECK_UUID}.${name}`;
/** Every suite runs on a Foundry 13 world and on a Foundry 14 one. */
export const FOUNDRY_VERSIONS = ['13.348', '14.366'] as const;

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** What `npm run build:streamdeck` packs: the file a GM double-clicks, which the app unpacks into its Plugins folder. */
const PACKAGE = join(ROOT, 'dist', 'streamdeck', `${DECK_UUID}.streamDeckPlugin`);
const SOURCES = ['integrations/streamdeck', 'integrations/client', 'scripts/build-streamdeck.ts', 'package-lock.json'];
const BUILD_LOCK = join(ROOT, 'dist', 'streamdeck.build-lock');
const STALE_LOCK_MS = 120_000;

function newestChange(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Test files run in parallel: one builds while the others wait, so none unpacks a half-written package. */
async function underBuildLock<T>(body: () => Promise<T>): Promise<T> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(BUILD_LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

let installed: Promise<string> | undefined;

/**
 * Builds the plugin with `npm run build:streamdeck` (again only when a source changed since the package was made) and
 * installs it as a double-click does: the package unpacked into a Plugins folder of its own. Once per test file.
 */
export function installedDeckPlugin(): Promise<string> {
  installed ??= underBuildLock(async () => {
    const sourcesChanged = Math.max(...SOURCES.map((source) => newestChange(join(ROOT, source))));
    if (newestChange(PACKAGE) < sourcesChanged)
      await promisify(execFile)('npm', ['run', '--silent', 'build:streamdeck'], { cwd: ROOT });
    const plugins = mkdtempSync(join(tmpdir(), 'stream-deck-plugins-'));
    return installPluginPackage(PACKAGE, plugins);
  });
  return installed;
}

/** The world's first push after now that `matches`, with the time it left the world. */
export function nextPush(
  harness: WorldHarness,
  matches: (message: WorldMessage) => boolean,
  timeoutMs = 3000,
): Promise<{ at: number; message: WorldMessage }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the world pushed no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = harness.world.onPush((message) => {
      if (!matches(message)) return;
      const at = performance.now();
      clearTimeout(timer);
      stop();
      resolve({ at, message });
    });
  });
}

/** The requests the world answers, with the time each reached it; the world answers them as before. */
export function recordRequests(harness: WorldHarness): Array<{ at: number; request: WorldRequest }> {
  const seen: Array<{ at: number; request: WorldRequest }> = [];
  const original = harness.world.handle.bind(harness.world);
  harness.world.handle = (request) => {
    seen.push({ at: performance.now(), request });
    return original(request);
  };
  return seen;
}

/** The value below which `share` (0 to 1) of the samples fall, nearest rank. */
export function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

export interface Deck {
  harness: WorldHarness;
  app: StreamDeckApp;
  close(): Promise<void>;
}

type WorldOptions = NonNullable<Parameters<typeof startRelayWithWorld>[0]>;

export interface DeckOptions {
  foundryVersion: string;
  /** The scopes of the key in the default global settings: the deck's own, as its key request asks for. */
  scopes?: readonly Scope[];
  /** The global settings the app holds for the plugin; by default the relay's URL and a key with `scopes`. */
  globalSettings?: (harness: WorldHarness) => Promise<Record<string, unknown>>;
  relay?: WorldOptions['relay'];
  link?: WorldOptions['link'];
}

/** The relay with its world, the built plugin installed, and the app that runs it with the given global settings. */
export async function startDeck(options: DeckOptions): Promise<Deck> {
  const pluginDir = await installedDeckPlugin();
  const harness = await startRelayWithWorld({
    foundryVersion: options.foundryVersion,
    relay: options.relay,
    link: options.link,
  });
  harness.world.game.settings.allowMacroExecute = true;
  const globalSettings = options.globalSettings
    ? await options.globalSettings(harness)
    : {
        relayUrl: harness.baseUrl,
        apiKey: await harness.createKey({ scopes: options.scopes ?? DECK_SCOPES, name: 'Stream Deck' }),
      };
  const app = await StreamDeckApp.start({ pluginDir, globalSettings });
  return {
    harness,
    app,
    async close() {
      await app.stop();
      await harness.close();
    },
  };
}
