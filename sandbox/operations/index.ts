// Every operation the sandbox world answers, by request type. Further groups are added as further tables.
import { canvasOperations } from './canvas.ts';
import { chatOperations } from './chat.ts';
import { dnd5eOperations } from './dnd5e/index.ts';
import { effectOperations } from './effects.ts';
import { encounterOperations } from './encounters.ts';
import { entityOperations } from './entity.ts';
import { executeJsOperations } from './execute-js.ts';
import { fileOperations } from './files.ts';
import { macroOperations } from './macros.ts';
import { playlistOperations } from './playlists.ts';
import { rollOperations } from './rolls.ts';
import { sceneImageOperations } from './scene-images.ts';
import { sceneOperations } from './scenes.ts';
import { searchOperations } from './search.ts';
import { sheetOperations } from './sheet-screenshot.ts';
import { structureOperations } from './structure.ts';
import { userOperations } from './users.ts';
import { utilityOperations } from './utility.ts';
import type { OperationTable } from './context.ts';

export const OPERATIONS: OperationTable = {
  ...effectOperations,
  ...rollOperations,
  ...playlistOperations,
  ...structureOperations,
  ...searchOperations,
  ...sheetOperations,
  ...utilityOperations,
  ...executeJsOperations,
  ...entityOperations,
  ...encounterOperations,
  ...canvasOperations,
  ...chatOperations,
  ...sceneOperations,
  ...sceneImageOperations,
  ...macroOperations,
  ...userOperations,
  ...fileOperations,
  ...dnd5eOperations,
};
