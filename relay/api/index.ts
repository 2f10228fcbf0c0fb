import { adminRoutes } from '../admin/routes.ts';
import { apiKeyRoutes } from '../admin/api-key-routes.ts';
import { captureRoutes } from '../admin/capture-routes.ts';
import { worldLinkRoutes } from '../admin/world-link-routes.ts';
import { worldRoutes } from '../admin/world-routes.ts';
import { canvasRoutes } from './canvas.ts';
import { chatRoutes } from './chat.ts';
import { clientRoutes } from './clients.ts';
import { dnd5eRoutes } from './dnd5e.ts';
import { documentationRoutes } from './documentation.ts';
import { effectsRoutes } from './effects.ts';
import { encounterRoutes } from './encounter.ts';
import { entityRoutes } from './entity.ts';
import { eventRoutes } from './events.ts';
import { fileRoutes } from './files.ts';
import { macroRoutes } from './macro.ts';
import { pairingRoutes } from './pairing.ts';
import { playlistRoutes } from './playlist.ts';
import type { Route } from './route.ts';
import { rollRoutes } from './roll.ts';
import { sceneRoutes } from './scene.ts';
import { searchRoutes } from './search.ts';
import { sessionRoutes } from './session.ts';
import { sheetRoutes } from './sheet.ts';
import { statusRoutes } from './status.ts';
import { structureRoutes } from './structure.ts';
import { userRoutes } from './user.ts';
import { utilityRoutes } from './utility.ts';

export interface RouteGroup {
  name: string;
  routes: Route[];
}

/** Every route the relay serves, by the group the documentation files it under. */
export const routeGroups: RouteGroup[] = [
  { name: 'Status', routes: statusRoutes },
  { name: 'Auth', routes: [...pairingRoutes, ...apiKeyRoutes] },
  { name: 'Admin', routes: [...adminRoutes, ...worldRoutes, ...captureRoutes, ...worldLinkRoutes] },
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
];
routeGroups.push({ name: 'Documentation', routes: documentationRoutes(routeGroups) });

export const allRoutes: readonly Route[] = routeGroups.flatMap((group) => group.routes);
