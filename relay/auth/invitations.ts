import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { HttpError } from '../errors.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import type { Revocation } from '../storage/retried-write.ts';
import { SourceBuckets } from './pairing-limits.ts';
import { HashedRecords } from './hashed-records.ts';
import { hashSecret, randomSecret } from './secrets.ts';
import type { InvitationView } from '../../contracts/invitations.ts';

export type { InvitationView };

export interface InvitationRecord extends Omit<InvitationView, 'status' | 'expiresAt'> {
  /** Stored as open or used; whether an open one expired is a matter of time. */
  status: 'open' | 'used';
  /** Absent on invitations stored before invitations expired (`expiryOf`). */
  expiresAt?: string;
  /** SHA-256 of the invitation's secret; the secret itself is in the link only. */
  hash: string;
}

export interface NewInvitation {
  clientId: string;
  worldTitle?: string;
  userId: string;
  userName: string;
  /** The name the player's key gets. */
  name: string;
  /** How long the link works unused; the invitations' default lifetime (a week) when left out. */
  lifetimeMs?: number;
}

/** How long an invitation works unused, unless the GM chose otherwise: long enough to reach a player before the game. */
export const DEFAULT_INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/**
 * Shaped like an API key (`ttr_…`) so that the activity log and the desktop log mask one that slips into a path or a
 * message, as they mask keys; 256 random bits.
 */
const SECRET_PREFIX = 'ttr_inv_';
/** Used invitations are kept to tell a second try "already used"; the oldest beyond this many are forgotten. */
const KEPT_USED = 100;
/** Exchanges per source address: a player needs one; a few at once, then one every 6 s. */
const EXCHANGE_BURST = 5;
const EXCHANGE_REFILL_MS = 6_000;

/** Where an invitation link opens; the secret follows in the fragment. */
export const INVITATION_PAGE_PATH = '/invite';

export const ALREADY_USED = 'This invitation was already used: ask the GM for a new invitation';
const EXPIRED = (expiresAt: string) =>
  `This invitation expired on ${expiresAt.slice(0, 10)} without being used: ask the GM for a new invitation`;
export const NOT_AN_INVITATION =
  'This invitation link is not valid: the GM revoked it, or it was copied incompletely. Ask the GM for a new invitation';

/**
 * Player invitations: a one-time secret the GM hands a player as a link, exchanged once for an API key bound to one
 * tabletop user in one world. Stored hashed in `invitations.json`; valid until used, revoked or expired.
 */
export class Invitations extends EventEmitter<{ changed: [] }> {
  private readonly records: HashedRecords<InvitationRecord>;
  private readonly exchanges = new SourceBuckets(EXCHANGE_BURST, EXCHANGE_REFILL_MS);
  private readonly defaultLifetimeMs: number;

  constructor(path: string, options: { log?: RelayLog; defaultLifetimeMs?: number } = {}) {
    super();
    this.records = new HashedRecords(path, 'invitations', options.log ?? consoleLog);
    this.defaultLifetimeMs = options.defaultLifetimeMs ?? DEFAULT_INVITATION_LIFETIME_MS;
  }

  /** A new invitation and its secret, which only this answer holds. */
  create(
    { lifetimeMs = this.defaultLifetimeMs, ...input }: NewInvitation,
    now = Date.now(),
  ): {
    secret: string;
    record: InvitationView;
  } {
    const secret = randomSecret(SECRET_PREFIX);
    const record: InvitationRecord = {
      id: randomUUID(),
      ...input,
      hash: hashSecret(secret),
      status: 'open',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + lifetimeMs).toISOString(),
    };
    this.store([...this.records.all(), record]);
    return { secret, record: this.viewOf(record, now) };
  }

  list(now = Date.now()): InvitationView[] {
    return this.records.all().map((record) => this.viewOf(record, now));
  }

  /**
   * Forgets an invitation: its link stops working at once, even on a full or read-only disk (see
   * `HashedRecords.remove`). A key already made from it stays, on the keys page. Undefined when unknown.
   */
  revoke(id: string): Revocation | undefined {
    const revocation = this.records.remove(id);
    if (revocation) this.emit('changed');
    return revocation;
  }

  /** At stop: stores a revocation the disk refused. Never throws. */
  flush(): void {
    this.records.flush();
  }

  /** Counts one exchange against its source address; throws a 429 once the address must wait. */
  admit(source: string, now = Date.now()): void {
    this.exchanges.admit(source, now, 'Too many invitation links tried from this address; try again in {seconds} s');
  }

  /**
   * Uses the invitation once: it is stored as used before `makeKey` runs, so no restart or second request can make two
   * keys of it; when `makeKey` fails the invitation is open again.
   */
  redeem<T extends { keyId: string }>(secret: string, makeKey: (invitation: InvitationView) => T, now = Date.now()): T {
    const record = this.openRecord(secret, now);
    const invitation = this.viewOf(record, now);
    const used: InvitationRecord = { ...record, status: 'used', usedAt: new Date().toISOString() };
    this.store(this.withUsedCapped(this.replaced(record, used)));
    let made: T;
    try {
      made = makeKey(invitation);
    } catch (error) {
      this.store(this.replaced(used, record));
      throw error;
    }
    this.store(this.replaced(used, { ...used, keyId: made.keyId }));
    return made;
  }

  /**
   * The open invitation of a secret, without using it: what its page says before the player presses anything. Throws
   * what `redeem` would: 404 for no such invitation, 410 for a used or expired one.
   */
  check(secret: string, now = Date.now()): InvitationView {
    return this.viewOf(this.openRecord(secret, now), now);
  }

  private openRecord(secret: string, now: number): InvitationRecord {
    const record = this.records.withSecret(secret);
    if (!record) throw new HttpError(404, NOT_AN_INVITATION);
    if (record.status === 'used') throw new HttpError(410, ALREADY_USED);
    const { status, expiresAt } = this.viewOf(record, now);
    if (status === 'expired') throw new HttpError(410, EXPIRED(expiresAt));
    return record;
  }

  private replaced(record: InvitationRecord, replacement: InvitationRecord): InvitationRecord[] {
    return this.records.all().map((candidate) => (candidate === record ? replacement : candidate));
  }

  private withUsedCapped(records: InvitationRecord[]): InvitationRecord[] {
    const used = records.filter((record) => record.status === 'used');
    if (used.length <= KEPT_USED) return records;
    const forgotten = new Set(
      used.sort((a, b) => (a.usedAt ?? '').localeCompare(b.usedAt ?? '')).slice(0, used.length - KEPT_USED),
    );
    return records.filter((record) => !forgotten.has(record));
  }

  private viewOf(record: InvitationRecord, now: number): InvitationView {
    const { hash: _hash, ...stored } = record;
    const view: InvitationView = { ...stored, expiresAt: expiryOf(record, this.defaultLifetimeMs) };
    return view.status === 'open' && Date.parse(view.expiresAt) <= now ? { ...view, status: 'expired' } : view;
  }

  /** Writes the next list, then makes it current: a failed write changes nothing. */
  private store(records: InvitationRecord[]): void {
    this.records.store(records);
    this.emit('changed');
  }
}

/** An invitation stored before invitations expired lives the default lifetime from when it was made. */
function expiryOf(record: InvitationRecord, defaultLifetimeMs: number): string {
  return record.expiresAt ?? new Date(Date.parse(record.createdAt) + defaultLifetimeMs).toISOString();
}
