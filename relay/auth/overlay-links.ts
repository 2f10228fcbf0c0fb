import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { JsonFile } from '../storage/json-file.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { HttpError } from '../errors.ts';
import { OVERLAYS, type OverlayName } from '../../contracts/overlays.ts';
import type { OverlayLinkView } from '../../contracts/admin-api.ts';

/**
 * An overlay link: the one credential that may sit in a URL (`?link=`). It opens one overlay's page, view and stream
 * for one world, read-only, and nothing else; the secret is shown once and only its SHA-256 is kept.
 */
export interface OverlayLinkRecord extends Omit<OverlayLinkView, 'scopes' | 'lastUsedAt'> {
  hash: string;
}

export interface NewOverlayLinkInput {
  overlay: OverlayName;
  clientId: string;
  name?: string;
  /** What the default name calls the world; the client id when absent. */
  worldTitle?: string;
  userId?: string;
  actorUuid?: string;
  hpBars?: boolean;
  customCss?: string;
}

type StoredOverlayLink = OverlayLinkRecord & Pick<OverlayLinkView, 'lastUsedAt'>;

export type OverlayLinkChanges = Partial<
  Pick<OverlayLinkView, 'name' | 'userId' | 'actorUuid' | 'hpBars' | 'customCss'>
>;

export type OverlayLinkChange = 'updated' | 'rotated' | 'revoked';

/** Told apart from an API key (`ttr_`) at a glance, and by the relay, which refuses either where the other belongs. */
export const OVERLAY_LINK_PREFIX = 'ttol_';
export const MAX_CUSTOM_CSS_BYTES = 20 * 1024;
const RECENT_LINKS = 1024;

export class OverlayLinks extends EventEmitter<{ changed: [id: string, change: OverlayLinkChange] }> {
  private readonly file: JsonFile<StoredOverlayLink[]>;
  private readonly byHash = new Map<string, OverlayLinkRecord>();
  /** Links seen recently, so a call costs no hashing; emptied whenever a link is revoked or replaced. */
  private readonly recent = new Map<string, OverlayLinkRecord>();
  /** Epoch ms of each link's last use, kept apart because it changes on every call (an open overlay polls and streams). */
  private readonly lastUsed = new Map<string, number>();
  private lastUsedUnstored = false;
  private readonly log: RelayLog;

  constructor(path: string, log: RelayLog = consoleLog) {
    super();
    this.log = log;
    this.file = new JsonFile(path, { log });
    for (const { lastUsedAt, ...record } of this.file.read([])) {
      this.byHash.set(record.hash, record);
      if (lastUsedAt !== undefined) this.lastUsed.set(record.id, Date.parse(lastUsedAt));
    }
  }

