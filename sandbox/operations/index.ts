// Every operation the sandbox world answers, by request type. Further groups are added as further tables.
import { effectOperations } from './effects.ts';
import { executeJsOperations } from './execute-js.ts';
import { playlistOperations } from './playlists.ts';
import { rollOperations } from './rolls.ts';
import { searchOperations } from './search.ts';
import { sheetOperations } from './sheet-screenshot.ts';
import { structureOperations } from './structure.ts';
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
};
