import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { HttpError } from '../errors.ts';

/**
 * The world a call goes to: the `clientId` named, or the only one connected (module-protocol.md §5.4). The refusals'
 * bodies are the reference relay's, byte for byte: clients match their texts.
 */
export function resolveWorld(
  tabletop: Tabletop,
  clientId: string | undefined,
  key: ApiKeyRecord | undefined,
): WorldConnection {
  const allowed = key?.worldIds;
  if (clientId !== undefined) {
    if (allowed && !allowed.includes(clientId)) throw new HttpError(403, 'API key is not authorized for this client');
    const world = tabletop.world(clientId);
    if (!world) throw new HttpError(404, 'Invalid client ID');
    return world;
  }
  const worlds = tabletop.worlds().filter((world) => !allowed || allowed.includes(world.clientId));
  if (worlds.length === 1) return worlds[0]!;
  if (worlds.length === 0) throw new HttpError(404, 'No connected Foundry clients found');
  throw new HttpError(400, 'Multiple clients connected. Please specify clientId.', {
    connectedClients: worlds.map((world) => world.clientId),
  });
}

/**
 * The user a call acts as: a key bound to a user always acts as that user (by the id or the name it was bound with; the
 * world resolves either), whatever the caller asked for, as the reference relay does. `asked` is set when the caller
 * named someone else, for the activity log.
 */
export function resolveUserId(
  requested: string | undefined,
  key: ApiKeyRecord | undefined,
): { userId: string | undefined; asked?: string } {
  const bound = key?.userId;
  if (!bound) return { userId: requested };
  if (requested === undefined || requested.toLowerCase() === bound.toLowerCase()) return { userId: bound };
  return { userId: bound, asked: requested };
}