  create(input: NewOverlayLinkInput): { link: string; record: OverlayLinkView } {
    const link = randomSecret(OVERLAY_LINK_PREFIX);
    const record: OverlayLinkRecord = {
      id: randomUUID(),
      name: input.name?.trim() || `${OVERLAYS[input.overlay].title} · ${input.worldTitle || input.clientId}`,
      overlay: input.overlay,
      clientId: input.clientId,
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.actorUuid ? { actorUuid: input.actorUuid } : {}),
      hpBars: input.hpBars ?? false,
      customCss: input.customCss ?? '',
      hash: hashSecret(link),
      prefix: prefixOf(link),
      createdAt: new Date().toISOString(),
    };
    checkRecord(record);
    this.store([...this.byHash.values(), record]);
    return { link, record: this.viewOf(record) };
  }

  /** The link's record, or undefined when the link is unknown or revoked. Marks the link as used. */
  verify(link: string): OverlayLinkRecord | undefined {
    let record = this.recent.get(link);
    if (!record) {
      record = this.byHash.get(hashSecret(link));
      if (!record) return undefined;
      if (this.recent.size >= RECENT_LINKS) this.recent.clear();
      this.recent.set(link, record);
    }
    this.lastUsed.set(record.id, Date.now());
    this.lastUsedUnstored = true;
    return record;
  }

  get(id: string): OverlayLinkView | undefined {
    const record = this.recordOf(id);
    return record && this.viewOf(record);
  }

  list(): OverlayLinkView[] {
    return [...this.byHash.values()].map((record) => this.viewOf(record));
  }

  update(id: string, changes: OverlayLinkChanges): OverlayLinkView | undefined {
    const record = this.recordOf(id);
    if (!record) return undefined;
    const updated: OverlayLinkRecord = { ...record };
    if (changes.name !== undefined) updated.name = changes.name.trim() || record.name;
    if (changes.userId !== undefined) setOptional(updated, 'userId', changes.userId);
    if (changes.actorUuid !== undefined) setOptional(updated, 'actorUuid', changes.actorUuid);
    if (changes.hpBars !== undefined) updated.hpBars = changes.hpBars;
    if (changes.customCss !== undefined) updated.customCss = changes.customCss;
    checkRecord(updated);
    this.store(this.replaced(record, updated));
    this.emit('changed', id, 'updated');
    return this.viewOf(updated);
  }

  revoke(id: string): boolean {
    const record = this.recordOf(id);
    if (!record) return false;
    this.store(this.replaced(record, undefined));
    this.lastUsed.delete(id);
    this.emit('changed', id, 'revoked');
    return true;
  }

  /** Issues a new secret for the same link; the old URL stops working at once. */
  rotate(id: string): { link: string; record: OverlayLinkView } | undefined {
    const record = this.recordOf(id);
    if (!record) return undefined;
    const link = randomSecret(OVERLAY_LINK_PREFIX);
    const rotated: OverlayLinkRecord = { ...record, hash: hashSecret(link), prefix: prefixOf(link) };
    this.store(this.replaced(record, rotated));
    this.emit('changed', id, 'rotated');
    return { link, record: this.viewOf(rotated) };
  }

  /** Stores last-used times, which change on every call and are written only now and then. Never throws. */
  flush(): void {
    if (!this.lastUsedUnstored) return;
    try {
      this.store([...this.byHash.values()]);
    } catch (error) {
      this.log.error(
        `Could not store when overlay links were last used: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private recordOf(id: string): OverlayLinkRecord | undefined {
    for (const record of this.byHash.values()) if (record.id === id) return record;
    return undefined;
  }

  /** Every record, with one replaced by another or (undefined) left out. */
  private replaced(record: OverlayLinkRecord, replacement: OverlayLinkRecord | undefined): OverlayLinkRecord[] {
    return [...this.byHash.values()].flatMap((candidate) =>
      candidate !== record ? [candidate] : replacement ? [replacement] : [],
    );
  }

  /** Writes the next set of links, then makes it current: a failed write changes nothing, and no event fires. */
  private store(records: OverlayLinkRecord[]): void {
    this.file.write(records.map((record) => ({ ...record, ...this.lastUsedOf(record) })));
    this.byHash.clear();
    for (const record of records) this.byHash.set(record.hash, record);
    this.recent.clear();
    this.lastUsedUnstored = false;
  }

  private lastUsedOf(record: OverlayLinkRecord): Pick<OverlayLinkView, 'lastUsedAt'> {
    const lastUsed = this.lastUsed.get(record.id);
    return lastUsed === undefined ? {} : { lastUsedAt: new Date(lastUsed).toISOString() };
  }

  private viewOf(record: OverlayLinkRecord): OverlayLinkView {
    const { hash: _hash, ...view } = record;
    return { ...view, scopes: [...OVERLAYS[record.overlay].scopes], ...this.lastUsedOf(record) };
  }
}

function prefixOf(link: string): string {
  return link.slice(0, OVERLAY_LINK_PREFIX.length + 6);
}

/** What no link may hold, whichever call made it: the same rules for a new link and a changed one. */
function checkRecord(record: OverlayLinkRecord): void {
  if (record.overlay === 'character-card' && !record.actorUuid)
    throw new HttpError(400, "A character card shows one actor: give its 'actorUuid', e.g. Actor.abc123");
  if (Buffer.byteLength(record.customCss) > MAX_CUSTOM_CSS_BYTES)
    throw new HttpError(400, `'customCss' is at most ${MAX_CUSTOM_CSS_BYTES / 1024} KiB`);
  // The page embeds it in a <style> element, which only this sequence can end early.
  if (/<\/style/i.test(record.customCss))
    throw new HttpError(400, "'customCss' may not contain </style: give only CSS rules");
}

function setOptional<K extends 'userId' | 'actorUuid'>(record: OverlayLinkRecord, key: K, value: string): void {
  if (value === '') delete record[key];
  else record[key] = value;
}
