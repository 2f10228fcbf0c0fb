// What a key bound to a player gets from a keyed route. The world's module runs as the GM and narrows many answers by
// the `userId` it is sent (documents the user may not observe, GM-only controls), but not all: recent rolls, combats,
// a scene's images, canvas documents come as the GM sees them. So every keyed route says, in its table entry
// (`playerView`), whether its answer passes to a player as it comes and why, is refused to them, or is sorted by the
// relay first; test/security/item-23-player-gm-data.test.ts fails for a keyed route that does not say.
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { HttpError } from '../errors.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import type { Player, PlayerDecision, PlayerView } from './route.ts';

/** Foundry's ASSISTANT role: from it up a user is a GM (`User#isGM`) and sees what the GM sees. */
export const FIRST_GM_ROLE = 3;

/**
 * The player a key acts as in this world: its bound user when that user is not a GM there. A key bound to no user, or
 * to a GM, is GM-level: undefined. A bound user the world does not list counts as a player (the world refuses it
 * anyway).
 */
export function playerOf(key: ApiKeyRecord | undefined, world: WorldConnection): Player | undefined {
  const bound = key?.userId;
  if (bound === undefined) return undefined;
  const user =
    world.players.find((player) => player.id === bound) ??
    world.players.find((player) => player.name.toLowerCase() === bound.toLowerCase());
  if (user && user.role >= FIRST_GM_ROLE) return undefined;
  return { id: user?.id ?? bound, name: user?.name ?? bound };
}

/** Refuses the call when the route is refused to players, or says nothing about them (a route added without deciding). */
export function refuseToPlayer(view: PlayerView | undefined, player: Player, what: string): void {
  if (view && !('refused' in view)) return;
  const why = view?.refused ?? 'is not open to players: the relay has not been told what of its answer they may see';
  throw new HttpError(403, `This key acts as ${player.name}, who is not a GM in this world: ${what} ${why}`);
}

/** The reasons most routes pass: the module's own checks of the user it is sent (module-operations.md §1). */
export const WORLD_FILTERS: PlayerView = {
  passes: 'the world answers as the user, leaving out or refusing what they may not observe',
};
export const GM_ONLY_IN_WORLD: PlayerDecision = { passes: 'the world refuses it to a user who is not a GM' };
export const OWNED_IN_WORLD: PlayerDecision = { passes: 'the world changes only what the user owns' };
