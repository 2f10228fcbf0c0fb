// A full Gamemaster's page that holds a world's relay link (module-protocol.md §3.6): logged in, checked to be the
// world wanted, seeded with a connection token and reloaded, so the module inside connects back to this relay. GM
// sessions and world keepers each open one.
import type { KnownWorld } from '../auth/known-worlds.ts';
import type { BrowserPage } from './browser.ts';
import { CaptureFailure, foundryBase, waitUntilReady, type FoundryAccount } from './foundry-login.ts';
import { quietClientSettings, seedConnectionToken, type GameFacts } from './page-scripts.ts';
import { sessionWorld, WHERE_TO_CONFIGURE } from './session-worlds.ts';

const FULL_GM_ROLE = 4;
const CONNECT_TIMEOUT_MS = 30_000;
const GAME_LOAD_TIMEOUT_MS = 60_000;

/**
 * Checks that the logged-in page can hold the module's relay link for one of `worlds`: a full Gamemaster, the world
 * named (when one is), a paired world with the module enabled. Returns the world it is.
 */
export function requireWorldHolder(
  facts: GameFacts,
  account: FoundryAccount,
  worlds: KnownWorld[],
  worldName?: string,
): KnownWorld {
  if (facts.userRole < FULL_GM_ROLE) {
    throw new CaptureFailure(
      403,
      `Foundry user '${account.username}' is not a full Gamemaster; only a Gamemaster's browser connects the module`,
      'not-gamemaster',
    );
  }
  if (worldName && ![facts.worldId, facts.worldTitle].some((name) => name.toLowerCase() === worldName.toLowerCase())) {
    throw new CaptureFailure(400, `Foundry is running world '${facts.worldTitle}', not '${worldName}'`, 'other-world');
  }
  if (!facts.moduleActive) {
    throw new CaptureFailure(
      409,
      `The Foundry REST API module is not enabled in world '${facts.worldTitle}': enable it in Foundry's Manage Modules`,
      'module-disabled',
    );
  }
  if (!facts.clientId) {
    throw new CaptureFailure(
      409,
      'This world has never been paired with a relay: pair it once from a Gamemaster browser, then start sessions',
      'never-paired',
    );
  }
  const world = sessionWorld(facts, worlds);
  if (!world) {
    throw new CaptureFailure(
      403,
      `Foundry at ${account.foundryUrl} runs world '${facts.worldTitle}' (client id ${facts.clientId}), which is not a paired world configured for this address; no token was issued. To run a session for it, ${WHERE_TO_CONFIGURE}`,
      'other-world',
    );
  }
  return world;
}

export interface LinkWatch {
  /** Whether the world's /relay socket is the socket this page's token opened. */
  held(): boolean;
  /** Whether another credential holds the world's /relay socket. */
  heldElsewhere(): boolean;
}

/**
 * Seeds the token where the module reads it, reloads the game and waits until the module holds the link. A quiet page
 * (nobody looks at it) also runs without its canvas and with every volume at zero.
 */
export async function connectModule(
  page: BrowserPage,
  foundryUrl: string,
  token: string,
  watch: LinkWatch,
  quiet = false,
): Promise<void> {
  await page.evaluate(seedConnectionToken, token);
  if (quiet) await page.evaluate(quietClientSettings, undefined);
  await page.goto(`${foundryBase(foundryUrl)}/game`, GAME_LOAD_TIMEOUT_MS);
  await waitUntilReady(page);
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  while (!watch.held()) {
    if (Date.now() > deadline) {
      throw new CaptureFailure(
        408,
        watch.heldElsewhere()
          ? 'The world stayed connected from another browser with another token'
          : 'The world logged in but its module did not connect to the relay within 30 s',
        'module-not-connected',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
