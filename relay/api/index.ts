import { adminRoutes } from '../admin/routes.ts';
import { apiKeyRoutes } from '../admin/api-key-routes.ts';
import { canvasRoutes } from './canvas.ts';
import { chatRoutes } from './chat.ts';
import { dnd5eRoutes } from './dnd5e.ts';
import { encounterRoutes } from './encounter.ts';
import { entityRoutes } from './entity.ts';
import { fileRoutes } from './files.ts';
import { macroRoutes } from './macro.ts';
import { sceneRoutes } from './scene.ts';
import { userRoutes } from './user.ts';
import { clientRoutes } from './clients.ts';
import { effectsRoutes } from './effects.ts';
import { eventRoutes } from './events.ts';
import { pairingRoutes } from './pairing.ts';
import { playlistRoutes } from './playlist.ts';
import type { Route } from './route.ts';
import { rollRoutes } from './roll.ts';
import { searchRoutes } from './search.ts';
import { sheetRoutes } from './sheet.ts';
import { statusRoutes } from './status.ts';
import { structureRoutes } from './structure.ts';
import { utilityRoutes } from './utility.ts';

/** Every route the relay serves. More specific paths come first where two could match. */
export const allRoutes: readonly Route[] = [
  ...statusRoutes,
  ...pairingRoutes,
  ...adminRoutes,
  ...apiKeyRoutes,
  ...clientRoutes,
  ...effectsRoutes,
  ...rollRoutes,
  ...playlistRoutes,
  ...structureRoutes,
  ...searchRoutes,
  ...sheetRoutes,
  ...eventRoutes,
  ...utilityRoutes,
  ...entityRoutes,
  ...encounterRoutes,
  ...canvasRoutes,
  ...chatRoutes,
  ...sceneRoutes,
  ...macroRoutes,
  ...fileRoutes,
  ...dnd5eRoutes,
  ...userRoutes,
];
