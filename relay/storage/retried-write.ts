import { StorageWriteError } from './json-file.ts';

const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 60_000;

/**
 * What a revocation came to. It takes effect at once whatever the disk says; `unstored` is the write's failure while
 * the disk (full, read-only) does not hold it yet.
 */
export interface Revocation {
  unstored?: StorageWriteError;
}

/**
 * Writes a store's state again until the disk takes it: for revocations, the one change that takes effect in memory
 * before it is stored, because a GM revoking a leaked secret must never be told to wait for disk space. The waits
 * double from 1 s up to a minute, so a disk that stays full costs a log line a minute.
 */
export class RetriedWrite {
  readonly #write: () => void;
  #timer: NodeJS.Timeout | undefined;
  #waitMs = FIRST_WAIT_MS;

  /** `write` stores the current state, or throws; the store calls `stop` whenever any of its writes succeeds. */
  constructor(write: () => void) {
    this.#write = write;
  }

  /** True while a change is in memory only. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Runs `store`; when the disk refuses it, runs `takeEffect` all the same (the change becomes current in memory only)
   * and retries the write.
   */
  failClosed(store: () => void, takeEffect: () => void): Revocation {
    try {
      store();
      return {};
    } catch (error) {
      if (!(error instanceof StorageWriteError)) throw error;
      takeEffect();
      this.#start();
      return { unstored: error };
    }
  }

  /**
   * Nothing more to retry: a write of the whole state succeeded (this one's or any other change's), or the relay is
   * stopping, after the store's last attempt, and a stopped relay writes nothing more.
   */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #start(): void {
    if (this.#timer) return;
    this.#waitMs = FIRST_WAIT_MS;
    this.#wait();
  }

  #wait(): void {
    this.#timer = setTimeout(() => this.#attempt(), this.#waitMs);
    // A retry must not keep a stopping process alive: `stop` in relay.ts makes the last attempt.
    this.#timer.unref();
  }

  #attempt(): void {
    try {
      this.#write();
      this.stop();
    } catch {
      // The store logged why; the next attempt waits longer.
      this.#waitMs = Math.min(this.#waitMs * 2, LONGEST_WAIT_MS);
      this.#wait();
    }
  }
}
