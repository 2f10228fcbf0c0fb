import { EventEmitter } from 'node:events';
import { normalCode, randomSecret, readableCode } from './secrets.ts';
import type { ApiKeys } from './api-keys.ts';
import type { Scope } from './scopes.ts';
import { refuseMixedWorldLink, WORLD_LINK_SCOPE } from './world-link.ts';
import { HttpError, RetryLater } from '../errors.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { refuseTooManyWaiting, SourceBuckets } from './pairing-limits.ts';
import { RequestSources } from './request-sources.ts';
import { DEFAULT_TOOLSETS, type AssistantGrant, type ToolsetName } from '../../contracts/assistants.ts';

const DEFAULT_LIFETIME_MS = 10 * 60_000;
/** However late the GM approves, the tool has at least this long to collect its key. */
const COLLECT_AFTER_APPROVAL_MS = 2 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 3_000;
/** A poll this much early (at most a quarter of the interval) still counts as on time: timers and networks are not exact. */
const POLL_EARLY_TOLERANCE_MS = 250;

/** Key requests one address may send: this many at once, then one more every REQUEST_REFILL_MS (10 per 15 minutes). */
const REQUEST_BURST = 10;
const REQUEST_REFILL_MS = 90_000;

const POLL_SECRET_PREFIX = 'krq_';
const RISKY_SCOPES: readonly Scope[] = ['execute-js', WORLD_LINK_SCOPE];

export type KeyRequestStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'delivered' | 'replaced';

/** What a tool asks for. */
export interface KeyRequestAsk {
  appName: string;
  appDescription?: string;
  appUrl?: string;
  scopes: Scope[];
  userId?: string;
  /** Empty asks for every world. */
  clientIds: string[];
  /** An AI assistant's request: the toolsets it asks for over MCP (its scopes are theirs). */
  toolsets?: ToolsetName[];
}

/** What the GM grants: the ask's fields, narrowed; absent fields grant what was asked, but never a risky scope. */
export interface KeyRequestGrant {
  name?: string;
  scopes?: Scope[];
  userId?: string;
  clientIds?: string[];
  /** For an assistant: the toolsets granted (some of those asked), and whether it may only read. */
  toolsets?: ToolsetName[];
  readOnly?: boolean;
  /** Each change the key asks of a world waits for the GM's approval. */
  askBeforeChanges?: boolean;
}

export interface KeyRequest extends KeyRequestAsk {
  /** Short and readable, e.g. `K7P-4QX`: only for the GM to match what the tool shows. It collects nothing. */
  code: string;
  status: KeyRequestStatus;
  /** The address the request came from, shown to the GM. */
  source: string;
  createdAt: number;
  expiresAt: number;
  keyId?: string;
}

/** What a poll with the request's secret answers. */
export type KeyRequestPoll =
  | { status: 'pending'; code: string }
  | { status: 'approved'; apiKey: string; scopes: Scope[]; clientIds: string[]; userId?: string }
  | { status: 'denied' }
  | { status: 'expired' };

/** A request with what only the relay holds: the tool's polling secret, and the new key until the tool collects it. */
interface HeldRequest {
  request: KeyRequest;
  secret: string;
  lastPolledAt?: number;
  delivery?: { apiKey: string; scopes: Scope[]; clientIds: string[]; userId?: string };
}

export interface KeyRequestOptions {
  /** How long a request waits for the GM (10 minutes by default). */
  lifetimeMs?: number;
  /** How often a tool may poll a waiting request (every 3 s by default). */
  pollIntervalMs?: number;
  /** Where requests count against the caps, and the addresses the GM denied; shared with pair requests. */
  sources?: RequestSources;
  /** The scopes an assistant's toolsets need (relay/mcp/); assistants' requests are refused without it. */
  scopesOfToolsets?: ToolsetScopes;
  log?: RelayLog;
}

/** The scopes the tools of these toolsets need, or only those of their reads. */
export type ToolsetScopes = (toolsets: readonly ToolsetName[], readOnly: boolean) => Scope[];

/**
 * Tools' requests for an API key (device-flow style). A tool asks without a key and gets a short code to show its user
 * and a long secret to poll with; the GM approves (perhaps narrowing) or denies through the admin API; the tool's next
 * poll collects the key once, and the request is gone. Requests live in memory only: the new key's plain text must
 * never reach the disk, and a tool whose request a restart lost simply asks again.
 * Emits 'changed' with the request whenever one appears or changes (also when it expires or is collected).
 */
