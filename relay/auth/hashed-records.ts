import { JsonFile } from '../storage/json-file.ts';
import { RetriedWrite, type Revocation } from '../storage/retried-write.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import type { RelayLog } from '../log.ts';

/** A record of a secret that is shown once and kept only as its SHA-256. */
export interface HashedRecord {
  id: string;
  hash: string;
}

export interface LastUse {
  lastUsedAt?: string;
}

/** Keys seen recently are looked up without hashing; the cache is emptied when it grows past this. */
const RECENT_SECRETS = 1024;
/** How many characters of a new secret, past its prefix, stay visible to recognise it in a list. */
const VISIBLE_CHARACTERS = 6;

/** A new secret, its hash to store and the start of it to show. */
export function newSecret(prefix: string): { secret: string; hash: string; prefix: string } {
  const secret = randomSecret(prefix);
  return { secret, hash: hashSecret(secret), prefix: secret.slice(0, prefix.length + VISIBLE_CHARACTERS) };
}

/**
 * The records of one JSON file, found by hash. Memory changes only after the write succeeded, so a failed write
 * (a full disk) changes nothing, with one exception: a removal (a revocation) takes effect at once and is written again
 * until it is stored. Last-use times change on every call, so they are kept apart and written with the next change or
 * `flush`; they appear in the file as `lastUsedAt`.
 */
export class HashedRecords<R extends HashedRecord> {
  private readonly file: JsonFile<(R & LastUse)[]>;
  private readonly byHash = new Map<string, R>();
  /** Secrets seen recently, so a call costs no hashing; emptied whenever a record is written. */
  private readonly recent = new Map<string, R>();
  /** Epoch ms of each record's last use. */
  private readonly lastUsed = new Map<string, number>();
  private lastUsedUnstored = false;
  /** Names the records in a log line, e.g. "API keys". */
  private readonly subject: string;
  private readonly log: RelayLog;
  /** Stores a removal the disk refused; any later write stores it too. */
  private readonly unstoredRemoval = new RetriedWrite(() => this.store(this.all()));

  constructor(path: string, subject: string, log: RelayLog) {
    this.subject = subject;
    this.log = log;
    this.file = new JsonFile(path, { log });
    for (const { lastUsedAt, ...stored } of this.file.read([])) {
      const record = stored as unknown as R;
      this.byHash.set(record.hash, record);
      const lastUsed = lastUsedAt === undefined ? NaN : Date.parse(lastUsedAt);
      if (Number.isFinite(lastUsed)) this.lastUsed.set(record.id, lastUsed);
    }
  }

  all(): R[] {
    return [...this.byHash.values()];
  }

  withId(id: string): R | undefined {
    for (const record of this.byHash.values()) if (record.id === id) return record;
    return undefined;
  }

  withSecret(secret: string): R | undefined {
    return this.byHash.get(hashSecret(secret));
  }

  /** The secret's record, or undefined when it is unknown; marks the record as used. No hashing for a recent one. */
  use(secret: string): R | undefined {
    let record = this.recent.get(secret);
    if (!record) {
      record = this.byHash.get(hashSecret(secret));
      if (!record) return undefined;
      if (this.recent.size >= RECENT_SECRETS) this.recent.clear();
      this.recent.set(secret, record);
    }
    this.lastUsed.set(record.id, Date.now());
    this.lastUsedUnstored = true;
    return record;
  }

  lastUseOf(record: R): LastUse {
    const lastUsed = this.lastUsed.get(record.id);
    return lastUsed === undefined ? {} : { lastUsedAt: new Date(lastUsed).toISOString() };
  }

  add(record: R): void {
    this.store([...this.byHash.values(), record]);
  }

  /** Puts `replacement` where `record` was. */
  replace(record: R, replacement: R): void {
    this.store(this.all().map((candidate) => (candidate === record ? replacement : candidate)));
  }

  /**
   * Leaves the record out: its secret stops working at once, even when the disk refuses the write (full, read-only),
   * because revoking must never wait for disk space; the write is then retried until it is stored, and at `flush`.
   * Undefined when no record has this id.
   */
  remove(id: string): Revocation | undefined {
    const record = this.withId(id);
    if (!record) return undefined;
    const remaining = this.all().filter((candidate) => candidate !== record);
    const revocation = this.unstoredRemoval.failClosed(
      () => this.store(remaining),
      () => this.makeCurrent(remaining),
    );
    this.lastUsed.delete(record.id);
    return revocation;
  }

  /** Gives the record a new secret: the old one stops working at once. Undefined when no record has this id. */
  renew(id: string, prefix: string): { secret: string; record: R } | undefined {
    const record = this.withId(id);
    if (!record) return undefined;
    const { secret, ...hashed } = newSecret(prefix);
    const renewed: R = { ...record, ...hashed };
    this.replace(record, renewed);
    return { secret, record: renewed };
  }

  /** Writes the next set of records, then makes it current. */
  store(records: R[]): void {
    this.file.write(records.map((record) => ({ ...record, ...this.lastUseOf(record) })));
    this.makeCurrent(records);
    this.lastUsedUnstored = false;
    this.unstoredRemoval.stop();
  }

  /** At stop: stores a removal not yet stored and last-use times, which are written only now and then. Never throws. */
  flush(): void {
    const removalUnstored = this.unstoredRemoval.pending;
    this.unstoredRemoval.stop();
    if (!this.lastUsedUnstored && !removalUnstored) return;
    try {
      this.store(this.all());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(
        removalUnstored
          ? `Could not store ${this.subject} at stop, so what was revoked while the disk refused writes works again from the next start: revoke it again then. ${message}`
          : `Could not store when ${this.subject} were last used: ${message}`,
      );
    }
  }

  private makeCurrent(records: R[]): void {
    this.byHash.clear();
    for (const record of records) this.byHash.set(record.hash, record);
    this.recent.clear();
  }
}
