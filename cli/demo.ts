import { randomBytes } from 'node:crypto';
import { connectSandbox, createSandboxWorld } from '../sandbox/index.ts';
import { startSandboxWebClient, type SandboxWebClient, type WebWorldOptions } from '../sandbox/web/server.ts';
import { findChrome } from '../relay/capture/chrome-path.ts';
import { TOOL_SCOPES } from '../relay/auth/scopes.ts';
import type { Relay } from '../relay/relay.ts';
import { moduleSettingsOn, type DemoModuleSetting } from './module-settings.ts';

export const SANDBOX_CLIENT_ID = 'fvtt_sandbox0000000';

export interface DemoWorld {
  apiKey: string;
  worldTitle: string;
  /** What serves GET /sheet: a real rendered sheet from the capture session, or the world's painted one. */
  sheetSource: string;
  /** An actor to try GET /sheet with. */
  exampleActorUuid: string;
  /** The dice feed overlay of the sandbox world, its link in it: what a streamer pastes into OBS. */
  diceOverlayUrl: string;
  stop(): Promise<void>;
}

/**
 * Connects the sandbox world to a running relay as a paired world would, and makes a key for trying the API: every scope
 * but execute-js, which the key gets only when the world's allow-execute-js setting is on.
 */
export async function startDemoWorld(
  relay: Relay,
  seed: number,
  moduleSettings: readonly DemoModuleSetting[] = [],
  foundryVersion = '13.348',
): Promise<DemoWorld> {
  const { services } = relay;
  const settings = moduleSettingsOn(moduleSettings);
  const world = createSandboxWorld({ seed, settings, foundryVersion });
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
  const web = await startCaptureAgainstSandbox(relay, { seed, settings, foundryVersion });
  return {
    apiKey: key,
    worldTitle: world.metadata.worldTitle ?? 'Sandbox',
    exampleActorUuid: world.game.actors.contents[0]?.uuid ?? '',
    diceOverlayUrl: `${relay.url}/overlays/dice?link=${diceOverlay.link}`,
    sheetSource: web
      ? `GET /sheet renders real sheets in Chromium, logged in to the sandbox web client at ${web.url}`
      : "Chromium was not found, so GET /sheet returns the sandbox world's painted sheets (install chromium for real ones)",
    stop: async () => {
      world.stopAmbientActivity();
      await link.close();
      await web?.close();
    },
  };
}

/**
 * With Chromium installed, serves the sandbox web client (the same seed and settings, so the same world) and points the
 * capture session at it as its Assistant GM, so that GET /sheet answers with real rendered sheets.
 */
async function startCaptureAgainstSandbox(
  relay: Relay,
  worldOptions: WebWorldOptions,
): Promise<SandboxWebClient | undefined> {
  const capture = relay.services.capture;
  if (!capture || !findChrome()) return undefined;
  const password = randomBytes(12).toString('hex');
  const web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions,
    passwords: { 'Assistant GM': password },
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
  return web;
}