export class KeyRequests extends EventEmitter<{ changed: [KeyRequest] }> {
  private readonly byCode = new Map<string, HeldRequest>();
  private readonly bySecret = new Map<string, HeldRequest>();
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();
  private readonly requestBuckets = new SourceBuckets(REQUEST_BURST, REQUEST_REFILL_MS);
  private readonly keys: ApiKeys;
  private readonly lifetimeMs: number;
  readonly pollIntervalMs: number;
  private readonly sources: RequestSources;
  private readonly scopesOfToolsets: ToolsetScopes | undefined;
  private readonly log: RelayLog;

  constructor(keys: ApiKeys, options: KeyRequestOptions = {}) {
    super();
    this.keys = keys;
    this.lifetimeMs = options.lifetimeMs ?? DEFAULT_LIFETIME_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.sources = options.sources ?? new RequestSources();
    this.scopesOfToolsets = options.scopesOfToolsets;
    this.log = options.log ?? consoleLog;
  }

  /**
   * Counts one request against its source address, before its body is read: a 403 for an address the GM denied, a 429
   * once the address must wait.
   */
  admit(source: string, now = Date.now()): void {
    this.sources.refuseDenied(source);
    this.requestBuckets.admit(source, now, 'Too many key requests from this address; try again in {seconds} s');
  }

  /**
   * A tool asks for a key, once admitted. The same tool (same address, name, scopes, user and worlds) asking again while
   * its request waits replaces that request: the GM sees one card, with the new code. Otherwise the caps on waiting
   * requests apply (429).
   */
  request(asked: KeyRequestAsk, source: string, now = Date.now()): { request: KeyRequest; secret: string } {
    const ask = this.withToolsetScopes(asked);
    refuseMixedWorldLink(ask.scopes);
    this.forgetOld(now);
    const pending = this.pending(now);
    const earlier = pending.find((request) => request.source === source && sameAsk(request, ask));
    const waiting = pending
      .filter((request) => request !== earlier)
      .map((request) => ({ ...this.sources.placeOf(request.source), expiresAt: request.expiresAt }));
    refuseTooManyWaiting(waiting, this.sources.placeOf(source), 'key requests', now);
    if (earlier) this.replace(earlier);
    const held: HeldRequest = {
      request: {
        ...ask,
        scopes: [...new Set(ask.scopes)],
        clientIds: [...new Set(ask.clientIds)],
        code: this.unusedCode(),
        status: 'pending',
        source,
        createdAt: now,
        expiresAt: now + this.lifetimeMs,
      },
      secret: randomSecret(POLL_SECRET_PREFIX),
    };
    this.byCode.set(held.request.code, held);
    this.bySecret.set(held.secret, held);
    this.expireAt(held, now);
    this.emit('changed', held.request);
    return { request: held.request, secret: held.secret };
  }

  /**
   * What the tool holding `secret` learns. An approval carries the key once and a denial is said once; the request is
   * then gone (404). A waiting request polled faster than `pollIntervalMs` is a 429.
   */
  poll(secret: string, now = Date.now()): KeyRequestPoll {
    const held = this.bySecret.get(secret);
    if (!held) {
      throw new HttpError(
        404,
        'Unknown key request: it was collected, denied and told, replaced or forgotten; ask for a key again',
      );
    }
    const { request } = held;
    this.refresh(held, now);
    if (request.status === 'pending') return this.pendingPoll(held, now);
    if (request.status === 'expired') return { status: 'expired' };
    this.forget(held);
    if (request.status === 'denied') return { status: 'denied' };
    const delivery = held.delivery!;
    held.delivery = undefined;
    request.status = 'delivered';
    this.emit('changed', request);
    return { status: 'approved', ...delivery };
  }

  private pendingPoll(held: HeldRequest, now: number): KeyRequestPoll {
    const wait = held.lastPolledAt === undefined ? 0 : held.lastPolledAt + this.pollIntervalMs - now;
    if (wait > Math.min(POLL_EARLY_TOLERANCE_MS, this.pollIntervalMs / 4)) {
      throw new RetryLater(
        `slow_down: poll this key request at most every ${this.pollIntervalMs / 1000} s; try again in {seconds} s`,
        wait / 1000,
      );
    }
    held.lastPolledAt = now;
    return { status: 'pending', code: held.request.code };
  }

  pending(now = Date.now()): KeyRequest[] {
    return [...this.byCode.values()]
      .filter((held) => this.refresh(held, now).status === 'pending')
      .map((held) => held.request);
  }

