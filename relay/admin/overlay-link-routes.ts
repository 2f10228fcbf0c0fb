import { z } from 'zod';
import { flag, oneOf, text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { HttpError } from '../errors.ts';
import { MAX_CUSTOM_CSS_BYTES } from '../auth/overlay-links.ts';
import { OVERLAY_NAMES, OVERLAYS } from '../../contracts/overlays.ts';
import type { NewOverlayLink, OverlayLinkView } from '../../contracts/admin-api.ts';
import type { RelayServices } from '../services.ts';
import { revocationAnswer } from './revocation-answer.ts';

// Overlay links for OBS: made, changed, rotated and revoked here, by the settings UI and local scripts (admin token).

const admin = 'admin' as const;
const linkId = text().describe('The overlay link id');
const name = text().max(100, { error: 'is at most 100 characters' }).describe('What the list calls the link');
const customCss = z
  .string({ error: 'must be a string' })
  .max(MAX_CUSTOM_CSS_BYTES, { error: `is at most ${MAX_CUSTOM_CSS_BYTES / 1024} KiB` })
  .describe("CSS applied after the overlay's own");
const hpBars = flag().describe("initiative: show combatants' HP as bars");
const clearable = (description: string) =>
  z.string({ error: 'must be a string or null' }).trim().max(200).nullable().optional().describe(description);

function linkNotFound(): never {
  throw new HttpError(404, 'No overlay link with this id; GET /admin/overlay-links lists them');
}

/** A link shows a world the relay knows: one paired (and not forgotten) or connected now. */
function worldTitleOf(clientId: string, services: RelayServices): string | undefined {
  const known = services.knownWorlds.get(clientId);
  const connected = services.tabletop.world(clientId);
  if (!known && !connected) {
    throw new HttpError(
      404,
      `No paired world has the client id ${clientId}: pair the world first, or pick one GET /admin/worlds lists`,
    );
  }
  return known?.customName ?? known?.worldTitle ?? connected?.metadata.worldTitle;
}

/** The answer that carries the secret: the record, the link, and the URL and size to give OBS. */
function newLinkAnswer(created: { link: string; record: OverlayLinkView }, services: RelayServices): NewOverlayLink {
  const { overlay } = created.record;
  return {
    record: created.record,
    link: created.link,
    url: `${services.network.url()}/overlays/${overlay}?link=${created.link}`,
    size: { ...OVERLAYS[overlay].size },
  };
}

export const overlayLinkRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/overlay-links',
    summary: 'Overlay links (never the links themselves), with what each opens and when it was last used',
    access: admin,
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { links: services.overlayLinks.list() } }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/overlay-links',
    summary:
      "Make an overlay link for one overlay of one world; the link and the overlay's URL are in this answer only",
    access: admin,
    parameters: z.object({
      overlay: oneOf(OVERLAY_NAMES).describe('The overlay it opens'),
      clientId: text().max(200).describe("The world's client id, as GET /admin/worlds lists it"),
      name: name.optional(),
      userId: text()
        .max(200)
        .optional()
        .describe('See as this tabletop user (id or name): their whispers and hidden rolls only'),
      actorUuid: text().max(200).optional().describe('character-card: the actor shown, e.g. Actor.abc123'),
      hpBars: hpBars.optional(),
      customCss: customCss.optional(),
    }),
    handle: ({ parameters, services }) => {
      const worldTitle = worldTitleOf(parameters.clientId, services);
      const created = services.overlayLinks.create({ ...parameters, worldTitle });
      return { status: 201, body: newLinkAnswer(created, services) };
    },
  }),
  localRoute({
    method: 'PATCH',
    path: '/admin/overlay-links/{id}',
    summary: "Change a link's name, user, actor, HP bars or custom CSS; its open overlays reconnect with the change",
    access: admin,
    parameters: z.object({
      id: linkId,
      name: name.optional(),
      userId: clearable('See as this tabletop user; null sees as the GM sees what is public'),
      actorUuid: clearable('character-card: the actor shown'),
      hpBars: hpBars.optional(),
      customCss: customCss.optional(),
    }),
    handle: ({ parameters: { id, userId, actorUuid, ...changes }, services }) => {
      const updated = services.overlayLinks.update(id, {
        ...changes,
        ...(userId !== undefined ? { userId: userId ?? '' } : {}),
        ...(actorUuid !== undefined ? { actorUuid: actorUuid ?? '' } : {}),
      });
      return { body: updated ?? linkNotFound() };
    },
  }),
  localRoute({
    method: 'POST',
    path: '/admin/overlay-links/{id}/rotate',
    summary: "Replace a link's secret; the old URL stops working at once, its open overlays within a second",
    access: admin,
    parameters: z.object({ id: linkId }),
    handle: ({ parameters, services }) => ({
      body: newLinkAnswer(services.overlayLinks.rotate(parameters.id) ?? linkNotFound(), services),
    }),
  }),
  localRoute({
    method: 'DELETE',
    path: '/admin/overlay-links/{id}',
    summary: 'Revoke an overlay link; its open overlays stop within a second',
    access: admin,
    parameters: z.object({ id: linkId }),
    handle: ({ parameters, services }) => {
      return revocationAnswer({ revoked: true }, services.overlayLinks.revoke(parameters.id) ?? linkNotFound());
    },
  }),
];
