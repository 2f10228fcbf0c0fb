// structure, get-folder, create-folder, delete-folder (module-operations.md §5).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { OWNERSHIP, type WorldDocument } from '../world/document.ts';
import type { CompendiumPack, Game } from '../world/game.ts';
import type { PlainObject } from '../world/objects.ts';
import { assertGM, hasPermission } from '../world/permissions.ts';
import { isTrue, reply, withUser, type OperationTable } from './context.ts';

const ALL_TYPES = ['Scene', 'Actor', 'Item', 'JournalEntry', 'RollTable', 'Cards', 'Macro', 'Playlist'];
/** Document types whose documents have an `img` field. */
const TYPES_WITH_IMG = new Set(['Actor', 'Item', 'RollTable', 'Cards', 'Macro', 'User']);

interface StructureOptions {
  game: Game;
  user: WorldDocument | null;
  types: string[];
  includeEntityData: boolean;
  recursive: boolean;
  recursiveDepth: number;
}

/** The module reads `data.types || data.type`, and on the wire `type` is always the action name. */
function parseTypes(request: WorldRequest): string[] {
  const raw = request.types || request.type;
  if (Array.isArray(raw)) return raw.map(String);
  if (!raw) return ALL_TYPES;
  return String(raw)
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
}

function entityRow(options: StructureOptions, entity: WorldDocument): PlainObject | null {
  const full = () =>
    options.includeEntityData
      ? entity.toObject()
      : { uuid: entity.uuid, name: entity.name, id: entity.id, type: entity.documentName };
  if (!options.user) return full();
  if (hasPermission(options.game, entity, options.user, OWNERSHIP.OBSERVER)) return full();
  if (hasPermission(options.game, entity, options.user, OWNERSHIP.LIMITED)) {
    return { uuid: entity.uuid, name: entity.name, id: entity.id, type: entity.documentName, img: entity.img || null };
  }
  return null;
}

function entityRows(options: StructureOptions, entities: WorldDocument[]): PlainObject[] {
  return entities.map((entity) => entityRow(options, entity)).filter((row): row is PlainObject => row !== null);
}

function folderEntities(options: StructureOptions, folder: WorldDocument): PlainObject[] {
  return entityRows(
    options,
    options.game.folderContents(folder).filter((entity) => options.types.includes(entity.documentName)),
  );
}

function folderNode(options: StructureOptions, folder: WorldDocument, children: PlainObject): PlainObject {
  const node: PlainObject = { id: folder.id, uuid: folder.uuid, type: folder.source.type, ...children };
  const entities = folderEntities(options, folder);
  if (entities.length > 0) node.entities = entities;
  return node;
}

function buildTree(options: StructureOptions, parent: WorldDocument | null, depth: number): PlainObject {
  const tree: PlainObject = {};
  if (!options.recursive || depth >= options.recursiveDepth) return tree;
  const children = options.game.folders.filter(
    (folder) => folder.folderId === (parent?.id ?? null) && options.types.includes(folder.source.type as string),
  );
  for (const folder of children)
    tree[folder.name || folder.id] = folderNode(options, folder, buildTree(options, folder, depth + 1));
  return tree;
}

function packRows(
  pack: CompendiumPack,
  includeEntityData: boolean,
  typeOfEntry: (entry: PlainObject) => unknown,
): PlainObject[] {
  return packIndex(pack).map((entry) =>
    includeEntityData
      ? { ...entry }
      : {
          uuid: entry.uuid || `${pack.collection}.${entry._id}`,
          name: entry.name,
          id: entry._id,
          type: typeOfEntry(entry),
        },
  );
}

/** `pack.getIndex()`: the default index fields of each compendium document. */
export function packIndex(pack: CompendiumPack): PlainObject[] {
  return pack.documents.contents.map((document) => {
    const entry: PlainObject = { _id: document.id, name: document.name, img: document.img, uuid: document.uuid };
    if (document.type !== undefined) entry.type = document.type;
    return entry;
  });
}

function compendiumStructure(options: StructureOptions, path: string): PlainObject {
  const pack = options.game.packs.get(path.slice('Compendium.'.length));
  if (!pack) throw new Error(`Compendium not found: ${path}`);
  return {
    compendium: {
      name: pack.title,
      type: pack.documentName,
      entities: packRows(pack, options.includeEntityData, () => pack.documentName),
    },
  };
}

function folderStructure(options: StructureOptions, path: string): PlainObject {
  const id = /Folder\.([a-zA-Z0-9]+)/.exec(path)?.[1];
  if (!id) throw new Error(`Invalid folder path: ${path}`);
  const folder = options.game.folders.get(id);
  if (!folder) throw new Error(`Folder not found: ${path}`);
  if (!options.types.includes(folder.source.type as string))
    throw new Error(`Folder type ${folder.source.type} not included in requested types`);
  const result: PlainObject = { folders: options.recursive ? buildTree(options, folder, 0) : {} };
  const entities = folderEntities(options, folder);
  if (entities.length > 0) result.entities = entities;
  return result;
}