  /**
   * The GM approves, granting what the tool asked or less (400 for anything more). The key is made and stored hashed
   * like any other; its plain text stays in memory until the tool collects it, and is revoked if the tool never does.
   */
  approve(code: string, grant: KeyRequestGrant, now = Date.now()): KeyRequest {
    const held = this.decidable(code, now);
    const { request } = held;
    const assistant = grantedAssistant(request, grant);
    const scopes = grantedScopes(request, grant.scopes ?? this.scopesOfAssistant(request, assistant));
    const userId = grantedUser(request, grant.userId);
    const clientIds = grantedWorlds(request, grant.clientIds);
    const { key, record } = this.keys.create({
      name: grant.name?.trim() || request.appName,
      scopes,
      userId,
      worldIds: clientIds,
      ...(assistant ? { assistant } : {}),
      askBeforeChanges: grant.askBeforeChanges,
    });
    held.delivery = { apiKey: key, scopes, clientIds, ...(userId ? { userId } : {}) };
    request.status = 'approved';
    request.keyId = record.id;
    request.expiresAt = Math.max(request.expiresAt, now + Math.min(COLLECT_AFTER_APPROVAL_MS, this.lifetimeMs));
    this.expireAt(held, now);
    this.emit('changed', request);
    return request;
  }

  deny(code: string, now = Date.now()): KeyRequest {
    return this.denyHeld(this.decidable(code, now));
  }

  /** Denies every waiting request from `address` (the GM denied the address as a whole); answers how many. */
  denyAllFrom(address: string, now = Date.now()): number {
    const waiting = this.pending(now).filter((request) => request.source === address);
    for (const request of waiting) this.denyHeld(this.byCode.get(request.code)!);
    return waiting.length;
  }

  private denyHeld(held: HeldRequest): KeyRequest {
    held.request.status = 'denied';
    clearTimeout(this.expiryTimers.get(held.request.code));
    this.emit('changed', held.request);
    return held.request;
  }

  /** An assistant's ask with the scopes of its toolsets, when it names toolsets and no scopes. */
  private withToolsetScopes(ask: KeyRequestAsk): KeyRequestAsk {
    if (ask.toolsets === undefined) return ask;
    if (!this.scopesOfToolsets) throw new HttpError(400, 'This relay offers no toolsets: ask for scopes');
    if (ask.scopes.length > 0) return ask;
    const scopes = this.scopesOfToolsets(ask.toolsets, false);
    if (scopes.length === 0) throw new HttpError(400, 'Ask for at least one toolset');
    return { ...ask, scopes };
  }

  /**
   * The scopes of an assistant's granted toolsets, among those asked (a read-only one only those of its reads); for a
   * tool's request, undefined: the approval's own rule applies.
   */
  private scopesOfAssistant(request: KeyRequest, assistant: AssistantGrant | undefined): Scope[] | undefined {
    if (!assistant || !this.scopesOfToolsets) return undefined;
    const needed = this.scopesOfToolsets(assistant.toolsets, assistant.readOnly);
    return request.scopes.filter((scope) => needed.includes(scope));
  }

  /** Ends every timer, and revokes the keys approved but not collected: nobody will ever hold them. */
  close(): void {
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
    for (const held of this.byCode.values()) if (held.delivery) this.revokeUncollected(held);
  }

  private decidable(code: string, now: number): HeldRequest {
    const held = this.byCode.get(normalCode(code));
    if (!held) throw new HttpError(404, 'Unknown key request; it may have expired');
    const { status } = this.refresh(held, now);
    if (status !== 'pending') throw new HttpError(409, `This key request is already ${status}`);
    return held;
  }

  /** A waiting or approved request past its time expires; an approved one takes its uncollected key with it. */
  private refresh(held: HeldRequest, now: number): KeyRequest {
    const { request } = held;
    if (request.expiresAt > now || (request.status !== 'pending' && request.status !== 'approved')) return request;
    if (held.delivery) this.revokeUncollected(held);
    request.status = 'expired';
    this.emit('changed', request);
    return request;
  }

