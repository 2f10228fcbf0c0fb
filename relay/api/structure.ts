import { z } from 'zod';
import { DOCUMENT_TYPES } from '../../contracts/world-protocol.ts';
import { HttpError } from '../errors.ts';
import { flag, oneOf, text, textList, wholeNumber } from '../routing/parameters.ts';
import { fieldsOf } from '../objects.ts';
import { localRoute, worldRoute, type Route, type WorldAsk } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD, WORLD_FILTERS } from '../routing/player-view.ts';
import { creating, deleting } from '../journal/changes.ts';
import { folderWithContents } from '../journal/touched.ts';

const documentTypeList = textList().pipe(
  z.array(oneOf(DOCUMENT_TYPES), { error: `must list document types: ${DOCUMENT_TYPES.join(', ')}` }),
);

/**
 * A folder's document type as the world has it, or undefined when the world cannot say (it then answers the call
 * itself). Deleting a Macro folder with its contents deletes macros, which needs `macro:write` as any change of a
 * macro does (relay/api/entity.ts).
 */
async function folderTypeOf(folderId: string, askWorld: WorldAsk): Promise<unknown> {
  const answer = await askWorld('entity', { uuid: `Folder.${folderId}` }).catch(() => undefined);
  return fieldsOf(answer?.data)?.type;
}

export const structureRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/structure',
    summary: 'The folder and compendium structure of the world',
    access: { scope: 'structure:read' },
    playerView: WORLD_FILTERS,
    parameters: z.object({
      includeEntityData: flag().default(false).describe('Full entity data instead of UUIDs and names'),
      path: text().optional().describe('Folder.<id> or Compendium.<pack> to read from; omit for the root'),
      recursive: flag().default(false).describe('Descend the folder tree'),
      recursiveDepth: wholeNumber({ min: 1, max: 50 }).default(5).describe('How deep to descend'),
      // The module filters on the message type when `types` is missing, so the relay always sends the list.
      types: documentTypeList.default([...DOCUMENT_TYPES]).describe('Document types, comma-separated or a JSON array'),
    }),
    operation: 'structure',
  }),
  worldRoute({
    method: 'GET',
    path: '/get-folder',
    summary: 'A folder, found by its exact name, with its contents',
    access: { scope: 'structure:read' },
    playerView: WORLD_FILTERS,
    from: 'body+query',
    parameters: z.object({ name: text().describe('Exact folder name') }),
    operation: 'get-folder',
  }),
  worldRoute({
    method: 'POST',
    path: '/create-folder',
    summary: 'Create a folder',
    access: { scope: 'structure:write' },
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({
      name: text().describe('Folder name'),
      folderType: oneOf(DOCUMENT_TYPES).describe('The document type the folder holds'),
      parentFolderId: text().optional().describe('Parent folder id; omit for the root level'),
    }),
    operation: 'create-folder',
    changes: {
      touches: () => [],
      made: (answer) => [fieldsOf(answer.data)?.uuid].filter((uuid): uuid is string => typeof uuid === 'string'),
      predict: creating((p) => [
        { documentName: 'Folder', document: { name: p.name, type: p.folderType, folder: p.parentFolderId ?? null } },
      ]),
    },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/delete-folder',
    summary: 'Delete a folder',
    access: { scope: 'structure:write' },
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({
      folderId: text().describe('Folder id'),
      deleteAll: flag().default(false).describe('Also delete the entities and folders inside'),
    }),
    operation: 'delete-folder',
    alsoRequires: async (p, askWorld) =>
      p.deleteAll && (await folderTypeOf(p.folderId, askWorld)) === 'Macro' ? 'macro:write' : undefined,
    changes: {
      // With deleteAll every document and folder inside goes too; without, the world deletes only an empty folder.
      touches: (p, askWorld) => (p.deleteAll ? folderWithContents(p.folderId, askWorld) : [`Folder.${p.folderId}`]),
      predict: deleting,
    },
  }),
  localRoute({
    method: 'GET',
    path: '/contents/{path}',
    operation: 'contents',
    summary: 'Deprecated: use GET /structure?path=',
    access: { scope: 'structure:read' },
    playerView: { passes: 'deprecated: it answers only where to ask instead' },
    parameters: z.object({ path: z.string().describe('The folder or compendium path') }),
    handle: () => {
      throw new HttpError(400, 'This endpoint has been deprecated.', {
        message: 'Use GET /structure with the path query parameter instead.',
        example: '/structure?path=Folder.<folder id>&recursive=true',
      });
    },
  }),
];
