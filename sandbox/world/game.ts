// The simulated `game`: world collections, compendium packs, settings, canvas and audio state, and the
// document lifecycle (create/update/delete) that fires Foundry's hooks with Foundry's argument order.
import { DocumentCollection, WorldDocument, embeddedFieldOf, embeddedNamesOf } from './document.ts';
import { assertFolderReference, moveContentsToParent } from './folders.ts';
import { Hooks } from './hooks.ts';
import { adaptSourceTo14, splitSceneChanges } from './foundry-14.ts';
import { deepClone, diffObject, expandObject, isPlainObject, mergeInto, type PlainObject } from './objects.ts';
import { randomDocumentId, type RandomSource } from './random.ts';
import { firstLevel } from './scenes.ts';
import { prepareSource, ValidationError } from './schema.ts';

export interface WorldInfo {
  id: string;
  title: string;
}
export interface SystemInfo {
  id: string;
  title: string;
  version: string;
}
export interface ModuleInfo {
  id: string;
  title: string;
  version: string;
  active: boolean;
}
export interface StatusEffectConfig {
  id: string;
  name: string;
  img: string;
}

/** World settings of the `foundry-rest-api` module that change what operations do. */
export interface ModuleSettings {
  allowExecuteJs: boolean;
  codeExecutionPermission: number;
  notifyOnExecuteJs: boolean;
  allowMacroExecute: boolean;
  /** Lets `create`, `update` and `delete` touch Macro documents (macros run code). */
  allowMacroWrite: boolean;
}

export interface CompendiumPack {
  collection: string;
  title: string;
  documentName: string;
  documents: DocumentCollection;
}

/** A sound in `game.audio.playing`; non-looping sounds end on their own at `endsAt`. */
export interface PlayingSound {
  id: string;
  src: string;
  volume: number;
  loop: boolean;
  endsAt: number | null;
}

export interface DieResults {
  faces: number;
  results: { result: number; active: boolean }[];
}

/** An entry of the module's `recentRolls` buffer. */
export interface RollEntry {
  id: string;
  messageId: string | null;
  user: { id: string | undefined; name: string | undefined } | null;
  speaker: unknown;
  flavor: string;
  rollTotal: number;
  formula: string;
  isCritical: boolean;
  isFumble: boolean;
  dice: DieResults[];
  timestamp: number;
}

export const MAX_ROLLS_STORED = 20;

/** The world collection of each primary document type (`game.actors`, `game.journal`, ...). */
const COLLECTION_NAMES = {
  User: 'users',
  Actor: 'actors',
  Item: 'items',
  Scene: 'scenes',
  JournalEntry: 'journal',
  RollTable: 'tables',
  Cards: 'cards',
  Macro: 'macros',
  Playlist: 'playlists',
  Folder: 'folders',
  Combat: 'combats',
  ChatMessage: 'messages',
} as const;
type WorldCollectionName = (typeof COLLECTION_NAMES)[keyof typeof COLLECTION_NAMES];

export interface GameOptions {
  world: WorldInfo;
  system: SystemInfo;
  version: string;
  random: RandomSource;
  diceRandom: RandomSource;
  now: () => number;
}

interface LifecycleOptions {
  /** The user the change is attributed to in hooks; defaults to the GM running the module. */
  userId?: string;
}

export class Game {
  readonly world: WorldInfo;
  readonly system: SystemInfo;
  readonly version: string;
  readonly random: RandomSource;
  readonly diceRandom: RandomSource;
  readonly now: () => number;
  readonly hooks = new Hooks();
  readonly collections: Record<WorldCollectionName, DocumentCollection>;
  readonly packs = new Map<string, CompendiumPack>();
  readonly modules: ModuleInfo[] = [];
  readonly settings: ModuleSettings = {
    allowExecuteJs: false,
    codeExecutionPermission: 4,
    notifyOnExecuteJs: true,
    allowMacroExecute: false,
    allowMacroWrite: false,
  };
  statusEffects: StatusEffectConfig[] = [];
  /** The GM's browser canvas: which scene it shows and which of its tokens are controlled. */
  readonly canvas = { viewedSceneId: null as string | null, controlledTokenIds: new Set<string>() };
  readonly playingSounds = new Map<string, PlayingSound>();
  readonly recentRolls: RollEntry[] = [];
  readonly #syntheticActors = new Map<string, WorldDocument>();
  /** The user whose browser runs the module (a full GM). */
  moduleUserId = '';
  worldTime = 0;
  paused = false;
  /** The module's world settings for its connection (module-protocol.md §2.1, §2.6, §3.1), with their defaults. */
  readonly relaySettings = {
    wsRelayUrl: 'wss://foundryrestapi.com',
    clientId: '',
    pairedRelayUrl: '',
    serverFingerprint: '',
    customName: '',
    pingInterval: 30,
    reconnectMaxAttempts: 20,
    reconnectBaseDelay: 1000,
  };
  serverOrigin = 'http://localhost:30000';

