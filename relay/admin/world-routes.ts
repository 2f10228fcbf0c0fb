import { z } from 'zod';
import { foundryAddress, text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { KnownWorld } from '../auth/known-worlds.ts';
import { HttpError } from '../errors.ts';
import { CloseCode } from '../../contracts/world-protocol.ts';
import type { RelayServices } from '../services.ts';
import type { KnownWorldView } from '../../contracts/admin-api.ts';
import { revocationAnswer } from './revocation-answer.ts';
import type { Revocation } from '../storage/retried-write.ts';
import type { WorldKeepers } from '../keeper/world-keepers.ts';

const admin = 'admin' as const;
const clientId = text().max(200).describe("The world's client id, as GET /admin/worlds lists it");
const foundryUrl = foundryAddress().describe("The world's Foundry address, e.g. http://localhost:30000");

const password = (what: string) =>
  z
    .string({ error: 'must be a string' })
    .max(1000)
    .describe(`${what}; stored encrypted, never shown back; omit to keep the stored one`);

function viewOf(world: KnownWorld, services: RelayServices): KnownWorldView {
  return {
    ...world,
    connected: services.tabletop.world(world.clientId) !== undefined,
    ...(services.keepers ? { keeper: services.keepers.view(world.clientId) } : {}),
  };
}

function keepersOf(services: RelayServices): WorldKeepers {
  if (!services.keepers)
    throw new HttpError(409, 'Keeping a world online needs browser capture, which is turned off in this relay');
  return services.keepers;
}

interface KeeperChange {
  keepOnline?: boolean;
  keeperUsername?: string;
  keeperPassword?: string;
  foundryAdminPassword?: string | null;
}

/** Stores a keeper change; switching it on needs the world's Foundry address and the keeper's user and password. */
function configureKeeper(world: KnownWorld, change: KeeperChange, services: RelayServices): void {
  const { keepOnline, keeperUsername, keeperPassword, foundryAdminPassword } = change;
  if ([keepOnline, keeperUsername, keeperPassword, foundryAdminPassword].every((value) => value === undefined)) return;
  const keepers = keepersOf(services);
  if (keepOnline) {
    const current = keepers.view(world.clientId);
    if (!world.foundryUrl)
      throw new HttpError(400, "Set the world's Foundry address (foundryUrl) before keeping it online");
    if (!(keeperUsername ?? current.username) || (keeperPassword === undefined && !current.passwordSet))
      throw new HttpError(
        400,
        'Give the keeper a Foundry user of its own with the Gamemaster role (keeperUsername) and its password (keeperPassword) before keeping the world online',
      );
  }
  keepers.configure(world.clientId, {
    enabled: keepOnline,
    username: keeperUsername,
    password: keeperPassword,
    adminPassword: foundryAdminPassword === null ? '' : foundryAdminPassword,
  });
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
    summary:
      "Set or clear the world's Foundry address (the only page a GM session or the world's keeper may open), and switch its keeper on or off",
    access: admin,
    parameters: z.object({
      clientId,
      // An empty value arrives here as absent (the parser drops empty strings), so absent, "" and null all clear it.
      foundryUrl: foundryUrl
        .nullish()
        .describe(
          'The world\'s Foundry address, e.g. http://localhost:30000; "" or null clears it, and so does leaving it out of a call that changes nothing about the keeper',
        ),
      keepOnline: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .describe("Keep the world online without a GM's browser: the keeper logs its own Foundry user in offscreen"),
      keeperUsername: text()
        .max(200)
        .optional()
        .describe('The Foundry user the keeper logs in as: a user of its own with the Gamemaster role'),
      keeperPassword: password("The keeper's Foundry user's password").optional(),
      foundryAdminPassword: password(
        "Foundry's administrator password, so the keeper may launch the world from Foundry's setup screen; null forgets it",
      ).nullish(),
    }),
    handle: ({ parameters, services }) => {
      const { clientId: worldId, foundryUrl: address, ...keeperChange } = parameters;
      const known = services.knownWorlds.get(worldId) ?? worldNotFound();
      // A call about the keeper alone leaves the address as it is; otherwise an absent address clears it, as before.
      const changesKeeper = Object.values(keeperChange).some((value) => value !== undefined);
      const world =
        address !== undefined || !changesKeeper
          ? (services.knownWorlds.setFoundryUrl(worldId, address ?? undefined) ?? worldNotFound())
          : known;
      if (world.foundryUrl !== known.foundryUrl) services.keepers?.addressChanged(worldId);
      configureKeeper(world, keeperChange, services);
      return { body: viewOf(world, services) };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/admin/worlds/{clientId}/keeper-test',
    summary:
      "Log in once as the world's keeper (the stored user, or the one given) and say in words whether it can keep the world online",
    access: admin,
    parameters: z.object({
      clientId,
      keeperUsername: text().max(200).optional().describe('A user to try instead of the stored one'),
      keeperPassword: password('The password to try with it').optional(),
    }),
    handle: async ({ parameters, services }) => {
      if (!services.knownWorlds.get(parameters.clientId)) worldNotFound();
      const result = await keepersOf(services).test(parameters.clientId, {
        ...(parameters.keeperUsername !== undefined ? { username: parameters.keeperUsername } : {}),
        ...(parameters.keeperPassword !== undefined ? { password: parameters.keeperPassword } : {}),
      });
      return { body: result };
    },
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/worlds/{clientId}',
    summary:
      'Forget a world: its connection tokens are revoked and it is disconnected; it must pair again to come back',
    access: admin,
    parameters: z.object({ clientId }),
    handle: async ({ parameters, services }) => {
      if (!services.knownWorlds.get(parameters.clientId)) worldNotFound();
      return revocationAnswer({ forgotten: true }, ...(await forgetWorld(parameters.clientId, services)));
    },
  }),
];

/**
 * The keeper first, so its page lets go; then the tokens: once they are gone the world cannot come back. Each part
 * takes effect even on a full disk.
 */
async function forgetWorld(worldClientId: string, services: RelayServices): Promise<Revocation[]> {
  await services.keepers?.forget(worldClientId);
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
