import { closeSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, truncateSync } from 'node:fs';
import { dirname } from 'node:path';
import { consoleLog, type RelayLog } from '../log.ts';
import { replaceFile, StorageWriteError, writeAll } from './json-file.ts';

/** The records of a log that waited for the end of the tick to be written together. */
interface Batch {
  lines: string[];
  /** Whether any of them must be on the disk (flushed) before its writer goes on. */
  durable: boolean;
  waiters: { resolve(): void; reject(error: StorageWriteError): void }[];
}

/**
 * A file of JSON records, one a line, only ever appended to: the records of one tick are written together, and flushed
 * with one fsync when any of them asks to be durable, so many writers at once cost one write. A record cut short (a
 * kill -9 in the middle of a write) is cut off at the next open; a write the disk refuses (full, read-only) is taken
 * back, so the file never holds half a record. `compact` replaces the whole log atomically (relay/storage/json-file.ts)
 * when the records that still count are few among those written.
 */
export class AppendLog {
  readonly path: string;
  readonly #log: RelayLog;
  #batch: Batch | undefined;
  /** Bytes of the file that hold whole records. */
  #size = 0;

  constructor(path: string, log: RelayLog = consoleLog) {
    this.path = path;
    this.#log = log;
  }

  /** Every record, oldest first; a damaged line is left out and logged, a record cut short is cut off the file. */
  read(): unknown[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const whole = text.lastIndexOf('\n') + 1;
    this.#size = Buffer.byteLength(text.slice(0, whole));
    if (whole < text.length) this.#cutTail();
    const records: unknown[] = [];
    for (const [index, line] of text.slice(0, whole).split('\n').entries()) {
      if (line === '') continue;
      try {
        records.push(JSON.parse(line));
      } catch {
        this.#log.warn(`Line ${index + 1} of ${this.path} is damaged; it is left out`);
      }
    }
    return records;
  }

  /**
   * Appends the records at the end of this tick, with those of every other writer of the tick. `durable`: resolves once
   * they are on the disk, or rejects with StorageWriteError (507 or 500) and nothing of them is in the file. Otherwise
   * the records reach the disk with the next flush and a failure rejects alike.
   */
  append(records: readonly unknown[], durable: boolean): Promise<void> {
    const batch = this.#batch ?? this.#nextBatch();
    batch.lines.push(...records.map((record) => `${JSON.stringify(record)}\n`));
    batch.durable ||= durable;
    return new Promise((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  /**
   * Replaces the whole log with these records, atomically; throws StorageWriteError and leaves it as it was. Records
   * appended in this tick are written after them, to the new file.
   */
  compact(records: readonly unknown[]): void {
    const bytes = Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    replaceFile(this.path, bytes, 0o600, undefined, this.#log);
    this.#size = bytes.length;
  }

  /** Writes what waits now rather than at the end of the tick (the relay stops). Never throws. */
  flush(): void {
    this.#writeBatch();
  }

  #nextBatch(): Batch {
    const batch: Batch = { lines: [], durable: false, waiters: [] };
    this.#batch = batch;
    setImmediate(() => this.#writeBatch());
    return batch;
  }

  #writeBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    try {
      this.#write(Buffer.from(batch.lines.join('')), batch.durable);
    } catch (error) {
      const failure = error instanceof StorageWriteError ? error : new StorageWriteError(error);
      this.#log.error(`Could not append to ${this.path} (${failure.code ?? String(error)}); nothing was changed`);
      for (const waiter of batch.waiters) waiter.reject(failure);
      return;
    }
    for (const waiter of batch.waiters) waiter.resolve();
  }

  /** Every byte written (and flushed when durable), or the file taken back to its whole records and the error thrown. */
  #write(bytes: Buffer, durable: boolean): void {
    if (this.#size === 0) mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const descriptor = openSync(this.path, 'a', 0o600);
    try {
      writeAll(descriptor, bytes);
      if (durable) fdatasyncSync(descriptor);
      this.#size += bytes.length;
    } catch (error) {
      this.#takeBack(descriptor);
      throw new StorageWriteError(error);
    } finally {
      closeSync(descriptor);
    }
  }

  /** What a refused write left of its records goes: the next one must not start in the middle of a line. */
  #takeBack(descriptor: number): void {
    try {
      ftruncateSync(descriptor, this.#size);
    } catch {
      // The next open cuts the line short; the records before it are whole.
    }
  }

  #cutTail(): void {
    try {
      truncateSync(this.path, this.#size);
      this.#log.info(`${this.path} ended in a record cut short (the relay stopped while writing it); it was left out`);
    } catch (error) {
      this.#log.warn(`${this.path} ends in a record cut short that could not be cut off (${(error as Error).message})`);
    }
  }
}