  private revokeUncollected(held: HeldRequest): void {
    held.delivery = undefined;
    try {
      if (held.request.keyId) this.keys.revoke(held.request.keyId);
    } catch (error) {
      this.log.error(
        `Could not revoke the uncollected key of the key request ${held.request.code} (revoke "${held.request.appName}" under Keys): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private replace(request: KeyRequest): void {
    const held = this.byCode.get(request.code)!;
    this.forget(held);
    request.status = 'replaced';
    this.emit('changed', request);
  }

  /** Says 'changed' when a request runs out, so the GM's list drops it without anyone asking. */
  private expireAt(held: HeldRequest, now: number): void {
    clearTimeout(this.expiryTimers.get(held.request.code));
    const timer = setTimeout(
      () => {
        this.expiryTimers.delete(held.request.code);
        this.refresh(held, Math.max(Date.now(), held.request.expiresAt));
      },
      Math.max(0, held.request.expiresAt - now),
    );
    timer.unref();
    this.expiryTimers.set(held.request.code, timer);
  }

  private forget(held: HeldRequest): void {
    this.byCode.delete(held.request.code);
    this.bySecret.delete(held.secret);
    clearTimeout(this.expiryTimers.get(held.request.code));
    this.expiryTimers.delete(held.request.code);
  }

  /** Decided or expired requests wait one more lifetime for their tool's last poll, then are forgotten. */
  private forgetOld(now: number): void {
    for (const held of [...this.byCode.values()]) {
      if (this.refresh(held, now).status === 'pending' || held.delivery) continue;
      if (held.request.expiresAt + this.lifetimeMs <= now) this.forget(held);
    }
  }

  private unusedCode(): string {
    let code = readableCode();
    while (this.byCode.has(code)) code = readableCode();
    return code;
  }
}

/** The asked-for scopes a GM should grant only knowingly. */
export function riskyScopesOf(scopes: readonly Scope[]): Scope[] {
  return scopes.filter((scope) => RISKY_SCOPES.includes(scope));
}

function sameAsk(a: KeyRequestAsk, b: KeyRequestAsk): boolean {
  return (
    a.appName === b.appName &&
    (a.userId ?? '') === (b.userId ?? '') &&
    sameSet(a.scopes, b.scopes) &&
    sameSet(a.clientIds, b.clientIds) &&
    sameSet(a.toolsets ?? [], b.toolsets ?? [])
  );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
}

/**
 * What an approval grants: the scopes it names, each asked for; one that names none grants the asked scopes but the
 * risky ones, which are granted only by name, as in the settings UI, where they come unticked.
 */
function grantedScopes(request: KeyRequest, scopes: Scope[] | undefined): Scope[] {
  if (scopes === undefined) return unnamedGrant(request);
  const beyond = scopes.filter((scope) => !request.scopes.includes(scope));
  if (beyond.length > 0) {
    throw new HttpError(
      400,
      `The tool did not ask for ${beyond.join(', ')}; an approval may only grant scopes it asked for (${request.scopes.join(', ')})`,
    );
  }
  if (scopes.length === 0) throw new HttpError(400, 'Grant at least one scope, or deny the request');
  return [...new Set(scopes)];
}

function unnamedGrant(request: KeyRequest): Scope[] {
  const risky = riskyScopesOf(request.scopes);
  const granted = request.scopes.filter((scope) => !risky.includes(scope));
  if (granted.length === 0) {
    throw new HttpError(
      400,
      `The tool asked only for ${risky.join(', ')}, granted only by name: name them in 'scopes' to grant them, or deny the request`,
    );
  }
  return granted;
}

/**
 * What an assistant's approval grants: the toolsets it names, each asked for; one that names none grants the asked
 * toolsets that are offered by default (never Delete or Scripts, which only an approval naming them grants).
 */
function grantedAssistant(request: KeyRequest, grant: KeyRequestGrant): AssistantGrant | undefined {
  if (request.toolsets === undefined) return undefined;
  const asked = request.toolsets;
  const toolsets = grant.toolsets ?? asked.filter((toolset) => DEFAULT_TOOLSETS.includes(toolset));
  const beyond = toolsets.filter((toolset) => !asked.includes(toolset));
  if (beyond.length > 0)
    throw new HttpError(
      400,
      `The assistant did not ask for ${beyond.join(', ')}; an approval may only grant toolsets it asked for (${asked.join(', ')})`,
    );
  if (toolsets.length === 0) throw new HttpError(400, 'Grant at least one toolset, or deny the request');
  return { toolsets: [...new Set(toolsets)], readOnly: grant.readOnly === true };
}

function grantedUser(request: KeyRequest, userId: string | undefined): string | undefined {
  if (userId === undefined) return request.userId;
  if (!userId && request.userId) {
    throw new HttpError(
      400,
      `The tool asked to act as the user ${request.userId}; an approval may bind it to another user, never to none`,
    );
  }
  return userId || undefined;
}

function grantedWorlds(request: KeyRequest, clientIds: string[] | undefined): string[] {
  if (clientIds === undefined) return request.clientIds;
  if (request.clientIds.length === 0) return [...new Set(clientIds)];
  const beyond = clientIds.filter((clientId) => !request.clientIds.includes(clientId));
  if (beyond.length > 0 || clientIds.length === 0) {
    throw new HttpError(
      400,
      `The tool asked to reach only ${request.clientIds.join(', ')}; an approval may only grant some of those worlds`,
    );
  }
  return [...new Set(clientIds)];
}
