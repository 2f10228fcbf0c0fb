import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { Tabletop } from '../world-link/tabletop.ts';
import type { WorldConnection } from '../world-link/world-connection.ts';
import { HttpError } from '../errors.ts';

/** The world a call goes to: the `clientId` named, or the only one connected (module-protocol.md §5.4). */
export function resolveWorld(
  tabletop: Tabletop,
  clientId: string | undefined,
  key: ApiKeyRecord | undefined,
): WorldConnection {
  const allowed = key?.worldIds;
  if (clientId !== undefined) {
    if (allowed && !allowed.includes(clientId)) {
      throw new HttpError(403, `API key is not authorized for this client: ${clientId}`);
    }
    const world = tabletop.world(clientId);
    if (!world) {
      throw new HttpError(404, 'Invalid client ID', {
        clientId,
        message: 'No world is connected with this client ID; GET /clients lists them',
      });
    }
    return world;
  }
  const worlds = tabletop.worlds().filter((world) => !allowed || allowed.includes(world.clientId));
  if (worlds.length === 1) return worlds[0]!;
  if (worlds.length === 0) {
    throw new HttpError(404, 'No connected Foundry clients found', {
      message: 'Open the Foundry world as its GM with the REST API module enabled and paired with this relay',
    });
  }
  throw new HttpError(400, 'Multiple clients connected. Please specify clientId.', {
    connectedClients: worlds.map((world) => world.clientId),
  });
}

/** The user a call acts as: a key bound to a user always acts as that user and cannot name another. */
export function resolveUserId(requested: string | undefined, key: ApiKeyRecord | undefined): string | undefined {
  const bound = key?.userId;
  if (!bound) return requested;
  if (requested !== undefined && requested.toLowerCase() !== bound.toLowerCase()) {
    throw new HttpError(403, `This API key acts as the tabletop user '${bound}' and cannot act as '${requested}'`);
  }
  return bound;
}
