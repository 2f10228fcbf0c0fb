// The simulated `game`: world collections, compendium packs, settings, canvas and audio state, and the
// document lifecycle (create/update/delete) that fires Foundry's hooks with Foundry's argument order.
import { DocumentCollection, WorldDocument, embeddedFieldOf, embeddedNamesOf } from './document.ts';
import { Hooks } from './hooks.ts';
import { deepClone, diffObject, expandObject, isPlainObject, mergeInto, type PlainObject } from './objects.ts';
import { randomDocumentId, type RandomSource } from './random.ts';
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
  /** World settings the module keeps after pairing (module-protocol.md §3.1). */
  readonly relaySettings = { clientId: '', pairedRelayUrl: '', serverFingerprint: '' };
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
      if (!pack || parts[3] !== pack.documentName) return null;
      document = pack.documents.get(parts[4] ?? '');
      rest = parts.slice(5);
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
   * Embedded documents changed through the parent (e.g. a playlist's `sounds`) then get their own update hooks.
   */
  updateDocument(document: WorldDocument, changes: PlainObject, options: LifecycleOptions = {}): PlainObject | null {
    const expanded = expandObject(changes);
    delete expanded._id;
    const diff: PlainObject = {};
    const childUpdates: [WorldDocument, PlainObject][] = [];
    for (const [key, value] of Object.entries(expanded)) {
      const embeddedName = this.#embeddedNameOfField(document, key);
      if (embeddedName && Array.isArray(value)) {
        const updates = this.#updateChildren(document.collection(embeddedName), value);
        if (updates.length > 0) diff[key] = updates.map(([, changed]) => changed);
        childUpdates.push(...updates);
      } else {
        Object.assign(diff, diffObject(document.source, { [key]: value }));
      }
    }
    if (Object.keys(diff).length === 0) return null;
    mergeInto(
      document.source,
      Object.fromEntries(Object.entries(diff).filter(([key]) => !this.#embeddedNameOfField(document, key))),
    );
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
    const source = prepareSource(documentName, ownData, this.system.id);
    if (keepId && typeof data._id === 'string' && !/^[a-zA-Z0-9]{16}$/.test(data._id)) {
      throw new ValidationError(
        `${documentName} validation errors:\n  _id: must be a valid 16-character alphanumeric ID`,
      );
    }
    source._id = keepId && typeof data._id === 'string' ? data._id : this.newId();
    source._stats = this.#stats();
    const document = new WorldDocument(documentName, reorderWithIdFirst(source), parent, pack);
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
    for (const embeddedName of embeddedNamesOf(documentName)) {
      const field = embeddedFieldOf(documentName, embeddedName)!;
      const children = ownData[field];
      delete ownData[field];
      if (Array.isArray(children)) embeddedData.push([embeddedName, children.filter(isPlainObject)]);
    }
    return { embeddedData, ownData };
  }

  #embeddedNameOfField(document: WorldDocument, field: string): string | undefined {
    return embeddedNamesOf(document.documentName).find(
      (name) => embeddedFieldOf(document.documentName, name) === field,
    );
  }

  #updateChildren(collection: DocumentCollection, updates: unknown[]): [WorldDocument, PlainObject][] {
    const diffs: [WorldDocument, PlainObject][] = [];
    for (const update of updates.filter(isPlainObject)) {
      const child = collection.get(update._id as string);
      if (!child) continue;
      const { _id, ...changes } = expandObject(update);
      const diff = diffObject(child.source, changes);
      if (Object.keys(diff).length === 0) continue;
      mergeInto(child.source, diff);
      diffs.push([child, { _id, ...diff }]);
    }
    return diffs;
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
  const copy = new WorldDocument(original.documentName, deepClone(original.source), parent);
  for (const [embeddedName, children] of original.embedded) {
    for (const child of children.values()) copy.collection(embeddedName).set(child.id, cloneDocument(child, copy));
  }
  return copy;
}
