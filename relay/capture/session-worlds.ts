// Which worlds a GM session may bring online: only at a Foundry address the GM configured, and only a paired world whose
// address it is. A caller's x-foundry-url is never trusted on its own: the page there decides which world it claims to
// be, and the relay would otherwise hand that page a connection token.
import type { KnownWorld, KnownWorlds } from '../auth/known-worlds.ts';
import { foundryBase } from './foundry-login.ts';
import type { GameFacts } from './page-scripts.ts';

export interface SessionWorldSources {
  knownWorlds: Pick<KnownWorlds, 'list'>;
  /** The Foundry URL of the capture settings; '' when none is set. */
  captureUrl(): string;
}

export const WHERE_TO_CONFIGURE =
  "set it as the world's Foundry address in Tabletop Relay's settings (PATCH /admin/worlds/{clientId} with {foundryUrl}) or as the capture Foundry URL (PUT /admin/capture)";

/** A Foundry address compared as the browser would load it: scheme, host and port, and path without /join or /game. */
export function sameFoundry(a: string, b: string): boolean {
  const normal = (url: string) => {
    try {
      const parsed = new URL(foundryBase(url.trim()));
      return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
    } catch {
      return undefined;
    }
  };
  const left = normal(a);
  return left !== undefined && left === normal(b);
}

/**
 * The paired worlds a session at `foundryUrl` may bring online: those the GM gave this address, and, at the capture
 * Foundry URL, also those the GM gave no address. Undefined when the GM configured this address nowhere.
 */
export function worldsAt(foundryUrl: string, sources: SessionWorldSources): KnownWorld[] | undefined {
  const known = sources.knownWorlds.list();
  const own = known.filter((world) => world.foundryUrl !== undefined && sameFoundry(world.foundryUrl, foundryUrl));
  const captureUrl = sources.captureUrl();
  if (captureUrl === '' || !sameFoundry(captureUrl, foundryUrl)) return own.length > 0 ? own : undefined;
  return [...own, ...known.filter((world) => world.foundryUrl === undefined)];
}

/** The world among `worlds` that the logged-in page is: its client id and, when the relay knows it, its world id. */
export function sessionWorld(facts: GameFacts, worlds: KnownWorld[]): KnownWorld | undefined {
  return worlds.find(
    (world) => world.clientId === facts.clientId && (world.worldId === undefined || world.worldId === facts.worldId),
  );
}
