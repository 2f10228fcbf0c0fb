import { z } from 'zod';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { RelayServices } from '../services.ts';
import { localRoute, type Route } from '../routing/route.ts';

/** Connected worlds first, then the ones known from pairing that are offline. */
function clientsFor(services: RelayServices, key: ApiKeyRecord | undefined) {
  const allowed = (clientId: string) => !key?.worldIds || key.worldIds.includes(clientId);
  const online = services.tabletop.worlds().filter((world) => allowed(world.clientId));
  const onlineIds = new Set(online.map((world) => world.clientId));
  const offline = services.knownWorlds.list().filter((world) => allowed(world.clientId) && !onlineIds.has(world.clientId));
  return [
    ...online.map((world) => ({
      clientId: world.clientId,
      ...world.metadata,
      connectedSince: world.connectedSince.toISOString(),
      lastSeen: new Date(world.lastSeen).toISOString(),
      ipAddress: world.remoteAddress,
      tokenName: world.tokenName,
      isOnline: true,
    })),
    ...offline.map(({ serverFingerprint: _fingerprint, foundryUrl: _foundryUrl, ...world }) => ({ ...world, isOnline: false })),
  ];
}

export const clientRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/clients',
    summary: 'The worlds this relay knows, with whether each is connected',
    access: { scope: 'clients:read' },
    operation: 'get-clients',
    parameters: z.object({}),
    handle: ({ services, key }) => {
      const clients = clientsFor(services, key);
      return { body: { total: clients.length, clients } };
    },
  }),
];
