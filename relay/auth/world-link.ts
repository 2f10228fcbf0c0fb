// The grant that lets a 2.x module link its world with an API key in the URL (module-protocol.md §3.7).
import { HttpError } from '../errors.ts';
import type { Scope } from './scopes.ts';

export const WORLD_LINK_SCOPE: Scope = 'world:link';

/** What of an API key decides whether it links a world (the key store imports this file, not the other way round). */
export interface WorldLinkCandidate {
  scopes: readonly Scope[];
  worldIds?: readonly string[];
  userId?: string;
}

/**
 * Whether a key may connect as this world: it holds `world:link`, is bound to exactly this one world and to no
 * tabletop user. Any other key, whatever its scopes, is a tool's key and never becomes a world.
 */
export function linksWorld(key: WorldLinkCandidate, clientId: string): boolean {
  return (
    key.scopes.includes(WORLD_LINK_SCOPE) && !key.userId && key.worldIds?.length === 1 && key.worldIds[0] === clientId
  );
}

/**
 * The Foundry page each 2.x module's key was made for, by the world it links: /relay admits that page for that world,
 * as it admits the page a 3.x world was paired on.
 */
export function linkedPages(
  keys: readonly (WorldLinkCandidate & { origin?: string })[],
): { clientId: string; origin: string }[] {
  return keys.flatMap((key) => {
    const clientId = key.worldIds?.[0];
    return clientId !== undefined && key.origin !== undefined && linksWorld(key, clientId)
      ? [{ clientId, origin: key.origin }]
      : [];
  });
}

/**
 * A 2.x module keeps its key in a world setting that every player's browser receives, so a `world:link` key must be
 * worth nothing beyond linking its world: it never carries other scopes.
 */
export function refuseMixedWorldLink(scopes: readonly Scope[] | undefined): void {
  if (!scopes?.includes(WORLD_LINK_SCOPE) || scopes.length === 1) return;
  throw new HttpError(
    400,
    "'world:link' cannot be combined with other scopes: a 2.x module's key is readable by every player of its world. " +
      'Use "Connect a 2.x module" (POST /admin/world-links) for the module, and a separate key for your tool.',
  );
}
