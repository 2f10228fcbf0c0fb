import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { HashedRecords, newSecret } from './hashed-records.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import type { Revocation } from '../storage/retried-write.ts';
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

export type OverlayLinkChanges = Partial<
  Pick<OverlayLinkView, 'name' | 'userId' | 'actorUuid' | 'hpBars' | 'customCss'>
>;

export type OverlayLinkChange = 'updated' | 'rotated' | 'revoked';

/** Told apart from an API key (`ttr_`) at a glance, and by the relay, which refuses either where the other belongs. */
export const OVERLAY_LINK_PREFIX = 'ttol_';
export const MAX_CUSTOM_CSS_BYTES = 20 * 1024;

export class OverlayLinks extends EventEmitter<{ changed: [id: string, change: OverlayLinkChange] }> {
  /** Last-use times change on every call (an open overlay polls and streams), so they are written only now and then. */
  private readonly records: HashedRecords<OverlayLinkRecord>;

  constructor(path: string, log: RelayLog = consoleLog) {
    super();
    this.records = new HashedRecords(path, 'overlay links', log);
  }

  create(input: NewOverlayLinkInput): { link: string; record: OverlayLinkView } {
    const { secret: link, hash, prefix } = newSecret(OVERLAY_LINK_PREFIX);
    const record: OverlayLinkRecord = {
      id: randomUUID(),
      name: input.name?.trim() || `${OVERLAYS[input.overlay].title} · ${input.worldTitle || input.clientId}`,
      overlay: input.overlay,
      clientId: input.clientId,
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.actorUuid ? { actorUuid: input.actorUuid } : {}),
      hpBars: input.hpBars ?? false,
      customCss: input.customCss ?? '',
      hash,
      prefix,
      createdAt: new Date().toISOString(),
    };
    checkRecord(record);
    this.records.add(record);
    return { link, record: this.viewOf(record) };
  }

  /** The link's record, or undefined when the link is unknown or revoked. Marks the link as used. */
  verify(link: string): OverlayLinkRecord | undefined {
    return this.records.use(link);
  }

  get(id: string): OverlayLinkView | undefined {
    const record = this.records.withId(id);
    return record && this.viewOf(record);
  }

  list(): OverlayLinkView[] {
    return this.records.all().map((record) => this.viewOf(record));
  }

  update(id: string, changes: OverlayLinkChanges): OverlayLinkView | undefined {
    const record = this.records.withId(id);
    if (!record) return undefined;
    const updated: OverlayLinkRecord = { ...record };
    if (changes.name !== undefined) updated.name = changes.name.trim() || record.name;
    if (changes.userId !== undefined) setOptional(updated, 'userId', changes.userId);
    if (changes.actorUuid !== undefined) setOptional(updated, 'actorUuid', changes.actorUuid);
    if (changes.hpBars !== undefined) updated.hpBars = changes.hpBars;
    if (changes.customCss !== undefined) updated.customCss = changes.customCss;
    checkRecord(updated);
    this.records.replace(record, updated);
    this.emit('changed', id, 'updated');
    return this.viewOf(updated);
  }

  /** The link stops working at once, even on a full or read-only disk (see `HashedRecords.remove`); undefined when unknown. */
  revoke(id: string): Revocation | undefined {
    const revocation = this.records.remove(id);
    if (revocation) this.emit('changed', id, 'revoked');
    return revocation;
  }

  /** Issues a new secret for the same link; the old URL stops working at once. */
  rotate(id: string): { link: string; record: OverlayLinkView } | undefined {
    const rotated = this.records.renew(id, OVERLAY_LINK_PREFIX);
    if (!rotated) return undefined;
    this.emit('changed', id, 'rotated');
    return { link: rotated.secret, record: this.viewOf(rotated.record) };
  }

  /**
   * At stop: stores a revocation the disk refused, and last-used times, which change on every call and are written only
   * now and then. Never throws.
   */
  flush(): void {
    this.records.flush();
  }

  private viewOf(record: OverlayLinkRecord): OverlayLinkView {
    const { hash: _hash, ...view } = record;
    return { ...view, scopes: [...OVERLAYS[record.overlay].scopes], ...this.records.lastUseOf(record) };
  }
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
