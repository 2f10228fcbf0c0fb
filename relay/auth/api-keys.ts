import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { JsonFile } from '../storage/json-file.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import type { Scope } from './scopes.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { refuseMixedWorldLink } from './world-link.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  hash: string;
  /** The first characters of the key, to recognise it in a list. */
  prefix: string;
  scopes: Scope[];
  /** When set, every call made with this key acts as this tabletop user (id or name). */
  userId?: string;
  /** When set, the key reaches only these worlds (client ids). */
  worldIds?: string[];
  createdAt: string;
  lastUsedAt?: string;
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  userId?: string;
  worldIds?: string[];
}

export type ApiKeyView = Omit<ApiKeyRecord, 'hash'>;

const KEY_PREFIX = 'ttr_';
const RECENT_KEYS = 1024;

/** What happened to a key: its holder's open sockets and streams must end when it is revoked, rotated or changed. */
export type ApiKeyChange = 'updated' | 'rotated' | 'revoked';

export class ApiKeys extends EventEmitter<{ changed: [id: string, change: ApiKeyChange] }> {
  private readonly file: JsonFile<ApiKeyRecord[]>;
  private readonly byHash = new Map<string, ApiKeyRecord>();
  /** Keys seen recently, so a call costs no hashing; emptied whenever a key is revoked or replaced. */
  private readonly recent = new Map<string, ApiKeyRecord>();
  /** Epoch ms of each key's last use, kept apart because it changes on every call. */
  private readonly lastUsed = new Map<string, number>();
  private lastUsedUnstored = false;

  private readonly log: RelayLog;

  constructor(path: string, log: RelayLog = consoleLog) {
    super();
    this.log = log;
    this.file = new JsonFile(path, { log });
    for (const record of this.file.read([])) this.byHash.set(record.hash, record);
  }

  create(input: NewApiKey): { key: string; record: ApiKeyView } {
    refuseMixedWorldLink(input.scopes);
    const key = randomSecret(KEY_PREFIX);
    const record: ApiKeyRecord = {
      id: randomUUID(),
      name: input.name,
      hash: hashSecret(key),
      prefix: key.slice(0, KEY_PREFIX.length + 6),
      scopes: [...new Set(input.scopes)],
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.worldIds?.length ? { worldIds: [...new Set(input.worldIds)] } : {}),
      createdAt: new Date().toISOString(),
    };
    this.store([...this.byHash.values(), record]);
    return { key, record: this.viewOf(record) };
  }

  /** The key's record, or undefined when the key is unknown or revoked. Marks the key as used. */
  verify(key: string): ApiKeyRecord | undefined {
    let record = this.recent.get(key);
    if (!record) {
      record = this.byHash.get(hashSecret(key));
      if (!record) return undefined;
      if (this.recent.size >= RECENT_KEYS) this.recent.clear();
      this.recent.set(key, record);
    }
    this.lastUsed.set(record.id, Date.now());
    this.lastUsedUnstored = true;
    return record;
  }

  list(): ApiKeyView[] {
    return [...this.byHash.values()].map((record) => this.viewOf(record));
  }

  update(id: string, changes: Partial<NewApiKey>): ApiKeyView | undefined {
    refuseMixedWorldLink(changes.scopes);
    const record = this.recordOf(id);
    if (!record) return undefined;
    const updated: ApiKeyRecord = { ...record };
    if (changes.name !== undefined) updated.name = changes.name;
    if (changes.scopes !== undefined) updated.scopes = [...new Set(changes.scopes)];
    if (changes.userId !== undefined) setOptional(updated, 'userId', changes.userId || undefined);
    if (changes.worldIds !== undefined)
      setOptional(updated, 'worldIds', changes.worldIds.length ? changes.worldIds : undefined);
    this.store(this.replaced(record, updated));
    this.emit('changed', id, 'updated');
    return this.viewOf(updated);
  }

  revoke(id: string): boolean {
    const record = this.recordOf(id);
    if (!record) return false;
    this.store(this.replaced(record, undefined));
    this.emit('changed', id, 'revoked');
    return true;
  }

  /** Issues a new key for the same record; the old key stops working at once. */
  rotate(id: string): { key: string; record: ApiKeyView } | undefined {
    const record = this.recordOf(id);
    if (!record) return undefined;
    const key = randomSecret(KEY_PREFIX);
    const rotated: ApiKeyRecord = { ...record, hash: hashSecret(key), prefix: key.slice(0, KEY_PREFIX.length + 6) };
    this.store(this.replaced(record, rotated));
    this.emit('changed', id, 'rotated');
    return { key, record: this.viewOf(rotated) };
  }

  /** Stores last-used times, which change on every call and are written only now and then. Never throws. */
  flush(): void {
    if (!this.lastUsedUnstored) return;
    try {
      this.store([...this.byHash.values()]);
    } catch (error) {
      this.log.error(
        `Could not store when API keys were last used: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private recordOf(id: string): ApiKeyRecord | undefined {
    for (const record of this.byHash.values()) if (record.id === id) return record;
    return undefined;
  }

  /** Every record, with one replaced by another or (undefined) left out. */
  private replaced(record: ApiKeyRecord, replacement: ApiKeyRecord | undefined): ApiKeyRecord[] {
    return [...this.byHash.values()].flatMap((candidate) =>
      candidate !== record ? [candidate] : replacement ? [replacement] : [],
    );
  }

  /** Writes the next set of keys, then makes it current: a failed write changes nothing, and no event fires. */
  private store(records: ApiKeyRecord[]): void {
    this.file.write(records.map((record) => ({ ...record, ...this.lastUsedOf(record) })));
    this.byHash.clear();
    for (const record of records) this.byHash.set(record.hash, record);
    this.recent.clear();
    this.lastUsedUnstored = false;
  }

  private lastUsedOf(record: ApiKeyRecord): Pick<ApiKeyRecord, 'lastUsedAt'> {
    const lastUsed = this.lastUsed.get(record.id);
    return lastUsed === undefined ? {} : { lastUsedAt: new Date(lastUsed).toISOString() };
  }

  private viewOf(record: ApiKeyRecord): ApiKeyView {
    const { hash: _hash, ...view } = record;
    return { ...view, ...this.lastUsedOf(record) };
  }
}

function setOptional<K extends 'userId' | 'worldIds'>(
  record: ApiKeyRecord,
  key: K,
  value: ApiKeyRecord[K] | undefined,
): void {
  if (value === undefined) delete record[key];
  else record[key] = value;
}
