import { RelayEventStream, type RelayEvent, type StreamState } from './event-stream.ts';
import type { CallFailure, RelayClient } from './relay-client.ts';

export interface Combatant {
  id: string;
  name: string;
}

export interface CombatView {
  encounterId: string;
  round: number;
  /** The index of the current combatant in `combatants` (turn order). */
  turn: number;
  combatants: Combatant[];
  current?: string;
  next?: string;
}

export interface PlaylistSoundView {
  id: string;
  name: string;
  playing: boolean;
  volume: number;
}

export interface PlaylistView {
  id: string;
  name: string;
  playing: boolean;
  sounds: PlaylistSoundView[];
}

export interface HitPoints {
  value: number;
  max: number;
}

export interface RollView {
  total: number;
  formula: string;
  flavor: string;
}

/** What the buttons show, as the relay last told it. */
export interface WorldSnapshot {
  /** Whether the relay answered its last call or holds a stream open. */
  relayUp: boolean;
  /** Whether a Foundry world is connected to the relay (the one named by the client's clientId, when set). */
  worldConnected: boolean;
  worldTitle?: string;
  /** Why the relay or the world is not reachable, when it is not. */
  failure?: CallFailure;
  combat?: CombatView;
  playlists: PlaylistView[];
  /** Hit points of the tracked actors, by UUID. */
  hitPoints: Record<string, HitPoints>;
  lastRoll?: RollView;
}

export type SnapshotListener = (snapshot: WorldSnapshot) => void;

/** How often the watcher asks whether the world is connected: the streams stay open while a world comes and goes. */
export const PRESENCE_INTERVAL_MS = 5_000;
/** Events that change several things at once are answered with one fetch. */
const COALESCE_MS = 50;

const PLAYLIST_HOOKS = ['Playlist', 'PlaylistSound'].flatMap((name) => [
  `create${name}`,
  `update${name}`,
  `delete${name}`,
]);

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(fields) : [];
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function combatants(rows: unknown): Combatant[] {
  return list(rows).map((row) => ({ id: String(row.id ?? ''), name: String(row.name ?? '') }));
}

/** A combat as it is shown: the current and next combatant's names picked from the turn order. */
export function combatView(encounterId: string, round: number, turn: number, order: Combatant[]): CombatView {
  const current = order[turn]?.name;
  const next = order.length > 0 ? order[(turn + 1) % order.length]?.name : undefined;
  return { encounterId, round, turn, combatants: order, current, next };
}

/** `combat.turns`' order: initiative descending (none last), then name, then id. */
function turnOrder(rows: Fields[]): Combatant[] {
  const initiative = (row: Fields) => numberOr(row.initiative, -Infinity);
  return [...rows]
    .sort(
      (a, b) =>
        initiative(b) - initiative(a) ||
        String(a.name).localeCompare(String(b.name)) ||
        String(a.id).localeCompare(String(b.id)),
    )
    .map((row) => ({ id: String(row.id ?? ''), name: String(row.name ?? '') }));
}

function hitPointsOf(system: unknown, before?: HitPoints): HitPoints | undefined {
  const hp = fields(fields(fields(system).attributes).hp);
  if (!('value' in hp) && !('max' in hp)) return undefined;
  return { value: numberOr(hp.value, before?.value ?? 0), max: numberOr(hp.max, before?.max ?? 0) };
}

function playlistOf(row: Fields): PlaylistView {
  return {
    id: String(row.id ?? ''),
    name: String(row.name ?? ''),
    playing: row.playing === true,
    sounds: list(row.sounds).map((sound) => ({
      id: String(sound.id ?? ''),
      name: String(sound.name ?? ''),
      playing: sound.playing === true,
      volume: numberOr(sound.volume, 0.5),
    })),
  };
}

/**
 * The world state the buttons show, kept from the relay's event streams (combat, actors, playlist hooks, rolls): each
 * piece is fetched when its stream opens (and so again after every reconnect), then follows the events. Only whether
 * the world is connected is asked every few seconds, since no stream tells it. Listeners hear every change.
 */
export class WorldWatcher {
  readonly #client: RelayClient;
  readonly #streams: RelayEventStream[];
  readonly #listeners = new Set<SnapshotListener>();
  readonly #tracked = new Set<string>();
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #presenceIntervalMs: number;
  #presenceTimer: ReturnType<typeof setInterval> | undefined;
  #running = false;
  #snapshot: WorldSnapshot = { relayUp: false, worldConnected: false, playlists: [], hitPoints: {} };

