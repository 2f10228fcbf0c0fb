import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeView } from '../../contracts/admin-api.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { AppendLog } from '../storage/append-log.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const LOG_FILE = 'changes.jsonl';
const LEFTOVER = /^changes\.jsonl\.[0-9a-f]{12}\.tmp$/;
/** The log is written anew, with only the changes kept, once it holds this many records more than twice those. */
const COMPACT_SLACK = 500;

/** How much the journal keeps: the most changes, and for how many days. */
export interface JournalLimits {
  maxChanges: number;
  maxDays: number;
}

/** One line of the journal's log: a change as it now stands, or one let go. */
type LogRecord = { change: ChangeView } | { dropped: string };

/**
 * The change journal, kept in an append-only log (relay/storage/append-log.ts) in its folder: each change is a line when
 * it begins and another when it settles, the last line of an id is what it is; a crash or kill -9 leaves whole lines.
 * A change is on the disk (flushed) before its call reaches the world, and the call is refused when it cannot be (a full
 * or read-only disk): no change is made unrecorded. What a call came to is written when known; if the disk refuses that,
 * it is written again with the next change that is stored, or when the relay stops. Bounded by count and age (the
 * settings), oldest first; the log is compacted to the changes kept as it grows.
 */
export class ChangeJournal extends EventEmitter<{ changed: [ChangeView]; dropped: [id: string] }> {
  readonly #dir: string;
  readonly #file: AppendLog;
  readonly #limits: () => JournalLimits;
  readonly #log: RelayLog;
  readonly #changes = new Map<string, ChangeView>();
  /** Changes whose latest state the disk refused, written again with the next change stored. */
  readonly #unstored = new Set<string>();
  /** The work that finishes a change still in progress, for an undo to wait on. */
  readonly #settling = new Map<string, Promise<void>>();
  /** Lines in the log since it was last written anew. */
  #records = 0;
  #lastId = '';

  constructor(dir: string, limits: () => JournalLimits, log: RelayLog = consoleLog) {
    super();
    this.#dir = dir;
    this.#file = new AppendLog(join(dir, LOG_FILE), log);
    this.#limits = limits;
    this.#log = log;
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
   * Stores a new change before its call goes to the world; rejects with StorageWriteError (507 or 500, "nothing was
   * changed") when the disk refuses, so the call is refused with it.
   */
  async begin(fields: Omit<ChangeView, 'id'>): Promise<ChangeView> {
    const change = { id: this.#nextId(), ...fields } as ChangeView;
    const retried = [...this.#unstored];
    await this.#file.append([{ change }, ...this.#recordsOf(retried)], true);
    for (const id of retried) this.#unstored.delete(id);
    this.#records += 1 + retried.length;
    this.#changes.set(change.id, change);
    this.#prune();
    this.#compactWhenDue();
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
    this.#append({ change: settled }, id);
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
    this.#append({ dropped: id });
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

  /** At stop: what waits is written now, and what the disk refused is tried once more. Never throws. */
  flush(): void {
    this.#file.flush();
    if (this.#unstored.size === 0) return;
    try {
      this.#compact();
    } catch {
      this.#log.error(`Some changes of the journal in ${this.#dir} could not be stored before the relay stopped`);
    }
  }

  #open(): void {
    this.#removeLeftovers();
    for (const record of this.#file.read() as LogRecord[]) {
      this.#records += 1;
      if ('dropped' in record) this.#changes.delete(record.dropped);
      else if (record.change?.id) this.#changes.set(record.change.id, record.change);
    }
    const sorted = [...this.#changes.values()].sort((left, right) => left.id.localeCompare(right.id));
    this.#changes.clear();
    // A change whose call was in progress when the relay stopped: what it did is not known.
    for (const change of sorted)
      this.#changes.set(change.id, change.state === 'pending' ? { ...change, state: 'unknown' } : change);
    this.#lastId = sorted.at(-1)?.id ?? '';
    this.#prune();
    if (this.#records > this.#changes.size) this.#compactQuietly();
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

  /** Appends a record without waiting for the disk; a change the disk refused is written again with the next one. */
  #append(record: LogRecord, id?: string): void {
    this.#records += 1;
    this.#file.append([record], false).catch(() => {
      if (id === undefined || !this.#changes.has(id)) return;
      if (this.#unstored.size === 0)
        this.#log.warn(`A change of the journal is kept in memory until the disk takes it (${this.#dir})`);
      this.#unstored.add(id);
    });
  }

  /** The records of changes as they stand now: those the disk refused go again with the next one stored. */
  #recordsOf(ids: readonly string[]): LogRecord[] {
    return ids.flatMap((id) => {
      const change = this.#changes.get(id);
      return change ? [{ change }] : [];
    });
  }

  /** Drops the oldest changes beyond the count, and those older than the days kept; one still being read stays. */
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

  #compactWhenDue(): void {
    if (this.#records > 2 * this.#changes.size + COMPACT_SLACK) this.#compactQuietly();
  }

  /** A compaction the disk refuses leaves the log as it was, whole; the next is tried as far along. */
  #compactQuietly(): void {
    try {
      this.#compact();
    } catch {
      this.#records = this.#changes.size;
    }
  }

  #compact(): void {
    this.#file.compact([...this.#changes.values()].map((change) => ({ change })));
    this.#records = this.#changes.size;
    this.#unstored.clear();
  }

  /** Temporary files of a compaction a crash interrupted. */
  #removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names.filter((candidate) => LEFTOVER.test(candidate))) {
      try {
        rmSync(join(this.#dir, name), { force: true });
      } catch (error) {
        this.#log.warn(`${join(this.#dir, name)} could not be removed (${(error as Error).message})`);
      }
    }
  }
}
