import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { JsonFile } from '../storage/json-file.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import type { Scope } from './scopes.ts';

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

  constructor(path: string) {
    super();
    this.file = new JsonFile(path);
    for (const record of this.file.read([])) this.byHash.set(record.hash, record);
  }

  create(input: NewApiKey): { key: string; record: ApiKeyView } {
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
    this.byHash.set(record.hash, record);
    this.save();
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
    return record;
  }

  list(): ApiKeyView[] {
    return [...this.byHash.values()].map((record) => this.viewOf(record));
  }

  update(id: string, changes: Partial<NewApiKey>): ApiKeyView | undefined {
    const record = this.recordOf(id);
    if (!record) return undefined;
    if (changes.name !== undefined) record.name = changes.name;
    if (changes.scopes !== undefined) record.scopes = [...new Set(changes.scopes)];
    if (changes.userId !== undefined) setOptional(record, 'userId', changes.userId || undefined);
    if (changes.worldIds !== undefined) setOptional(record, 'worldIds', changes.worldIds.length ? changes.worldIds : undefined);
    this.save();
    this.emit('changed', id, 'updated');
    return this.viewOf(record);
  }

  revoke(id: string): boolean {
    const record = this.recordOf(id);
    if (!record) return false;
    this.byHash.delete(record.hash);
    this.recent.clear();
    this.save();
    this.emit('changed', id, 'revoked');
    return true;
  }

  /** Issues a new key for the same record; the old key stops working at once. */
  rotate(id: string): { key: string; record: ApiKeyView } | undefined {
    const record = this.recordOf(id);
    if (!record) return undefined;
    const key = randomSecret(KEY_PREFIX);
    this.byHash.delete(record.hash);
    this.recent.clear();
    record.hash = hashSecret(key);
    record.prefix = key.slice(0, KEY_PREFIX.length + 6);
    this.byHash.set(record.hash, record);
    this.save();
    this.emit('changed', id, 'rotated');
    return { key, record: this.viewOf(record) };
  }

  /** Persists last-used times, which change on every call and are written only now and then. */
  flush(): void {
    this.save();
  }

  private recordOf(id: string): ApiKeyRecord | undefined {
    for (const record of this.byHash.values()) if (record.id === id) return record;
    return undefined;
  }

  private save(): void {
    this.file.write([...this.byHash.values()].map((record) => ({ ...record, ...this.lastUsedOf(record) })));
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

function setOptional<K extends 'userId' | 'worldIds'>(record: ApiKeyRecord, key: K, value: ApiKeyRecord[K] | undefined): void {
  if (value === undefined) delete record[key];
  else record[key] = value;
}