  constructor(options: GameOptions) {
    this.world = options.world;
    this.system = options.system;
    this.version = options.version;
    this.random = options.random;
    this.diceRandom = options.diceRandom;
    this.now = options.now;
    const collections = {} as Record<WorldCollectionName, DocumentCollection>;
    for (const name of Object.values(COLLECTION_NAMES)) collections[name] = new DocumentCollection();
    this.collections = collections;
  }

  get users(): DocumentCollection {
    return this.collections.users;
  }
  get actors(): DocumentCollection {
    return this.collections.actors;
  }
  get scenes(): DocumentCollection {
    return this.collections.scenes;
  }
  get folders(): DocumentCollection {
    return this.collections.folders;
  }
  get playlists(): DocumentCollection {
    return this.collections.playlists;
  }
  get combats(): DocumentCollection {
    return this.collections.combats;
  }
  get messages(): DocumentCollection {
    return this.collections.messages;
  }

  get foundryMajorVersion(): number {
    return Number.parseInt(this.version.split('.')[0] ?? '0', 10);
  }

  collectionOf(documentName: string): DocumentCollection | undefined {
    const name = (COLLECTION_NAMES as Record<string, WorldCollectionName>)[documentName];
    return name ? this.collections[name] : undefined;
  }

  activeScene(): WorldDocument | undefined {
    return this.scenes.find((scene) => scene.source.active === true);
  }

  viewedScene(): WorldDocument | undefined {
    return this.canvas.viewedSceneId ? this.scenes.get(this.canvas.viewedSceneId) : undefined;
  }

  /** The combat of the viewed scene, as `game.combat`. */
  activeCombat(): WorldDocument | undefined {
    return this.combats.find(
      (combat) => combat.source.active === true && combat.source.scene === this.canvas.viewedSceneId,
    );
  }

  /** Documents inside a folder, as `folder.contents`. */
  folderContents(folder: WorldDocument): WorldDocument[] {
    if (folder.source.type === 'Compendium') return [];
    return this.collectionOf(folder.source.type as string)?.filter((document) => document.folderId === folder.id) ?? [];
  }

  /** A token's actor: the world actor when linked, otherwise its synthetic actor. */
  tokenActor(token: WorldDocument): WorldDocument | null {
    const base = this.actors.get(token.source.actorId as string);
    if (!base) return null;
    if (token.source.actorLink) return base;
    let synthetic = this.#syntheticActors.get(token.uuid);
    if (!synthetic) {
      synthetic = cloneDocument(base, token);
      this.#syntheticActors.set(token.uuid, synthetic);
    }
    return synthetic;
  }

  /** The actor a document belongs to: itself, a token's actor, or the actor owning an embedded document. */
  actorOf(document: WorldDocument): WorldDocument | null {
    if (document.documentName === 'Actor') return document;
    if (document.documentName === 'Token') return this.tokenActor(document);
    return null;
  }

  fromUuid(uuid: string): WorldDocument | null {
    const parts = uuid.split('.');
    let document: WorldDocument | null | undefined;
    let rest: string[];
    if (parts[0] === 'Compendium') {
      const pack = this.packs.get(`${parts[1]}.${parts[2]}`);
      if (!pack) return null;
      // `Compendium.<pack>.<id>`, the form before v11 named the document type, reads as the pack's type (parseUuid).
      const path = parts[3] === pack.documentName ? parts.slice(4) : parts.slice(3);
      document = pack.documents.get(path[0] ?? '');
      rest = path.slice(1);
    } else {
      document = this.collectionOf(parts[0] ?? '')?.get(parts[1] ?? '');
      rest = parts.slice(2);
    }
    for (let i = 0; document && i < rest.length; i += 2) {
      const [embeddedName, id] = [rest[i]!, rest[i + 1] ?? ''];
      if (embeddedName === 'Actor' && document.documentName === 'Token') {
        const actor = this.tokenActor(document);
        document = actor?.id === id ? actor : null;
      } else {
        document = document.embedded.get(embeddedName)?.get(id);
      }
    }
    return document ?? null;
  }

