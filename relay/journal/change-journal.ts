import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeView } from '../../contracts/admin-api.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { replaceFile } from '../storage/json-file.ts';
import { RetriedWrite } from '../storage/retried-write.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const FILE = /^([0-9a-z]{15})\.json$/;
const LEFTOVER = /\.json\.[0-9a-f]{12}\.tmp$/;

/** How much the journal keeps: the most changes, and for how many days. */
export interface JournalLimits {
  maxChanges: number;
  maxDays: number;
}

/**
 * The change journal: one JSON file per change in its folder, each replaced atomically (relay/storage/json-file.ts),
 * so a crash or kill -9 leaves every change either as it was last written or as it is now. A change is stored before
 * its call reaches the world, and the call is refused when it cannot be (a full or read-only disk): no change is made
 * unrecorded. What the call came to is written when known; if the disk refuses that, it is kept in memory and written
 * again until stored. Bounded by count and age (the settings), oldest first.
 */
export class ChangeJournal extends EventEmitter<{ changed: [ChangeView]; dropped: [id: string] }> {
  readonly #dir: string;
  readonly #limits: () => JournalLimits;
  readonly #log: RelayLog;
  readonly #changes = new Map<string, ChangeView>();
  /** Changes whose latest state the disk refused, written again by `#retry`. */
  readonly #unstored = new Set<string>();
  readonly #retry: RetriedWrite;
  /** The work that finishes a change still in progress, for an undo to wait on. */
  readonly #settling = new Map<string, Promise<void>>();
  #lastId = '';

  constructor(dir: string, limits: () => JournalLimits, log: RelayLog = consoleLog) {
    super();
    this.#dir = dir;
    this.#limits = limits;
    this.#log = log;
    this.#retry = new RetriedWrite(() => this.#storeUnstored());
    this.#open();
  }

  /** Every change kept, newest first. */
  list(): ChangeView[] {
    this.#prune();
    return [...this.#changes.values()].reverse();
  }

  get(id: string): ChangeView | undefined {
    return this.#changes.get(id);
  }

  /**
   * Stores a new change before its call goes to the world; throws StorageWriteError (507 or 500, "nothing was changed")
   * when the disk refuses, so the call is refused with it.
   */
  begin(fields: Omit<ChangeView, 'id'>): ChangeView {
    const change = { id: this.#nextId(), ...fields } as ChangeView;
    this.#write(change);
    this.#changes.set(change.id, change);
    this.#prune();
    this.emit('changed', change);
    return change;
  }

  /** Records what a change came to. A disk that refuses it delays the write, never the change. */
  settle(id: string, fields: Partial<ChangeView>): ChangeView | undefined {
    const current = this.#changes.get(id);
    if (!current) return undefined;
    const settled = { ...current, ...fields };
    for (const [key, value] of Object.entries(fields)) if (value === undefined) delete settled[key as keyof ChangeView];
    this.#changes.set(id, settled);
    this.#store(settled);
    this.emit('changed', settled);
    return settled;
  }

  /**
   * Forgets a change: one that changed nothing (the world refused its call, or it left every document as it was), or one
   * past the journal's limits.
   */
  drop(id: string): void {
    if (!this.#changes.delete(id)) return;
    this.#unstored.delete(id);
    this.#remove(id);
    this.emit('dropped', id);
  }

  /** Notes the work that finishes a change, so an undo can wait for it. */
  settling(id: string, work: Promise<void>): void {
    this.#settling.set(id, work);
    void work.finally(() => this.#settling.delete(id));
  }

  /** Resolves once the change's outcome is recorded (at once for a settled one). */
  async settled(id: string): Promise<ChangeView | undefined> {
    await this.#settling.get(id);
    return this.#changes.get(id);
  }

  /** At stop: one last attempt to store what the disk refused. Never throws. */
  flush(): void {
    this.#retry.stop();
    try {
      this.#storeUnstored();
    } catch {
      this.#log.error(`Some changes of the journal in ${this.#dir} could not be stored before the relay stopped`);
    }
  }

  #open(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (LEFTOVER.test(name)) this.#removeQuietly(name);
      const id = FILE.exec(name)?.[1];
      if (id === undefined) continue;
      const change = this.#read(name);
      // A change whose call was in progress when the relay stopped: what it did is not known.
      if (change) this.#changes.set(id, change.state === 'pending' ? { ...change, state: 'unknown' } : change);
    }
    this.#lastId = [...this.#changes.keys()].at(-1) ?? '';
  }

  #read(name: string): ChangeView | undefined {
    try {
      return JSON.parse(readFileSync(join(this.#dir, name), 'utf8')) as ChangeView;
    } catch (error) {
      this.#log.warn(
        `${join(this.#dir, name)} could not be read (${(error as Error).message}); the change is left out`,
      );
      return undefined;
    }
  }

  /** Time-ordered ids: the time in base 36, then a counter for changes of one millisecond, then some randomness. */
  #nextId(): string {
    const time = Date.now().toString(36).padStart(9, '0');
    let id = `${time}000${randomBytes(2).toString('hex').slice(0, 3)}`;
    if (id <= this.#lastId) {
      const counter = (Number.parseInt(this.#lastId.slice(9, 12), 36) + 1).toString(36).padStart(3, '0');
      id = `${this.#lastId.slice(0, 9)}${counter}${id.slice(12)}`;
    }
    this.#lastId = id;
    return id;
  }

  #write(change: ChangeView): void {
    replaceFile(this.#pathOf(change.id), Buffer.from(`${JSON.stringify(change)}\n`), 0o600, undefined, this.#log);
  }

  #store(change: ChangeView): void {
    this.#unstored.add(change.id);
    this.#retry.failClosed(
      () => this.#storeUnstored(),
      () => this.#log.warn(`A change of the journal is kept in memory until the disk takes it (${this.#dir})`),
    );
  }

  #storeUnstored(): void {
    for (const id of [...this.#unstored]) {
      const change = this.#changes.get(id);
      if (change) this.#write(change);
      this.#unstored.delete(id);
    }
  }

  /**
   * Drops the oldest changes beyond the count, and those older than the days kept; one still being read again stays until
   * its next prune, in place of a newer one.
   */
  #prune(): void {
    const { maxChanges, maxDays } = this.#limits();
    const oldest = Date.now() - maxDays * DAY_MS;
    let over = this.#changes.size - maxChanges;
    for (const change of [...this.#changes.values()]) {
      if (over <= 0 && Date.parse(change.at) >= oldest) break;
      over -= 1;
      if (!this.#settling.has(change.id)) this.drop(change.id);
    }
  }

  #remove(id: string): void {
    this.#removeQuietly(`${id}.json`);
  }

  #removeQuietly(name: string): void {
    try {
      rmSync(join(this.#dir, name), { force: true });
    } catch (error) {
      this.#log.warn(`${join(this.#dir, name)} could not be removed (${(error as Error).message})`);
    }
  }

  #pathOf(id: string): string {
    return join(this.#dir, `${id}.json`);
  }
}