function rootStructure(options: StructureOptions, withPacks: boolean): PlainObject {
  const { game, types } = options;
  let folders: PlainObject = {};
  if (options.recursive) {
    folders = buildTree(options, null, 0);
  } else {
    for (const folder of game.folders.filter((f) => f.folderId === null && types.includes(f.source.type as string))) {
      folders[folder.name || folder.id] = folderNode(options, folder, {});
    }
  }
  const result: PlainObject = { folders };
  const entities: PlainObject = {};
  for (const type of types) {
    const rows = entityRows(options, game.collectionOf(type)?.filter((entity) => entity.folderId === null) ?? []);
    if (ALL_TYPES.includes(type) && rows.length > 0) entities[`${type.toLowerCase()}s`] = rows;
  }
  if (Object.keys(entities).length > 0) result.entities = entities;
  if (withPacks) result.compendiumPacks = compendiumPacks(options);
  return result;
}

function compendiumPacks(options: StructureOptions): PlainObject {
  const packs: PlainObject = {};
  for (const pack of options.game.packs.values()) {
    if (!options.types.includes(pack.documentName)) continue;
    const node: PlainObject = {
      id: pack.collection,
      name: pack.title,
      type: pack.documentName,
      uuid: `Compendium.${pack.collection}`,
    };
    const rows = packRows(pack, options.includeEntityData, (entry) => entry.type || pack.documentName);
    if (rows.length > 0) node.entities = rows;
    packs[pack.title || pack.collection] = node;
  }
  return packs;
}

function childFolders(game: Game, folder: WorldDocument): WorldDocument[] {
  return game.folders.filter((candidate) => candidate.folderId === folder.id);
}

/** Depth-first: subfolders, then the folder's documents, then the folder itself. */
function deleteRecursively(game: Game, folder: WorldDocument): { entitiesDeleted: number; foldersDeleted: number } {
  const counts = { entitiesDeleted: 0, foldersDeleted: 1 };
  for (const child of childFolders(game, folder)) {
    const childCounts = deleteRecursively(game, child);
    counts.entitiesDeleted += childCounts.entitiesDeleted;
    counts.foldersDeleted += childCounts.foldersDeleted;
  }
  const contents = game.folderContents(folder);
  for (const entity of contents) game.deleteDocument(entity);
  counts.entitiesDeleted += contents.length;
  game.deleteDocument(folder);
  return counts;
}

function folderSummary(folder: WorldDocument): PlainObject {
  return {
    id: folder.id,
    uuid: folder.uuid,
    name: folder.name,
    type: folder.source.type,
    parentFolder: folder.folderId || null,
  };
}

export const structureOperations: OperationTable = {
  structure: withUser({ data: {} }, (request, { game }, user) => {
    const options: StructureOptions = {
      game,
      user,
      types: parseTypes(request),
      includeEntityData: isTrue(request.includeEntityData),
      recursive: isTrue(request.recursive),
      recursiveDepth: Number(request.recursiveDepth) || 5,
    };
    const path = (request.path as string | undefined) || null;
    let data: PlainObject;
    if (path?.startsWith('Compendium.')) data = compendiumStructure(options, path);
    else if (path?.startsWith('Folder.')) data = folderStructure(options, path);
    else data = rootStructure(options, !path);
    return reply(request, { data });
  }),

  'get-folder': withUser({ data: null }, (request, { game }, user) => {
    const folder = game.folders.find((candidate) => candidate.name === request.name);
    if (!folder) throw new Error(`Folder not found with name: ${request.name}`);
    const visible = game
      .folderContents(folder)
      .filter((entity) => !user || hasPermission(game, entity, user, OWNERSHIP.LIMITED));
    const contents = visible.map((entity) => ({
      uuid: entity.uuid,
      id: entity.id,
      name: entity.name,
      type: entity.documentName,
      img: TYPES_WITH_IMG.has(entity.documentName) ? entity.img : null,
    }));
    return reply(request, { data: { ...folderSummary(folder), contents } });
  }),

  'create-folder': withUser({ data: null }, (request, { game }, user) => {
    if (user) assertGM(user, 'create folders');
    const data: PlainObject = { name: request.name, type: request.folderType };
    const parentId = request.parentFolderId as string | undefined;
    if (parentId) {
      if (!game.folders.get(parentId)) throw new Error(`Parent folder not found with ID: ${parentId}`);
      data.folder = parentId;
    }
    const folderId = request.folderId as string | undefined;
    const existing = folderId ? game.folders.get(folderId) : undefined;
    const folder =
      existing ??
      game.createDocument('Folder', folderId ? { ...data, _id: folderId } : data, { keepId: Boolean(folderId) });
    return reply(request, { data: folderSummary(folder) });
  }),

  'delete-folder': withUser({ data: null }, (request, { game }, user) => {
    if (user) assertGM(user, 'delete folders');
    const folderId = request.folderId as string;
    const folder = game.folders.get(folderId);
    if (!folder) throw new Error(`Folder not found with ID: ${folderId}`);
    let counts = { entitiesDeleted: 0, foldersDeleted: 1 };
    if (isTrue(request.deleteAll)) {
      counts = deleteRecursively(game, folder);
    } else {
      const entities = game.folderContents(folder).length;
      if (entities > 0)
        throw new Error(`Folder contains ${entities} entities. Use deleteAll=true to delete them or move them first.`);
      const children = childFolders(game, folder).length;
      if (children > 0)
        throw new Error(
          `Folder contains ${children} child folders. Use deleteAll=true to delete them or move them first.`,
        );
      game.deleteDocument(folder);
    }
    return reply(request, { data: { deleted: true, folderId, ...counts } });
  }),
};