  constructor(client: RelayClient, options: { presenceIntervalMs?: number } = {}) {
    this.#client = client;
    this.#presenceIntervalMs = options.presenceIntervalMs ?? PRESENCE_INTERVAL_MS;
    const stream = (path: string, onEvent: (event: RelayEvent) => void, query?: Record<string, string>) =>
      new RelayEventStream({ client, path, query, onEvent, onState: (state) => this.#onStreamState(state) });
    this.#streams = [
      stream('/encounters/subscribe', (event) => this.#onCombatEvent(event)),
      stream('/actor/subscribe', (event) => this.#onActorEvent(event)),
      stream('/hooks/subscribe', (event) => this.#onPlaylistHook(event), { hooks: PLAYLIST_HOOKS.join(',') }),
      stream('/rolls/subscribe', (event) => this.#onRollEvent(event)),
    ];
  }

  get running(): boolean {
    return this.#running;
  }

  get snapshot(): WorldSnapshot {
    return this.#snapshot;
  }

  onChange(listener: SnapshotListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const stream of this.#streams) stream.start();
    void this.checkPresence();
    this.#presenceTimer = setInterval(() => void this.checkPresence(), this.#presenceIntervalMs);
  }

  stop(): void {
    this.#running = false;
    for (const stream of this.#streams) stream.stop();
    clearInterval(this.#presenceTimer);
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }

  /** After the relay's address or the key changed: reconnect everything now and forget what the old relay said. */
  restart(): void {
    this.#update({ relayUp: false, worldConnected: false, worldTitle: undefined, combat: undefined, playlists: [] });
    for (const stream of this.#streams) stream.reconnectNow();
    void this.checkPresence();
  }

  /** Follows this actor's hit points (fetched now, then from its events). */
  track(actorUuid: string): void {
    if (!actorUuid || this.#tracked.has(actorUuid)) return;
    this.#tracked.add(actorUuid);
    this.#fetchSoon(`actor:${actorUuid}`, () => this.#fetchActor(actorUuid));
  }

  untrack(actorUuid: string): void {
    this.#tracked.delete(actorUuid);
    const { [actorUuid]: _dropped, ...rest } = this.#snapshot.hitPoints;
    this.#update({ hitPoints: rest });
  }

  /** Asks the relay whether the world is connected; a relay that answers again reconnects the streams at once. */
  async checkPresence(): Promise<void> {
    const answer = await this.#client.call<{ clients?: unknown }>('GET', '/clients', {});
    if (!answer.ok) {
      if (answer.kind === 'relay-off' || answer.kind === 'no-key') {
        this.#update({ relayUp: false, worldConnected: false, failure: answer });
      } else if (answer.kind === 'no-world') {
        this.#update({ relayUp: true, worldConnected: false, failure: answer });
      }
      return;
    }
    const wanted = this.#client.clientId;
    const world = list(answer.body.clients).find(
      (client) => client.isOnline === true && (!wanted || client.clientId === wanted),
    );
    const wasUp = this.#snapshot.relayUp && this.#snapshot.worldConnected;
    this.#update({
      relayUp: true,
      worldConnected: world !== undefined,
      worldTitle: typeof world?.worldTitle === 'string' ? world.worldTitle : undefined,
      failure: undefined,
    });
    if (world && !wasUp) for (const stream of this.#streams) if (!stream.open) stream.reconnectNow();
  }

  #onStreamState(state: StreamState): void {
    if (state.open) {
      const stale = this.#snapshot.failure?.kind === 'relay-off';
      this.#update({ relayUp: true, ...(stale ? { failure: undefined } : {}) });
      return;
    }
    if (state.failure.kind === 'relay-off' && !this.#streams.some((stream) => stream.open)) {
      this.#update({ relayUp: false, worldConnected: false, failure: state.failure });
    } else if (state.failure.kind === 'no-world') {
      this.#update({ relayUp: true, worldConnected: false, failure: state.failure });
    }
  }

  #onCombatEvent(event: RelayEvent): void {
    const data = fields(event.data);
    switch (event.name) {
      case 'connected':
        this.#fetchSoon('encounters', () => this.#fetchEncounters());
        return;
      case 'combat-start':
      case 'combat-turn':
        this.#update({
          combat: combatView(
            String(data.encounterId ?? ''),
            numberOr(data.round, 0),
            numberOr(data.turn, 0),
            combatants(data.combatants),
          ),
        });
        return;
      case 'combat-end':
        if (this.#snapshot.combat?.encounterId === data.encounterId) this.#update({ combat: undefined });
        this.#fetchSoon('encounters', () => this.#fetchEncounters());
        return;
      default:
        this.#fetchSoon('encounters', () => this.#fetchEncounters());
    }
  }

  #onActorEvent(event: RelayEvent): void {
    if (event.name === 'connected') {
      for (const uuid of this.#tracked) this.#fetchSoon(`actor:${uuid}`, () => this.#fetchActor(uuid));
      return;
    }
    const data = fields(fields(event.data).data);
    const uuid = String(data.actorUuid ?? '');
    if (!this.#tracked.has(uuid) || event.name !== 'actor-update') return;
    const hitPoints = hitPointsOf(fields(data.changes).system, this.#snapshot.hitPoints[uuid]);
    if (hitPoints) this.#update({ hitPoints: { ...this.#snapshot.hitPoints, [uuid]: hitPoints } });
  }

  #onPlaylistHook(event: RelayEvent): void {
    if (event.name === 'connected' || PLAYLIST_HOOKS.includes(event.name))
      this.#fetchSoon('playlists', () => this.#fetchPlaylists());
  }

  #onRollEvent(event: RelayEvent): void {
    if (event.name === 'connected') {
      this.#fetchSoon('lastroll', () => this.#fetchLastRoll());
      return;
    }
    if (event.name !== 'roll') return;
    const roll = this.#rollOf(fields(fields(event.data).data));
    if (roll) this.#update({ lastRoll: roll });
  }

  #rollOf(entry: Fields): RollView | undefined {
    if (typeof entry.rollTotal !== 'number') return undefined;
    return { total: entry.rollTotal, formula: String(entry.formula ?? ''), flavor: String(entry.flavor ?? '') };
  }

  /** Runs `fetch` once for every request of the same name within a few milliseconds. */
  #fetchSoon(name: string, fetchPiece: () => Promise<void>): void {
    if (this.#pending.has(name)) return;
    this.#pending.set(
      name,
      setTimeout(() => {
        this.#pending.delete(name);
        if (this.#running) void fetchPiece();
      }, COALESCE_MS),
    );
  }

  async #fetchEncounters(): Promise<void> {
    const answer = await this.#client.call<{ encounters?: unknown }>('GET', '/encounters');
    if (!answer.ok) return;
    const active = list(answer.body.encounters).find((encounter) => encounter.current === true);
    this.#update({
      combat: active
        ? combatView(
            String(active.id ?? ''),
            numberOr(active.round, 0),
            numberOr(active.turn, 0),
            turnOrder(list(active.combatants)),
          )
        : undefined,
    });
  }

  async #fetchPlaylists(): Promise<void> {
    const answer = await this.#client.call<{ data?: { playlists?: unknown } }>('GET', '/playlists');
    if (answer.ok) this.#update({ playlists: list(answer.body.data?.playlists).map(playlistOf) });
  }

  async #fetchActor(uuid: string): Promise<void> {
    const answer = await this.#client.call<{ data?: unknown }>('GET', '/get', { uuid });
    if (!answer.ok || !this.#tracked.has(uuid)) return;
    const hitPoints = hitPointsOf(fields(answer.body.data).system);
    if (hitPoints) this.#update({ hitPoints: { ...this.#snapshot.hitPoints, [uuid]: hitPoints } });
  }

  async #fetchLastRoll(): Promise<void> {
    const answer = await this.#client.call<{ data?: unknown }>('GET', '/lastroll');
    if (!answer.ok) return;
    const roll = this.#rollOf(fields(answer.body.data));
    if (roll) this.#update({ lastRoll: roll });
  }

  #update(change: Partial<WorldSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) {
      try {
        listener(this.#snapshot);
      } catch (error) {
        this.#client.log.warn(`A world state listener failed: ${String(error)}`);
      }
    }
  }
}
