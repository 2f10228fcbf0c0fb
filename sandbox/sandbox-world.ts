// createSandboxWorld: a seeded, simulated Foundry world answering the module's operations.
import type { PlayerListEntry, WorldMessage, WorldMetadata, WorldRequest } from '../contracts/world-protocol.ts';
import type { EventChannel } from '../contracts/streams.ts';
import { AmbientActivity } from './ambient.ts';
import { EventChannels } from './events.ts';
import type { FileStore } from './files/file-store.ts';
import { memoryFileStore } from './files/memory-store.ts';
import { CORE_PUBLIC_FILES, publicFileStore } from './files/public-store.ts';
import { OPERATIONS } from './operations/index.ts';
import type { WorldOperation } from '../contracts/operations.ts';
import { SearchIndex } from './search-index.ts';
import { createSimulation, type Simulation } from './simulate.ts';
import type { WorldDocument } from './world/document.ts';
import { Game, type ModuleSettings, type SystemInfo } from './world/game.ts';
import { isPlainObject } from './world/objects.ts';
import { installPlaylistAudio } from './world/playlists.ts';
import { createRandomSource, randomDocumentId } from './world/random.ts';
import { seedWorld } from './world/seed.ts';

export interface SandboxWorldOptions {
  seed?: number;
  system?: SystemInfo;
  foundryVersion?: string;
  worldId?: string;
  worldTitle?: string;
  /** Clock for timestamps; defaults to Date.now. */
  now?: () => number;
  /** Module settings that gate operations such as execute-js. */
  settings?: Partial<ModuleSettings>;
  /** Start without the seeded encounter, as a fresh world: the reference relay's encounter suite expects none. */
  emptyEncounters?: boolean;
  /**
   * The world's data folder for the file-system operations; defaults to an in-memory store. In Node, pass
   * `diskFileStore(dir)` from `sandbox/files/disk-store.ts` to keep the files in a real folder.
   */
  files?: FileStore;
}

export interface SandboxWorld {
  readonly metadata: WorldMetadata;
  /** The world's state, for reading (`world.game.actors`, `world.game.recentRolls`, ...). */
  readonly game: Game;
  readonly simulate: Simulation;
  handle(request: WorldRequest): Promise<WorldMessage | undefined>;
  setChannel(channel: EventChannel, enabled: boolean): void;
  enabledChannels(): EventChannel[];
  onPush(listener: (message: WorldMessage) => void): () => void;
  playerList(): PlayerListEntry[];
  find(uuid: string): WorldDocument | null;
  startAmbientActivity(intervalMs?: number): void;
  stopAmbientActivity(): void;
}

const DEFAULT_SYSTEM: SystemInfo = { id: 'dnd5e', title: 'Dungeons & Dragons Fifth Edition', version: '5.1.10' };
const SEED_STREAMS = { documents: 0x5eed, dice: 0xd1ce, settings: 0x5e77 };

export function createSandboxWorld(options: SandboxWorldOptions = {}): SandboxWorld {
  const seed = options.seed ?? 42;
  const game = new Game({
    world: { id: options.worldId ?? 'sandbox-world', title: options.worldTitle ?? 'The Sandbox Keep' },
    system: options.system ?? DEFAULT_SYSTEM,
    version: options.foundryVersion ?? '13.348',
    random: createRandomSource(seed ^ SEED_STREAMS.documents),
    diceRandom: createRandomSource(seed ^ SEED_STREAMS.dice),
    now: options.now ?? Date.now,
  });
  Object.assign(game.settings, options.settings);
  game.relaySettings.serverFingerprint = randomDocumentId(createRandomSource(seed ^ SEED_STREAMS.settings), 32);
  seedWorld(game, { encounters: !options.emptyEncounters });
  installPlaylistAudio(game);
  const publicFiles = publicFileStore([...CORE_PUBLIC_FILES, ...iconsReferenced(game)]);
  return new Sandbox(game, options.files ?? memoryFileStore(), publicFiles);
}

/** The `icons/…` paths the seeded documents and packs point at: Foundry serves those from its public folder. */
function iconsReferenced(game: Game): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string' && value.startsWith('icons/')) found.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (isPlainObject(value)) Object.values(value).forEach(visit);
  };
  const documents = [
    ...Object.values(game.collections).flatMap((collection) => collection.contents),
    ...[...game.packs.values()].flatMap((pack) => pack.documents.contents),
  ];
  for (const document of documents) visit(document.toObject());
  return [...found];
}

class Sandbox implements SandboxWorld {
  readonly game: Game;
  readonly simulate: Simulation;
  readonly #listeners = new Set<(message: WorldMessage) => void>();
  readonly #channels: EventChannels;
  readonly #searchIndex: SearchIndex;
  readonly #ambient: AmbientActivity;
  readonly #files: FileStore;
  readonly #publicFiles: FileStore;

  constructor(game: Game, files: FileStore, publicFiles: FileStore) {
    this.game = game;
    this.#files = files;
    this.#publicFiles = publicFiles;
    this.simulate = createSimulation(game);
    this.#channels = new EventChannels(game, (message) => this.#push(message));
    this.#searchIndex = new SearchIndex(game);
    this.#ambient = new AmbientActivity(game, this.simulate);
    for (const hook of ['createUser', 'updateUser', 'deleteUser']) {
      game.hooks.on(hook, () => this.#push({ type: 'player-list', users: this.playerList() }));
    }
  }

  get metadata(): WorldMetadata {
    const { world, system, version } = this.game;
    return {
      worldId: world.id,
      worldTitle: world.title,
      foundryVersion: version,
      systemId: system.id,
      systemTitle: system.title,
      systemVersion: system.version,
    };
  }

  async handle(request: WorldRequest): Promise<WorldMessage | undefined> {
    if (request.type === 'event-subscription-update') {
      this.setChannel(request.channel as EventChannel, Number(request.count) > 0);
      return undefined;
    }
    const operation = Object.hasOwn(OPERATIONS, request.type) ? OPERATIONS[request.type as WorldOperation] : undefined;
    return operation?.(request, {
      game: this.game,
      searchIndex: this.#searchIndex,
      files: this.#files,
      publicFiles: this.#publicFiles,
    });
  }

  setChannel(channel: EventChannel, enabled: boolean): void {
    if (enabled) this.#channels.enable(channel);
    else this.#channels.disable(channel);
  }

  enabledChannels(): EventChannel[] {
    return this.#channels.enabled();
  }

  onPush(listener: (message: WorldMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  playerList(): PlayerListEntry[] {
    return this.game.users.contents.map((user) => ({
      id: user.id,
      name: user.name,
      role: user.source.role as number,
      active: user.source.active === true,
    }));
  }

  find(uuid: string): WorldDocument | null {
    return this.game.fromUuid(uuid);
  }

  startAmbientActivity(intervalMs = 4000): void {
    this.#ambient.start(intervalMs);
  }

  stopAmbientActivity(): void {
    this.#ambient.stop();
  }

  #push(message: WorldMessage): void {
    for (const listener of [...this.#listeners]) listener(message);
  }
}
