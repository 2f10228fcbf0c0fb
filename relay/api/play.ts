import { z } from 'zod';
import { playFile, PLAY_MANIFEST, PLAY_PAGE, PLAY_PAGE_HEADERS } from '../play/page.ts';
import { playSession } from '../play/session.ts';
import { playerStream } from '../play/stream.ts';
import { viewerOf } from '../play/viewer.ts';
import { text } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';

// The player page: what an invitation opens on a player's phone. The page and its files are public and hold nothing;
// what it shows comes from keyed routes, its own two below and the API's, with the key a player's invitation made.

const NO_STORE = { 'Cache-Control': 'no-store' };
const MANIFEST = new TextEncoder().encode(PLAY_MANIFEST);

const world = { clientId: text().optional().describe('The world, when the key reaches several') };

export const playRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/play',
    summary: "The player page: a player's character, dice and table on their phone, opened by their invitation",
    access: 'public',
    parameters: z.object({}),
    produces: 'text/html',
    handle: () => ({ kind: 'html', html: PLAY_PAGE, headers: PLAY_PAGE_HEADERS }),
  }),
  localRoute({
    method: 'GET',
    path: '/play/manifest.webmanifest',
    summary: "The player page's web app manifest, for a phone's home screen",
    access: 'public',
    parameters: z.object({}),
    produces: 'application/manifest+json',
    handle: () => ({
      kind: 'bytes',
      bytes: MANIFEST,
      headers: { 'Content-Type': 'application/manifest+json', 'Cache-Control': 'no-cache' },
    }),
  }),
  localRoute({
    method: 'GET',
    path: '/play/sw.js',
    summary: "The player page's service worker: the page's own files, kept for when the relay cannot be reached",
    access: 'public',
    parameters: z.object({}),
    produces: 'text/javascript',
    handle: ({ services }) => playFile(services.settingsUiDir, 'sw.js'),
  }),
  localRoute({
    method: 'GET',
    path: '/play/assets/{file}',
    summary: "The player page's script, style sheet and icons",
    access: 'public',
    parameters: z.object({ file: text().describe('play.js, play.css or an icon') }),
    handle: ({ parameters, services }) => playFile(services.settingsUiDir, parameters.file),
  }),
  localRoute({
    method: 'GET',
    path: '/play/me',
    summary: "Who a user-bound key acts as, its world and system, the world's GMs, and the actors the user owns",
    access: { scope: 'entity:read' },
    playerView: { passes: 'the world lists, as the user, the actors that user owns' },
    operation: 'play-me',
    parameters: z.object(world),
    handle: async ({ key, parameters, services }) => ({
      body: await playSession(viewerOf(key, services, parameters.clientId)),
      headers: NO_STORE,
    }),
  }),
  localRoute({
    method: 'GET',
    path: '/play/events',
    summary:
      "The player page's live stream (Server-Sent Events): `combat`, `chat` and `playing` views as the user sees them, each again when it changed, and the changes of one actor the user owns (`actor-update`, …)",
    access: { scope: 'events:subscribe' },
    playerView: {
      passes:
        'built by asking the world as the user, the combat sorted as GET /encounters is; only an actor the user owns has its changes passed on',
    },
    operation: 'play-events',
    parameters: z.object({
      ...world,
      actorUuid: text().optional().describe('An actor the user owns, whose changes the stream passes on'),
    }),
    produces: 'text/event-stream',
    handle: ({ key, parameters, services }) =>
      playerStream(viewerOf(key, services, parameters.clientId), parameters.actorUuid),
  }),
];
