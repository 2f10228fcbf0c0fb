import { z } from 'zod';
import { HttpError } from '../errors.ts';
import { shownText, text, wholeNumber } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { INVITATION_PAGE_PATH } from '../auth/invitations.ts';
import type { RelayServices } from '../services.ts';
import type { NewInvitationAnswer } from '../../contracts/invitations.ts';
import type { PlayerListEntry } from '../../contracts/world-protocol.ts';
import { revocationAnswer } from './revocation-answer.ts';

/** Foundry's ASSISTANT role: from it up a user is a GM (`User#isGM`), and a GM is never invited. */
const FIRST_GM_ROLE = 3;

function invitedPlayer(services: RelayServices, clientId: string, userId: string) {
  const world = services.tabletop.world(clientId);
  if (!world) {
    throw new HttpError(
      409,
      `The world '${clientId}' is not connected: start it in Foundry so the relay can see its users, then invite`,
    );
  }
  const worldTitle = world.metadata.worldTitle;
  const player: PlayerListEntry | undefined = world.players.find((candidate) => candidate.id === userId);
  if (!player) throw new HttpError(400, `'${worldTitle ?? clientId}' has no user with the id '${userId}'`);
  if (player.role >= FIRST_GM_ROLE) {
    throw new HttpError(
      400,
      `${player.name} is a GM in '${worldTitle ?? clientId}': invitations are for players. Make a GM's key on the API keys page`,
    );
  }
  return { worldTitle, player };
}

/** The link on one base URL: the secret goes in the fragment, which a browser never sends to a server. */
function linkOn(base: string, secret: string): string {
  return `${base}${INVITATION_PAGE_PATH}#${secret}`;
}

const invitationId = text().describe('The invitation id');
const DAY_MS = 24 * 60 * 60_000;

/** "Invite a player": a one-time link a player opens on their device to receive a key of their own. */
export const invitationRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/invitations',
    summary: 'Player invitations, open, used and expired, with when each expires (never their secrets)',
    access: 'admin',
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { invitations: services.invitations.list() } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/invitations',
    summary:
      "Invite a player: a one-time link (secret in the fragment), working for a week unless lifetimeDays says otherwise, that gives the player's device a key bound to that player in that world, with player scopes; the link is in this answer only",
    access: 'admin',
    parameters: z.object({
      clientId: text().max(200, { error: 'is at most 200 characters' }).describe('The connected world'),
      userId: text()
        .max(200, { error: 'is at most 200 characters' })
        .describe("The Foundry user's id (GET /admin/status lists each world's players); never a GM"),
      name: shownText(100).optional().describe('The name the key gets; "Invitation for <player>" by default'),
      lifetimeDays: wholeNumber({ min: 1, max: 90 })
        .optional()
        .describe('How many days the link works if nobody opens it; a week by default'),
    }),
    handle: ({ parameters, services }) => {
      const { worldTitle, player } = invitedPlayer(services, parameters.clientId, parameters.userId);
      const { secret, record } = services.invitations.create({
        clientId: parameters.clientId,
        ...(worldTitle ? { worldTitle } : {}),
        userId: player.id,
        userName: player.name,
        name: parameters.name ?? `Invitation for ${player.name}`,
        ...(parameters.lifetimeDays === undefined ? {} : { lifetimeMs: parameters.lifetimeDays * DAY_MS }),
      });
      const lanUrls = services.network.lanUrls().map((base) => linkOn(base, secret));
      const body: NewInvitationAnswer = {
        ...record,
        url: lanUrls[0] ?? linkOn(services.network.url(), secret),
        lanUrls,
        lanAccess: services.network.lanAccess(),
      };
      return { status: 201, body, headers: { 'Cache-Control': 'no-store' } };
    },
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/invitations/{id}',
    summary: 'Revoke an invitation: its link stops working (a key already made from it stays in the keys list)',
    access: 'admin',
    parameters: z.object({ id: invitationId }),
    handle: ({ parameters, services }) => {
      const revocation = services.invitations.revoke(parameters.id);
      if (!revocation) throw new HttpError(404, 'No invitation with this id');
      return revocationAnswer({ revoked: true }, revocation);
    },
  }),
];
