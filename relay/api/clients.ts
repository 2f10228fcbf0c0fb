import { z } from 'zod';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { RelayServices } from '../services.ts';
import { text } from '../routing/parameters.ts';
import { playerOf } from '../routing/player-view.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { resolveWorld } from '../routing/world-resolution.ts';
import { RELAY_INSTANCE_ID } from '../version.ts';

/**
 * Connected worlds first, then the ones known from pairing that are offline, with the reference relay's fields: times
 * in epoch milliseconds (an offline world has no connection: connectedSince 0; lastSeen 0 when it never connected).
 * Never `publicUrl`: API keys do not see a world's Foundry address (docs/SECURITY.md, item 14). `ipAddress`, where the
 * GM's Foundry page connects from, only to a GM-level key: one bound to no user, or to a GM of that world (item 36).
 */
function clientsFor(services: RelayServices, key: ApiKeyRecord | undefined) {
  const allowed = (clientId: string) => !key?.worldIds || key.worldIds.includes(clientId);
  const online = services.tabletop.worlds().filter((world) => allowed(world.clientId));
  const onlineIds = new Set(online.map((world) => world.clientId));
  const offline = services.knownWorlds
    .list()
    .filter((world) => allowed(world.clientId) && !onlineIds.has(world.clientId));
  return [
    ...online.map((world) => ({
      clientId: world.clientId,
      instanceId: RELAY_INSTANCE_ID,
      lastSeen: world.lastSeen,
      connectedSince: world.connectedSince.getTime(),
      ...world.metadata,
      ...(playerOf(key, world) ? {} : { ipAddress: world.remoteEndpoint }),
      tokenName: world.tokenName,
      isOnline: true,
    })),
    ...offline.map(({ serverFingerprint: _fingerprint, foundryUrl: _foundryUrl, clientId, lastSeen, ...metadata }) => ({
      clientId,
      instanceId: RELAY_INSTANCE_ID,
      lastSeen: lastSeen ? Date.parse(lastSeen) : 0,
      connectedSince: 0,
      ...metadata,
      isOnline: false,
    })),
  ];
}

export const clientRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/clients',
    summary: 'The worlds this relay knows, with whether each is connected',
    access: { scope: 'clients:read' },
    playerView: {
      passes: "the relay's own list of the worlds the key reaches: a world's address only to a GM-level key",
    },
    operation: 'get-clients',
    parameters: z.object({
      clientId: text()
        .optional()
        .describe(
          'A world that must be connected (404 Invalid client ID otherwise); the answer still lists every world',
        ),
    }),
    handle: ({ parameters, services, key }) => {
      if (parameters.clientId !== undefined) resolveWorld(services.tabletop, parameters.clientId, key);
      const clients = clientsFor(services, key);
      return { body: { total: clients.length, clients } };
    },
  }),
];
