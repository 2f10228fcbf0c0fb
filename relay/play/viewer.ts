// Who the player page acts as: the one user a key is bound to, in its world. Every view the page gets is asked of the
// world as that user, so Foundry's own permissions apply; where the world answers as the GM whatever user it is
// asked for, the relay sorts the answer by the rule the API uses for the same data (relay/world-data/).
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { HttpError } from '../errors.ts';
import { askWorldAsGm } from '../routing/call.ts';
import { hasError } from '../tabletop/world-ask.ts';
import { playerOf } from '../routing/player-view.ts';
import type { Player, PlayerSortContext, WorldAsk } from '../routing/route.ts';
import { resolveWorld } from '../routing/world-resolution.ts';
import { actorsOwnedBy } from '../world-data/player-sorts.ts';
import type { RelayServices } from '../services.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';

const WORLD_TIMEOUT_MS = 10_000;

export interface PlayViewer {
  key: ApiKeyRecord;
  world: WorldConnection;
  services: RelayServices;
  /** The user as the world lists them. */
  user: { id: string; name: string };
  /** Set when the user is not a GM of the world: what the world answers as the GM is sorted for them. */
  player: Player | undefined;
  /** Asks the world as the user; the world's refusal is a 400 with its words. */
  ask: WorldAsk;
  /** Asks the world as the GM, for what the relay needs to sort an answer; never sent on as it comes. */
  askAsGm: WorldAsk;
}

const UNBOUND_KEY =
  'The player page acts as one user, and this key is bound to none: open the page from a player invitation, or bind the key to a user on the API keys page';

/** The viewer of a key, in the world it reaches; a key bound to no user is refused, as the page would act as the GM. */
export function viewerOf(key: ApiKeyRecord | undefined, services: RelayServices, clientId?: string): PlayViewer {
  if (!key?.userId) throw new HttpError(400, UNBOUND_KEY);
  const world = resolveWorld(services.tabletop, clientId, key);
  // The user as the key names them (an id, or a name the world resolves), as every call of the key names them.
  const userId = key.userId;
  return {
    key,
    world,
    services,
    user: userOf(world, userId),
    player: playerOf(key, world),
    ask: async (operation, fields = {}) => {
      const timeoutMs = services.timeoutOverrideMs ?? WORLD_TIMEOUT_MS;
      const { message } = await services.tabletop.request(world, operation, { ...fields, userId }, timeoutMs);
      if (hasError(message)) throw new HttpError(400, String(message.error));
      return message;
    },
    askAsGm: askWorldAsGm(world, services),
  };
}

/**
 * The key's user as the world lists them. One the world no longer lists has nothing to see; while the world has not
 * sent its list yet, the key's own words stand for them.
 */
function userOf(world: WorldConnection, wanted: string): { id: string; name: string } {
  const user =
    world.players.find((player) => player.id === wanted) ??
    world.players.find((player) => player.name.toLowerCase() === wanted.toLowerCase());
  if (user) return { id: user.id, name: user.name };
  if (world.players.length === 0) return { id: wanted, name: wanted };
  throw new HttpError(
    404,
    `This key acts as ${wanted}, who is not a user of this world any more: ask the GM for a new invitation`,
  );
}

/** What a sort of relay/world-data needs to sort an answer for a viewer who is a player. */
export function sortContextOf(viewer: PlayViewer, player: Player): PlayerSortContext {
  return {
    player,
    parameters: {},
    clientId: viewer.world.clientId,
    services: viewer.services,
    askWorld: viewer.askAsGm,
  };
}

/** Whether the user owns the actor in Foundry (the rule of relay/world-data: owner level); a GM owns every actor. */
export async function ownsActor(viewer: PlayViewer, actorUuid: string): Promise<boolean> {
  if (!viewer.player) return true;
  const owned = await actorsOwnedBy([{ actorUuid }], sortContextOf(viewer, viewer.player));
  return owned.has(actorUuid);
}