  createDocument(
    documentName: string,
    data: PlainObject,
    options: LifecycleOptions & { parent?: WorldDocument; keepId?: boolean } = {},
  ): WorldDocument {
    if (!options.parent) assertFolderReference(this, { documentName, type: data.type }, data.folder);
    const document = this.#build(documentName, data, options.parent ?? null, options.keepId ?? false);
    const collection = options.parent ? options.parent.collection(documentName) : this.collectionOf(documentName);
    if (!collection) throw new Error(`Cannot create a ${documentName} outside a parent document`);
    collection.set(document.id, document);
    const timing = { modifiedTime: this.now(), render: true, renderSheet: false };
    this.hooks.callAll(`create${documentName}`, document, timing, this.#author(options));
    return document;
  }

  /**
   * Applies `changes` (dotted keys allowed) and fires `update<Type>` with the effective diff; null when nothing changed.
   * An embedded array (an actor's `items`, a playlist's `sounds`) merges by `_id` as Foundry's `EmbeddedCollection#update`
   * does: an entry whose `_id` is on the document updates it, any other entry is created (a new id when it has none,
   * its type's defaults), and the entries not mentioned stay. Foundry fires only the parent's update hook for such a
   * change (the created entries are in its `changed`); the sandbox also fires `update<Child>` for each child it
   * changed, which the playlist audio follows. Nothing is applied when any part is invalid.
   */
  updateDocument(document: WorldDocument, changes: PlainObject, options: LifecycleOptions = {}): PlainObject | null {
    let expanded = expandObject(changes);
    delete expanded._id;
    const level = document.documentName === 'Scene' ? firstLevel(document) : undefined;
    if (level) {
      const split = splitSceneChanges(expanded);
      if (Object.keys(split.level).length > 0) this.updateDocument(level, split.level, options);
      expanded = split.scene;
    }
    if ('folder' in expanded && !document.parent && !document.pack) {
      const target = { documentName: document.documentName, type: document.type, id: document.id };
      assertFolderReference(this, target, expanded.folder);
    }
    const diff: PlainObject = {};
    const childUpdates: [WorldDocument, PlainObject][] = [];
    const created: WorldDocument[] = [];
    for (const [key, value] of Object.entries(expanded)) {
      const embeddedName = this.#embeddedNameOfField(document, key);
      if (embeddedName && Array.isArray(value)) {
        const merged = this.#mergeChildren(document, embeddedName, value);
        if (merged.changed.length > 0) diff[key] = merged.changed;
        childUpdates.push(...merged.updates);
        created.push(...merged.created);
      } else {
        Object.assign(diff, diffObject(document.source, { [key]: value }));
      }
    }
    if (Object.keys(diff).length === 0) return null;
    mergeInto(
      document.source,
      Object.fromEntries(Object.entries(diff).filter(([key]) => !this.#embeddedNameOfField(document, key))),
    );
    for (const [child, { _id, ...childDiff }] of childUpdates) mergeInto(child.source, childDiff);
    for (const child of created) document.collection(child.documentName).set(child.id, child);
    const changed = { ...diff, _id: document.id };
    this.hooks.callAll(
      `update${document.documentName}`,
      document,
      changed,
      this.#updateTiming(),
      this.#author(options),
    );
    for (const [child, childChanged] of childUpdates) {
      this.hooks.callAll(
        `update${child.documentName}`,
        child,
        childChanged,
        this.#updateTiming(),
        this.#author(options),
      );
    }
    return changed;
  }

  deleteDocument(document: WorldDocument, options: LifecycleOptions = {}): void {
    if (document.documentName === 'Folder' && !document.pack) moveContentsToParent(this, document);
    const collection = document.parent
      ? document.parent.collection(document.documentName)
      : this.collectionOf(document.documentName);
    collection?.delete(document.id);
    if (document.documentName === 'Token') this.canvas.controlledTokenIds.delete(document.id);
    this.hooks.callAll(
      `delete${document.documentName}`,
      document,
      { modifiedTime: this.now(), render: true },
      this.#author(options),
    );
  }

  newId(): string {
    return randomDocumentId(this.random);
  }

  #build(
    documentName: string,
    data: PlainObject,
    parent: WorldDocument | null,
    keepId: boolean,
    pack: string | null = null,
  ): WorldDocument {
    const { embeddedData, ownData } = this.#splitEmbedded(documentName, data);
    const source = prepareSource(documentName, ownData, this.system.id, this.foundryMajorVersion);
    if (this.foundryMajorVersion >= 14) adaptSourceTo14(documentName, source, embeddedData);
    if (keepId && typeof data._id === 'string' && !/^[a-zA-Z0-9]{16}$/.test(data._id)) {
      throw new ValidationError(
        `${documentName} validation errors:\n  _id: must be a valid 16-character alphanumeric ID`,
      );
    }
    source._id = keepId && typeof data._id === 'string' ? data._id : this.newId();
    source._stats = this.#stats();
    const document = new WorldDocument(
      documentName,
      reorderWithIdFirst(source),
      parent,
      pack,
      this.foundryMajorVersion,
    );
    for (const [embeddedName, children] of embeddedData) {
      for (const child of children) {
        const built = this.#build(embeddedName, child, document, true, pack);
        document.collection(embeddedName).set(built.id, built);
      }
    }
    return document;
  }

  /** Builds a compendium document (no hooks: packs are read-only in the sandbox). */
  buildPackDocument(pack: CompendiumPack, data: PlainObject): WorldDocument {
    const document = this.#build(pack.documentName, data, null, true, pack.collection);
    pack.documents.set(document.id, document);
    return document;
  }

  #splitEmbedded(
    documentName: string,
    data: PlainObject,
  ): { embeddedData: [string, PlainObject[]][]; ownData: PlainObject } {
    const ownData = { ...data };
    const embeddedData: [string, PlainObject[]][] = [];
    for (const embeddedName of embeddedNamesOf(documentName, this.foundryMajorVersion)) {
      const field = embeddedFieldOf(documentName, embeddedName, this.foundryMajorVersion)!;
      const children = ownData[field];
      delete ownData[field];
      if (Array.isArray(children)) embeddedData.push([embeddedName, children.filter(isPlainObject)]);
    }
    return { embeddedData, ownData };
  }

  #embeddedNameOfField(document: WorldDocument, field: string): string | undefined {
    return embeddedNamesOf(document.documentName, document.generation).find(
      (name) => embeddedFieldOf(document.documentName, name, document.generation) === field,
    );
  }

