// The parts of Foundry's client API that capture and the module use, over the sandbox world's state:
// `game` (ready, users, user, actors, scenes, version, release, world, system, settings), `fromUuid`,
// `canvas.tokens.controlled`, and documents with `testUserPermission` and a `.sheet`.
import type { SandboxWorld } from '../../sandbox-world.ts';
import type { WorldDocument } from '../../world/document.ts';
import { hasPermission } from '../../world/permissions.ts';
import type { Flavour } from '../flavour.ts';
import { createSheet, ownershipLevel, type DocumentSheet } from './sheets.ts';

export interface ClientConfig {
  flavour: Flavour;
  userId: string;
  /** The world setting `foundry-rest-api.clientId`: set when the world was paired. */
  clientId: string;
  /** The module's relay URL setting. */
  relayUrl: string;
  /** Whether the foundry-rest-api module is enabled in the world (Foundry's Manage Modules). */
  moduleEnabled: boolean;
  /** The world setting `foundry-rest-api.apiKey` of a 2.x module, which then runs instead of the 3.x one. */
  legacyApiKey?: string;
}

/** A client setting of Foundry's `core` namespace, which Foundry keeps in the page's localStorage as JSON. */
function coreClientSetting(key: string): unknown {
  const stored = localStorage.getItem(`core.${key}`);
  if (stored === null) return undefined;
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return undefined;
  }
}

export class ClientDocument {
  readonly source: WorldDocument;
  readonly #client: FoundryClient;
  #sheet: DocumentSheet | undefined;

  constructor(source: WorldDocument, client: FoundryClient) {
    this.source = source;
    this.#client = client;
  }

  get id(): string {
    return this.source.id;
  }
  get uuid(): string {
    return this.source.uuid;
  }
  get name(): string {
    return this.source.name;
  }
  get documentName(): string {
    return this.source.documentName;
  }
  get type(): string | undefined {
    return this.source.type;
  }
  get img(): string | null {
    return this.source.img;
  }
  get role(): number {
    return Number(this.source.source.role ?? 0);
  }
  get isGM(): boolean {
    return this.role >= 3;
  }
  get system(): unknown {
    return this.source.system;
  }

  /** A token's actor. */
  get actor(): ClientDocument | null {
    if (this.documentName !== 'Token') return null;
    return this.#client.wrap(this.#client.world.game.tokenActor(this.source));
  }

  get sheet(): DocumentSheet {
    this.#sheet ??= createSheet(this.source, this.#client.config.flavour);
    return this.#sheet;
  }

  testUserPermission(user: ClientDocument, level: string | number): boolean {
    return hasPermission(this.#client.world.game, this.source, user.source, ownershipLevel(level));
  }

  toObject(): unknown {
    return this.source.toObject();
  }
}

/** A world collection as Foundry's client sees it: get, getName, find, filter, contents, size, iteration. */
export class ClientCollection {
  readonly #documents: () => WorldDocument[];
  readonly #client: FoundryClient;

  constructor(documents: () => WorldDocument[], client: FoundryClient) {
    this.#documents = documents;
    this.#client = client;
  }

  get contents(): ClientDocument[] {
    return this.#documents().map((document) => this.#client.wrap(document)!);
  }
  get size(): number {
    return this.#documents().length;
  }
  get(id: string): ClientDocument | undefined {
    return this.contents.find((document) => document.id === id);
  }
  getName(name: string): ClientDocument | undefined {
    return this.contents.find((document) => document.name === name);
  }
  find(predicate: (document: ClientDocument) => boolean): ClientDocument | undefined {
    return this.contents.find(predicate);
  }
  filter(predicate: (document: ClientDocument) => boolean): ClientDocument[] {
    return this.contents.filter(predicate);
  }
  [Symbol.iterator](): Iterator<ClientDocument> {
    return this.contents[Symbol.iterator]();
  }
}

export class FoundryClient {
  readonly world: SandboxWorld;
  readonly config: ClientConfig;
  readonly #wrapped = new WeakMap<WorldDocument, ClientDocument>();

  constructor(world: SandboxWorld, config: ClientConfig) {
    this.world = world;
    this.config = config;
  }

  wrap(document: WorldDocument | null | undefined): ClientDocument | null {
    if (!document) return null;
    let wrapped = this.#wrapped.get(document);
    if (!wrapped) {
      wrapped = new ClientDocument(document, this);
      this.#wrapped.set(document, wrapped);
    }
    return wrapped;
  }

  /** Sets `game`, `fromUuid`, `fromUuidSync` and `canvas` on the page's global object. */
  install(target: Record<string, unknown>): void {
    const { game } = this.world;
    const generation = Number(game.version.split('.')[0]);
    const user = this.wrap(game.users.get(this.config.userId));
    const settings = {
      clientId: this.config.clientId,
      wsRelayUrl: this.config.relayUrl,
      pairedRelayUrl: this.config.relayUrl,
    };
    target.game = {
      ready: false,
      version: game.version,
      release: { generation, version: game.version },
      world: { ...game.world },
      system: { ...game.system },
      user,
      userId: user?.id,
      users: new ClientCollection(() => game.users.contents, this),
      actors: new ClientCollection(() => game.actors.contents, this),
      scenes: new ClientCollection(() => game.scenes.contents, this),
      items: new ClientCollection(() => game.collections.items.contents, this),
      journal: new ClientCollection(() => game.collections.journal.contents, this),
      settings: {
        get: (namespace: string, key: string) => {
          if (namespace === 'core') return coreClientSetting(key);
          return namespace === 'foundry-rest-api' ? settings[key as keyof typeof settings] : undefined;
        },
      },
      modules: new Map([['foundry-rest-api', { id: 'foundry-rest-api', active: this.config.moduleEnabled }]]),
      socket: { connected: true },
    };
    target.fromUuidSync = (uuid: string) => this.wrap(game.fromUuid(uuid));
    target.fromUuid = async (uuid: string) => this.wrap(game.fromUuid(uuid));
    const wrap = this.wrap.bind(this);
    target.canvas = {
      get scene() {
        return wrap(game.viewedScene());
      },
      tokens: {
        get controlled() {
          const scene = game.viewedScene();
          if (!scene) return [];
          return scene
            .collection('Token')
            .contents.filter((token) => game.canvas.controlledTokenIds.has(token.id))
            .map((token) => {
              const document = wrap(token)!;
              return { id: token.id, document, actor: document.actor };
            });
        },
      },
    };
  }
}
