import { randomBytes } from 'node:crypto';
import { connectSandbox, createSandboxWorld } from '../sandbox/index.ts';
import { startSandboxWebClient, type SandboxWebClient, type WebWorldOptions } from '../sandbox/web/server.ts';
import { findChrome } from '../relay/capture/chrome-path.ts';
import { TOOL_SCOPES } from '../relay/auth/scopes.ts';
import type { Relay } from '../relay/relay.ts';
import { moduleSettingsOn, type DemoModuleSetting } from './module-settings.ts';
import { keepingText } from '../contracts/keeper.ts';

export const SANDBOX_CLIENT_ID = 'fvtt_sandbox0000000';

/** How long the demo's own GM link stays before it leaves, with --keep-online, so the keeper can be seen taking over. */
export const GM_LEAVES_AFTER_MS = 10_000;
const KEEPER_USER = 'Gamemaster';

export interface DemoWorld {
  apiKey: string;
  worldTitle: string;
  /** What serves GET /sheet: a real rendered sheet from the capture session, or the world's painted one. */
  sheetSource: string;
  /** An actor to try GET /sheet with. */
  exampleActorUuid: string;
  /** The dice feed overlay of the sandbox world, its link in it: what a streamer pastes into OBS. */
  diceOverlayUrl: string;
  /** With --keep-online: what the demo does to show the keeper, in words. */
  keeperNote?: string;
  stop(): Promise<void>;
}

/** The sandbox world the demo runs: `npm run demo`'s options. */
export interface DemoWorldOptions {
  seed: number;
  moduleSettings?: readonly DemoModuleSetting[];
  foundryVersion?: string;
  keepOnline?: boolean;
  /** A world without the seeded encounter (--empty-encounters). */
  emptyEncounters?: boolean;
}

/**
 * Connects the sandbox world to a running relay as a paired world would, and makes a key for trying the API: every scope
 * but execute-js, which the key gets only when the world's allow-execute-js setting is on.
 */
export async function startDemoWorld(relay: Relay, options: DemoWorldOptions): Promise<DemoWorld> {
  const { seed, moduleSettings = [], foundryVersion = '13.348', keepOnline = false, emptyEncounters } = options;
  if (keepOnline && (!relay.services.keepers || !findChrome()))
    throw new DemoError(
      '--keep-online needs Chrome or Chromium to log the keeper in: install one (e.g. apt-get install chromium) or set TABLETOP_RELAY_CHROME',
    );
  const { services } = relay;
  const settings = moduleSettingsOn(moduleSettings);
  const world = createSandboxWorld({ seed, settings, foundryVersion, emptyEncounters });
  services.knownWorlds.remember({ clientId: SANDBOX_CLIENT_ID, ...world.metadata });
  const { token } = services.connectionTokens.issue(SANDBOX_CLIENT_ID, 'Sandbox world', 'demo');
  const link = await connectSandbox(world, {
    relayUrl: relay.url.replace(/^http/, 'ws'),
    clientId: SANDBOX_CLIENT_ID,
    token,
    reconnect: true,
  });
  world.startAmbientActivity();
  const withExecuteJs = moduleSettings.includes('allow-execute-js');
  const { key } = services.keys.create({
    name: 'Demo key',
    scopes: TOOL_SCOPES.filter((scope) => withExecuteJs || scope !== 'execute-js'),
  });
  const diceOverlay = services.overlayLinks.create({
    overlay: 'dice',
    clientId: SANDBOX_CLIENT_ID,
    worldTitle: world.metadata.worldTitle,
  });
  const web = await startCaptureAgainstSandbox(relay, { seed, settings, foundryVersion, emptyEncounters });
  const leaveAsGm = async () => {
    world.stopAmbientActivity();
    await link.close();
  };
  const leave = web && keepOnline ? keepOnlineWith(relay, web, leaveAsGm) : undefined;
  return {
    apiKey: key,
    worldTitle: world.metadata.worldTitle ?? 'Sandbox',
    exampleActorUuid: world.game.actors.contents[0]?.uuid ?? '',
    diceOverlayUrl: `${relay.url}/overlays/dice?link=${diceOverlay.link}`,
    sheetSource: web
      ? `GET /sheet renders real sheets in Chromium, logged in to the sandbox web client at ${web.url}`
      : "Chromium was not found, so GET /sheet returns the sandbox world's painted sheets (install chromium for real ones)",
    ...(leave ? { keeperNote: leave.note } : {}),
    stop: async () => {
      leave?.cancel();
      await leaveAsGm();
      await web?.close();
    },
  };
}

/** Stops the demo with one line that says what to do. */
export class DemoError extends Error {}

/**
 * Keeps the sandbox world online through a keeper logged in to the sandbox web client as its Gamemaster, then lets the
 * demo's own GM link leave, so the keeper takes over; each change of the keeper from then on is printed.
 */
function keepOnlineWith(
  relay: Relay,
  web: SandboxWebClient & { gmPassword: string },
  leaveAsGm: () => Promise<void>,
): { note: string; cancel(): void } {
  const keepers = relay.services.keepers!;
  relay.services.knownWorlds.setFoundryUrl(SANDBOX_CLIENT_ID, web.url);
  keepers.configure(SANDBOX_CLIENT_ID, { enabled: true, username: KEEPER_USER, password: web.gmPassword });
  let shown = '';
  let watching = false;
  keepers.on('changed', () => {
    if (!watching) return;
    const keeper = keepers.view(SANDBOX_CLIENT_ID);
    const line = keepingText(keeper, relay.services.tabletop.world(SANDBOX_CLIENT_ID) !== undefined, new Date());
    if (line === shown) return;
    shown = line;
    process.stdout.write(`Keeper: ${line}\n`);
  });
  const timer = setTimeout(() => {
    process.stdout.write("The sandbox's GM browser left: the keeper takes the world over, and calls keep answering.\n");
    watching = true;
    void leaveAsGm();
  }, GM_LEAVES_AFTER_MS);
  return {
    note: `Keep online: the sandbox's GM browser leaves in ${GM_LEAVES_AFTER_MS / 1000} s, then the keeper (${KEEPER_USER} at ${web.url}) holds the world; the settings show it under Status → Paired worlds.`,
    cancel: () => {
      watching = false;
      clearTimeout(timer);
    },
  };
}

/**
 * With Chromium installed, serves the sandbox web client (the same seed and settings, so the same world, paired with the
 * demo's client id) and points the capture session at it as its Assistant GM, so that GET /sheet answers with real
 * rendered sheets. Its Gamemaster gets a password too, for the keeper.
 */
async function startCaptureAgainstSandbox(
  relay: Relay,
  worldOptions: WebWorldOptions,
): Promise<(SandboxWebClient & { gmPassword: string }) | undefined> {
  const capture = relay.services.capture;
  if (!capture || !findChrome()) return undefined;
  const password = randomBytes(12).toString('hex');
  const gmPassword = randomBytes(12).toString('hex');
  const web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions,
    passwords: { 'Assistant GM': password, [KEEPER_USER]: gmPassword },
    clientId: SANDBOX_CLIENT_ID,
    relayUrl: relay.url,
  });
  await capture.configure({ foundryUrl: web.url, username: 'Assistant GM', password });
  capture
    .warm()
    .catch((error: unknown) =>
      console.warn(
        `The capture session could not log in yet: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  return Object.assign(web, { gmPassword });
}
