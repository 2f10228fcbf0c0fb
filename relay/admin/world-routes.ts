import { z } from 'zod';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { KnownWorld } from '../auth/known-worlds.ts';
import { HttpError } from '../errors.ts';
import { CloseCode } from '../../contracts/world-protocol.ts';
import type { RelayServices } from '../services.ts';
import type { KnownWorldView } from '../../contracts/admin-api.ts';
import { revocationAnswer } from './revocation-answer.ts';
import type { Revocation } from '../storage/retried-write.ts';

const admin = 'admin' as const;
const clientId = text().max(200).describe("The world's client id, as GET /admin/worlds lists it");
const foundryUrl = text()
  .max(2000)
  .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, { error: 'must be an http(s) URL such as http://localhost:30000' })
  .describe("The world's Foundry address, e.g. http://localhost:30000");

function viewOf(world: KnownWorld, services: RelayServices): KnownWorldView {
  return { ...world, connected: services.tabletop.world(world.clientId) !== undefined };
}

function worldNotFound(): never {
  throw new HttpError(404, 'No known world with this client id; GET /admin/worlds lists them');
}

/** The worlds the relay remembers from pairing: list them, give each its Foundry address, forget one. */
export const worldRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/worlds',
    summary: 'The paired worlds the relay remembers, with whether each is connected now',
    access: admin,
    parameters: z.object({}),
    handle: ({ services }) => ({
      body: { worlds: services.knownWorlds.list().map((world) => viewOf(world, services)) },
    }),
  }),
  localRoute({
    method: 'PATCH',
    path: '/admin/worlds/{clientId}',
    summary: "Set or clear the world's Foundry address, the only page a GM session for this world may open",
    access: admin,
    parameters: z.object({
      clientId,
      // An empty value arrives here as absent (the parser drops empty strings), so absent, "" and null all clear it.
      foundryUrl: foundryUrl
        .nullish()
        .describe('The world\'s Foundry address, e.g. http://localhost:30000; "" or null clears it'),
    }),
    handle: ({ parameters, services }) => ({
      body: viewOf(
        services.knownWorlds.setFoundryUrl(parameters.clientId, parameters.foundryUrl ?? undefined) ?? worldNotFound(),
        services,
      ),
    }),
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/worlds/{clientId}',
    summary:
      'Forget a world: its connection tokens are revoked and it is disconnected; it must pair again to come back',
    access: admin,
    parameters: z.object({ clientId }),
    handle: ({ parameters, services }) => {
      if (!services.knownWorlds.get(parameters.clientId)) worldNotFound();
      return revocationAnswer({ forgotten: true }, ...forgetWorld(parameters.clientId, services));
    },
  }),
];

/** Tokens first: once they are gone the world cannot come back. Each part takes effect even on a full disk. */
function forgetWorld(worldClientId: string, services: RelayServices): Revocation[] {
  const revocations: Revocation[] = [];
  for (const token of services.connectionTokens.list()) {
    if (token.clientId === worldClientId) revocations.push(services.connectionTokens.revoke(token.id) ?? {});
  }
  services.tabletop
    .world(worldClientId)
    ?.close(CloseCode.noAuth, 'The game master forgot this world in Tabletop Relay');
  revocations.push(services.knownWorlds.forget(worldClientId) ?? {});
  return revocations;
}
