import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { HashedRecords, newSecret } from './hashed-records.ts';
import type { Scope } from './scopes.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import type { Revocation } from '../storage/retried-write.ts';
import { refuseMixedWorldLink } from './world-link.ts';
import type { ApiKeyView } from '../../contracts/admin-api.ts';
import type { AssistantGrant } from '../../contracts/assistants.ts';

/** A key as it is stored: what the admin API shows of it (contracts/admin-api.ts), its scopes checked, and its hash. */
export interface ApiKeyRecord extends ApiKeyView<Scope> {
  /** SHA-256 of the key; the key itself is shown once and never stored. */
  hash: string;
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  userId?: string;
  worldIds?: string[];
  invitationId?: string;
  origin?: string;
  assistant?: AssistantGrant;
  askBeforeChanges?: boolean;
}

/** What every API key starts with, and no other credential the relay issues but an invitation's secret. */
export const KEY_PREFIX = 'ttr_';

/** What happened to a key: its holder's open sockets and streams must end when it is revoked, rotated or changed. */
export type ApiKeyChange = 'updated' | 'rotated' | 'revoked';

export class ApiKeys extends EventEmitter<{ changed: [id: string, change: ApiKeyChange] }> {
  private readonly records: HashedRecords<ApiKeyRecord>;

  constructor(path: string, log: RelayLog = consoleLog) {
    super();
    this.records = new HashedRecords(path, 'API keys', log);
  }

  create(input: NewApiKey): { key: string; record: ApiKeyView<Scope> } {
    refuseMixedWorldLink(input.scopes);
    const { secret: key, hash, prefix } = newSecret(KEY_PREFIX);
    const record: ApiKeyRecord = {
      id: randomUUID(),
      name: input.name,
      hash,
      prefix,
      scopes: [...new Set(input.scopes)],
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.worldIds?.length ? { worldIds: [...new Set(input.worldIds)] } : {}),
      ...(input.invitationId ? { invitationId: input.invitationId } : {}),
      ...(input.origin ? { origin: input.origin } : {}),
      ...(input.assistant ? { assistant: input.assistant } : {}),
      ...(input.askBeforeChanges ? { askBeforeChanges: true } : {}),
      createdAt: new Date().toISOString(),
    };
    this.records.add(record);
    return { key, record: this.viewOf(record) };
  }

  /** The key's record, or undefined when the key is unknown or revoked. Marks the key as used. */
  verify(key: string): ApiKeyRecord | undefined {
    return this.records.use(key);
  }

  list(): ApiKeyView<Scope>[] {
    return this.records.all().map((record) => this.viewOf(record));
  }

  update(id: string, changes: Partial<NewApiKey>): ApiKeyView<Scope> | undefined {
    refuseMixedWorldLink(changes.scopes);
    const record = this.records.withId(id);
    if (!record) return undefined;
    const updated: ApiKeyRecord = { ...record };
    if (changes.name !== undefined) updated.name = changes.name;
    if (changes.scopes !== undefined) updated.scopes = [...new Set(changes.scopes)];
    if (changes.userId !== undefined) setOptional(updated, 'userId', changes.userId || undefined);
    if (changes.worldIds !== undefined)
      setOptional(updated, 'worldIds', changes.worldIds.length ? changes.worldIds : undefined);
    if (changes.askBeforeChanges !== undefined)
      setOptional(updated, 'askBeforeChanges', changes.askBeforeChanges || undefined);
    this.records.replace(record, updated);
    this.emit('changed', id, 'updated');
    return this.viewOf(updated);
  }

  /** The key stops working at once, even on a full or read-only disk (see `HashedRecords.remove`); undefined when unknown. */
  revoke(id: string): Revocation | undefined {
    const revocation = this.records.remove(id);
    if (revocation) this.emit('changed', id, 'revoked');
    return revocation;
  }

  /** Issues a new key for the same record; the old key stops working at once. */
  rotate(id: string): { key: string; record: ApiKeyView<Scope> } | undefined {
    const rotated = this.records.renew(id, KEY_PREFIX);
    if (!rotated) return undefined;
    this.emit('changed', id, 'rotated');
    return { key: rotated.secret, record: this.viewOf(rotated.record) };
  }

  /**
   * At stop: stores a revocation the disk refused, and last-used times, which change on every call and are written only
   * now and then. Never throws.
   */
  flush(): void {
    this.records.flush();
  }

  private viewOf(record: ApiKeyRecord): ApiKeyView<Scope> {
    const { hash: _hash, ...view } = record;
    return { ...view, ...this.records.lastUseOf(record) };
  }
}

function setOptional<K extends 'userId' | 'worldIds' | 'askBeforeChanges'>(
  record: ApiKeyRecord,
  key: K,
  value: ApiKeyRecord[K] | undefined,
): void {
  if (value === undefined) delete record[key];
  else record[key] = value;
}
