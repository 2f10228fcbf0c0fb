// Which folder a world document may sit in, and where a deleted folder's contents go, as Foundry 13 has it.
import type { WorldDocument } from './document.ts';
import type { Game } from './game.ts';
import { FOLDER_DOCUMENT_TYPES, ValidationError } from './schema.ts';

const DOCUMENT_ID = /^[a-zA-Z0-9]{16}$/;

/** The type of folder a document may sit in (a folder's parent holds the folder's own type); undefined when it has none. */
function folderTypeFor(documentName: string, type: unknown): string | undefined {
  if (documentName === 'Folder') return typeof type === 'string' ? type : undefined;
  return FOLDER_DOCUMENT_TYPES.includes(documentName) ? documentName : undefined;
}

function refuse(documentName: string, problem: string): never {
  throw new ValidationError(`${documentName} validation errors:\n  folder: ${problem}`);
}

/**
 * `folder` is a ForeignDocumentField: Foundry takes a folder's id (not its uuid, so `Folder.<id>` is refused as a
 * malformed id) or null, and the folder must exist and hold documents of this type. The first message is Foundry's
 * field validation; Foundry's wording for a missing or mistyped folder is not in the specs, so that one is the
 * sandbox's own, in the same shape. A folder may not sit inside itself or one of its own subfolders.
 */
export function assertFolderReference(
  game: Game,
  target: { documentName: string; type: unknown; id?: string },
  folder: unknown,
): void {
  const folderType = folderTypeFor(target.documentName, target.type);
  if (folderType === undefined || folder === null || folder === undefined || folder === '') return;
  if (typeof folder !== 'string' || !DOCUMENT_ID.test(folder))
    refuse(target.documentName, 'must be a valid 16-character alphanumeric ID');
  const parent = game.folders.get(folder);
  if (!parent || parent.source.type !== folderType)
    refuse(target.documentName, `${folder} is not the id of an existing ${folderType} folder`);
  if (target.documentName === 'Folder' && target.id !== undefined && isWithin(game, parent, target.id))
    refuse(target.documentName, 'a folder may not contain itself');
}

function isWithin(game: Game, folder: WorldDocument, ancestorId: string): boolean {
  for (let current: WorldDocument | undefined = folder; current; current = game.folders.get(current.folderId ?? '')) {
    if (current.id === ancestorId) return true;
  }
  return false;
}

/**
 * `Folder#_onDelete` without `deleteSubfolders`/`deleteContents`: the subfolders and documents move up to the deleted
 * folder's parent, through `updateSource`, so no update hooks fire for them.
 */
export function moveContentsToParent(game: Game, folder: WorldDocument): void {
  const parentId = folder.folderId;
  for (const subfolder of game.folders.filter((candidate) => candidate.folderId === folder.id))
    subfolder.source.folder = parentId;
  for (const document of game.folderContents(folder)) document.source.folder = parentId;
}
