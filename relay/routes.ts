import { adminRoutes } from './admin/routes.ts';
import { apiKeyRoutes } from './admin/api-key-routes.ts';
import { captureRoutes } from './admin/capture-routes.ts';
import { downloadRoutes } from './admin/download-routes.ts';
import { keyRequestAdminRoutes } from './admin/key-request-routes.ts';
import { deniedAddressRoutes } from './admin/denied-address-routes.ts';
import { overlayLinkRoutes } from './admin/overlay-link-routes.ts';
import { worldLinkRoutes } from './admin/world-link-routes.ts';
import { worldRoutes } from './admin/world-routes.ts';
import { changeRoutes } from './admin/change-routes.ts';
import { invitationRoutes } from './admin/invitation-routes.ts';
import { invitationPageRoutes } from './api/invitation-page.ts';
import { canvasRoutes } from './api/canvas.ts';
import { chatRoutes } from './api/chat.ts';
import { clientRoutes } from './api/clients.ts';
import { discoveryRoutes } from './api/discovery.ts';
import { dnd5eRoutes } from './api/dnd5e.ts';
import { documentationRoutes } from './api/documentation.ts';
import { effectsRoutes } from './api/effects.ts';
import { encounterRoutes } from './api/encounter.ts';
import { entityRoutes } from './api/entity.ts';
import { eventRoutes } from './api/events.ts';
import { fileRoutes } from './api/files.ts';
import { keyRequestRoutes } from './api/key-requests.ts';
import { macroRoutes } from './api/macro.ts';
import { overlayRoutes } from './api/overlays.ts';
import { pairingRoutes } from './api/pairing.ts';
import { playRoutes } from './api/play.ts';
import { playlistRoutes } from './api/playlist.ts';
import type { Route, RouteGroup } from './routing/route.ts';
import { rollRoutes } from './api/roll.ts';
import { sceneRoutes } from './api/scene.ts';
import { searchRoutes } from './api/search.ts';
import { sessionRoutes } from './api/session.ts';
import { sheetRoutes } from './api/sheet.ts';
import { statusRoutes } from './api/status.ts';
import { structureRoutes } from './api/structure.ts';
import { userRoutes } from './api/user.ts';
import { utilityRoutes } from './api/utility.ts';
import { oauthRoutes } from './mcp/oauth-routes.ts';
import { assistantAdminRoutes } from './mcp/assistant-routes.ts';

/** Every route the relay serves, by the group the documentation files it under. */
export const routeGroups: RouteGroup[] = [
  { name: 'Status', routes: [...statusRoutes, ...discoveryRoutes] },
  { name: 'Auth', routes: [...pairingRoutes, ...keyRequestRoutes, ...invitationPageRoutes, ...apiKeyRoutes] },
  {
    name: 'Admin',
    routes: [
      ...adminRoutes,
      ...worldRoutes,
      ...captureRoutes,
      ...worldLinkRoutes,
      ...keyRequestAdminRoutes,
      ...deniedAddressRoutes,
      ...overlayLinkRoutes,
      ...invitationRoutes,
      ...downloadRoutes,
      ...assistantAdminRoutes,
      ...changeRoutes,
    ],
  },
  { name: 'Clients', routes: clientRoutes },
  { name: 'Effects', routes: effectsRoutes },
  { name: 'Roll', routes: rollRoutes },
  { name: 'Playlist', routes: playlistRoutes },
  { name: 'Structure', routes: structureRoutes },
  { name: 'Search', routes: searchRoutes },
  { name: 'Sheet', routes: sheetRoutes },
  { name: 'Session', routes: sessionRoutes },
  { name: 'Events', routes: eventRoutes },
  { name: 'Utility', routes: utilityRoutes },
  { name: 'Entity', routes: entityRoutes },
  { name: 'Encounter', routes: encounterRoutes },
  { name: 'Canvas', routes: canvasRoutes },
  { name: 'Chat', routes: chatRoutes },
  { name: 'Scene', routes: sceneRoutes },
  { name: 'Macro', routes: macroRoutes },
  { name: 'File System', routes: fileRoutes },
  { name: 'DnD5e', routes: dnd5eRoutes },
  { name: 'User', routes: userRoutes },
  { name: 'Overlays', routes: overlayRoutes },
  { name: 'Player page', routes: playRoutes },
  { name: 'AI assistants', routes: oauthRoutes },
];
routeGroups.push({ name: 'Documentation', routes: documentationRoutes(routeGroups) });

export const allRoutes: readonly Route[] = routeGroups.flatMap((group) => group.routes);