  /** The diffs of the children an embedded array changes (not applied yet) and the children it creates (not added yet). */
  #mergeChildren(
    parent: WorldDocument,
    embeddedName: string,
    entries: unknown[],
  ): { changed: PlainObject[]; updates: [WorldDocument, PlainObject][]; created: WorldDocument[] } {
    const collection = parent.collection(embeddedName);
    const merged = {
      changed: [] as PlainObject[],
      updates: [] as [WorldDocument, PlainObject][],
      created: [] as WorldDocument[],
    };
    for (const entry of entries.filter(isPlainObject)) {
      const child = typeof entry._id === 'string' ? collection.get(entry._id) : undefined;
      if (!child) {
        const built = this.#build(embeddedName, expandObject(entry), parent, true, parent.pack);
        merged.created.push(built);
        merged.changed.push(built.toObject());
        continue;
      }
      const { _id, ...changes } = expandObject(entry);
      const diff = diffObject(child.source, changes);
      if (Object.keys(diff).length === 0) continue;
      merged.updates.push([child, { _id, ...diff }]);
      merged.changed.push({ _id, ...diff });
    }
    return merged;
  }

  #stats(): PlainObject {
    const time = this.now();
    return {
      compendiumSource: null,
      duplicateSource: null,
      exportSource: null,
      coreVersion: this.version,
      systemId: this.system.id,
      systemVersion: this.system.version,
      createdTime: time,
      modifiedTime: time,
      lastModifiedBy: this.moduleUserId || null,
    };
  }

  #updateTiming(): PlainObject {
    return { diff: true, recursive: true, render: true, modifiedTime: this.now() };
  }

  #author(options: LifecycleOptions): string {
    return options.userId ?? this.moduleUserId;
  }
}

function reorderWithIdFirst(source: PlainObject): PlainObject {
  const { _id, ...rest } = source;
  return { _id, ...rest };
}

function cloneDocument(original: WorldDocument, parent: WorldDocument): WorldDocument {
  const copy = new WorldDocument(original.documentName, deepClone(original.source), parent, null, original.generation);
  for (const [embeddedName, children] of original.embedded) {
    for (const child of children.values()) copy.collection(embeddedName).set(child.id, cloneDocument(child, copy));
  }
  return copy;
}
