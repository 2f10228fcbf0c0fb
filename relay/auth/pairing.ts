import { EventEmitter } from 'node:events';
import { randomCode, randomHex } from './secrets.ts';
import type { ConnectionTokens } from './connection-tokens.ts';
import type { KnownWorld, KnownWorlds } from './known-worlds.ts';
import { HttpError } from '../errors.ts';
import { JsonFile } from '../storage/json-file.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import { CodeGuessLimits, refuseTooManyWaiting, SourceBuckets, type RequestPlace } from './pairing-limits.ts';
import { RequestSources } from './request-sources.ts';
import { originOf } from '../gate/request-gate.ts';

const REQUEST_LIFETIME_MS = 10 * 60_000;
const APPROVED_CODE_LIFETIME_MS = 5 * 60_000;
const ISSUED_CODE_LIFETIME_MS = 10 * 60_000;

/** The module only polls the request code, never shows it for typing, so it can be long enough not to be guessed. */
const REQUEST_CODE_LENGTH = 16;
/** The module's "Enter Code" box takes exactly 6 characters (module-protocol.md §3.4): the attempt limits guard these. */
const PAIRING_CODE_LENGTH = 6;

/** Pair requests one address may send: this many at once, then one more every REQUEST_REFILL_MS. */
const REQUEST_BURST = 10;
const REQUEST_REFILL_MS = 6_000;

export type PairRequestStatus = 'pending' | 'approved' | 'denied' | 'exchanged' | 'expired';

/** What the pairing page shows of a request: `paired` once the world holds its token. */
export type PairPageState = 'waiting' | 'approved' | 'paired' | 'denied' | 'expired';

/** What a world says about itself when it asks to pair (module-protocol.md §3.3). */
export interface PairingWorld {
  worldId: string;
  worldTitle?: string;
  systemId?: string;
  systemTitle?: string;
  systemVersion?: string;
  foundryVersion?: string;
  serverFingerprint?: string;
  clientId?: string;
}

export interface PairRequest {
  code: string;
  status: PairRequestStatus;
  world: PairingWorld;
  upgradeOnly: boolean;
  /** The address the request came from, shown to the GM. */
  source: string;
  /** The web page that sent it (its Origin), shown to the GM; none when no browser sent it. */
  origin?: string;
  createdAt: number;
  expiresAt: number;
  pairingCode?: string;
}

/**
 * What a pairing code may be redeemed for. `request`: the world of an approved pair request, and the paired world the
 * GM was shown it matches, if any. `world`: the paired world the GM issued the code for. `new`: a code the GM issued
 * without naming a world; it pairs a world the relay does not know yet, or re-pairs one that proves it is that world.
 */
type CodeBinding =
  | { kind: 'request'; world: PairingWorld; pairedClientId?: string; origin?: string }
  | { kind: 'world'; clientId: string }
  | { kind: 'new' };

interface PairingCode {
  code: string;
  expiresAt: number;
  binding: CodeBinding;
  used: boolean;
}

/** What survives a restart: the GM may approve a request made before it, and the module then gets its code. */
interface StoredPairing {
  requests: PairRequest[];
  codes: PairingCode[];
}

export interface PairingExchange {
  code: string;
  worldId?: string;
  worldTitle?: string;
  serverFingerprint?: string;
  existingClientId?: string;
  serverOrigin?: string;
  userAgent?: string;
  /** The Foundry page's origin, kept with the token so /relay admits that page. */
  origin?: string;
}

/** Who calls a pairing route, as the pairing counters tell callers apart: the address, and the page (`Origin`) if any. */
export interface PairingCaller {
  address: string;
  origin?: string;
}

/**
 * The web page a caller is: a Foundry page the relay knows (`PairRequestView.page`), another web page (any page can
 * call the pairing routes, which answer every origin), or none: a caller that sends no Origin is not a browser.
 */
export type PageKind = 'foundry' | 'other' | 'none';

/** A page's origin as a browser sends it: `null` (an opaque origin, or anything that is not an http(s) origin) as such. */
export function pageOriginOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : (originOf(header) ?? 'null');
}

function forbidden(message: string): never {
  throw new HttpError(403, `${message}. The code was not used up.`);
}

/**
 * Pair requests (the module's "Pair" button) and pairing codes (its "Enter Code" box). The GM approves requests and
 * issues codes through the admin API; the world exchanges a code for its connection token.
 * Emits 'changed' with the request whenever one appears or changes (also when it expires), so the tray can show it.
 * Requests and codes are kept in the data directory, so a restart loses none; a change is made only once it is stored.
 */
export class Pairing extends EventEmitter<{ changed: [PairRequest] }> {
  private requests = new Map<string, PairRequest>();
  private codes = new Map<string, PairingCode>();
  private readonly expiryTimers = new Map<string, NodeJS.Timeout>();
  private readonly requestBuckets = new SourceBuckets(REQUEST_BURST, REQUEST_REFILL_MS);
  private readonly guesses = new CodeGuessLimits();
  private readonly tokens: ConnectionTokens;
  private readonly worlds: KnownWorlds;
  private readonly sources: RequestSources;
  private readonly file: JsonFile<StoredPairing>;

  constructor(
    tokens: ConnectionTokens,
    worlds: KnownWorlds,
    path: string,
    options: { sources?: RequestSources; log?: RelayLog } = {},
    now = Date.now(),
  ) {
    super();
    this.tokens = tokens;
    this.worlds = worlds;
    this.sources = options.sources ?? new RequestSources();
    this.file = new JsonFile(path, { log: options.log ?? consoleLog });
    this.load(now);
  }

  /** Expired requests and used or expired codes are left out: they could only be refused. */
  private load(now: number): void {
    const stored = this.file.read({ requests: [], codes: [] });
    for (const request of stored.requests) {
      if (request.expiresAt <= now) continue;
      this.requests.set(request.code, request);
      if (request.status === 'pending') this.expireLater(request, now);
    }
    for (const code of stored.codes) if (!code.used && code.expiresAt > now) this.codes.set(code.code, code);
  }

  /**
   * Counts a pair request against its address and page before its body is read (the route's `admit`): over the rate, a
   * 429 that says when to come back; from an address the GM denied, a 403.
   */
  admitRequest(caller: PairingCaller, now = Date.now()): void {
    this.sources.refuseDenied(caller.address);
    this.requestBuckets.admit(
      `${caller.address} ${this.pageTag(caller.origin)}`,
      now,
      'Too many pair requests from this address; try again in {seconds} s',
    );
  }

  /** Refuses, before its body is read, a caller that must wait after wrong pairing codes (`CodeGuessLimits.check`). */
  admitCodeAttempt(caller: PairingCaller, now = Date.now()): void {
    this.guesses.check(this.placeOf(caller).place, now);
  }

  /**
   * Where a caller counts for the pair-request caps and the code-guessing limits: its address (this computer as one),
   * set apart by its page (`pageTag`).
   */
  private placeOf(caller: PairingCaller): RequestPlace {
    return this.sources.placeOf(caller.address, this.pageTag(caller.origin));
  }

  /**
   * What sets a caller's page apart in the pairing counters (the per-address rate too): each Foundry page the relay
   * knows counts on its own, every other web page together, callers that are no browser together. So a page the GM
   * opens, which calls from this computer as the GM's own Foundry tab does, can use up only what other pages have.
   */
  private pageTag(origin: string | undefined): string {
    const page = this.pageOf(origin);
    return page === 'foundry' ? origin! : page === 'other' ? 'web page' : '';
  }

  /**
   * Whether a page's origin is a Foundry page of a world the relay knows: the page a world was paired on, a world's
   * Foundry address (Status → Paired worlds), or the page of a pair request the GM approved.
   */
  pageOf(origin: string | undefined): PageKind {
    if (origin === undefined) return 'none';
    return this.foundryOrigins().has(origin) ? 'foundry' : 'other';
  }

  private foundryOrigins(): Set<string> {
    const origins = new Set<string>();
    for (const token of this.tokens.list()) if (token.origin) origins.add(token.origin);
    for (const world of this.worlds.list()) {
      const origin = originOf(world.foundryUrl);
      if (origin) origins.add(origin);
    }
    for (const { binding, used } of this.codes.values()) {
      if (binding.kind === 'request' && binding.origin && !used) origins.add(binding.origin);
    }
    return origins;
  }

  /**
   * A world asks to pair, once `admitRequest` let its caller in. The same world asking again from the same address and
   * page while its request waits gets that request back (`created: false`); otherwise the caps on waiting requests apply
   * (429).
   */
  request(
    world: PairingWorld,
    options: { upgradeOnly: boolean; caller: PairingCaller },
    now = Date.now(),
  ): { request: PairRequest; created: boolean } {
    const { caller, upgradeOnly } = options;
    this.forgetExpired(now);
    const pending = this.pending(now);
    const same = pending.find(
      (request) =>
        request.source === caller.address &&
        request.origin === caller.origin &&
        request.upgradeOnly === upgradeOnly &&
        sameRequestedWorld(request.world, world),
    );
    if (same) return { request: same, created: false };
    const waiting = pending.map((request) => ({
      ...this.placeOf({ address: request.source, origin: request.origin }),
      expiresAt: request.expiresAt,
    }));
    refuseTooManyWaiting(waiting, this.placeOf(caller), 'pair requests', now);
    const request: PairRequest = {
      code: this.unusedCode(REQUEST_CODE_LENGTH, this.requests),
      status: 'pending',
      world,
      upgradeOnly,
      source: caller.address,
      ...(caller.origin === undefined ? {} : { origin: caller.origin }),
      createdAt: now,
      expiresAt: now + REQUEST_LIFETIME_MS,
    };
    this.store({ requests: [request] });
    this.expireLater(request, now);
    this.emit('changed', request);
    return { request, created: true };
  }

  /**
   * The request as the polling module sees it; an approved code is handed out once, then the request counts as exchanged.
   * Request codes are 16 characters: guessing one is hopeless, so an unknown one costs its caller nothing but the 404,
   * and no flood of them can hold up the module's poll.
   */
  poll(code: string, now = Date.now()): PairRequest {
    const request = this.known(code);
    const seen = { ...this.refreshed(request, now) };
    if (request.status === 'approved') this.store({ requests: [{ ...request, status: 'exchanged' }] });
    return seen;
  }

  /**
   * The request as the pairing page shows it, changing nothing and never carrying its pairing code (only the polling
   * module gets that).
   */
  pageState(code: string, now = Date.now()): { state: PairPageState; world: PairingWorld } {
    const request = this.known(code);
    return { state: this.pageStateOf(this.refreshed(request, now), now), world: request.world };
  }

  private known(code: string): PairRequest {
    const request = this.requests.get(code.trim().toUpperCase());
    if (!request) throw new HttpError(404, 'Unknown pairing request; start pairing again from the module');
    return request;
  }

  /** An approval picked up by the module is `paired` once its code was traded for a token (an upgrade needs none). */
  private pageStateOf(request: PairRequest, now: number): PairPageState {
    if (request.status === 'pending') return 'waiting';
    if (request.status !== 'exchanged') return request.status;
    if (request.upgradeOnly) return 'paired';
    const code = request.pairingCode ? this.codes.get(request.pairingCode) : undefined;
    if (code?.used) return 'paired';
    return code && code.expiresAt > now ? 'approved' : 'expired';
  }

  pending(now = Date.now()): PairRequest[] {
    return [...this.requests.values()].filter((request) => this.refreshed(request, now).status === 'pending');
  }

  /** The paired world a request's world matches by client id, fingerprint or world id: approving it adds a browser to that world. */
  pairedWorldOf(world: PairingWorld): KnownWorld | undefined {
    const byClientId = world.clientId ? this.worlds.get(world.clientId) : undefined;
    if (byClientId) return byClientId;
    const known = this.worlds.list();
    const byFingerprint = world.serverFingerprint
      ? known.find((entry) => entry.serverFingerprint === world.serverFingerprint)
      : undefined;
    return byFingerprint ?? known.find((entry) => entry.worldId === world.worldId);
  }

  approve(code: string, now = Date.now()): PairRequest {
    const request = this.decidable(code, now);
    if (request.upgradeOnly) return this.decide({ ...request, status: 'approved' }, []);
    const binding: CodeBinding = {
      kind: 'request',
      world: request.world,
      pairedClientId: this.pairedWorldOf(request.world)?.clientId,
      // An opaque origin (`null`) is no page's own: it never makes a page a Foundry one.
      origin: originOf(request.origin),
    };
    const pairingCode = this.newCode(binding, now, APPROVED_CODE_LIFETIME_MS);
    return this.decide({ ...request, status: 'approved', pairingCode: pairingCode.code }, [pairingCode]);
  }

  deny(code: string, now = Date.now()): PairRequest {
    return this.decide({ ...this.decidable(code, now), status: 'denied' }, []);
  }

  /** Denies every waiting request from `address` (the GM denied the address as a whole); answers how many. */
  denyAllFrom(address: string, now = Date.now()): number {
    const denied = this.pending(now)
      .filter((request) => request.source === address)
      .map((request): PairRequest => ({ ...request, status: 'denied' }));
    if (denied.length === 0) return 0;
    this.store({ requests: denied });
    for (const request of denied) this.emit('changed', request);
    return denied.length;
  }

  private decide(request: PairRequest, codes: PairingCode[]): PairRequest {
    this.store({ requests: [request], codes });
    this.emit('changed', request);
    return request;
  }

  /** A code for the module's "Enter Code" box: for the paired world `clientId` (adds a browser to it), or for a new world. */
  issueCode(options: { clientId?: string }, now = Date.now()): PairingCode {
    if (options.clientId && !this.worlds.get(options.clientId)) {
      throw new HttpError(404, 'No paired world has this client id; GET /admin/worlds lists them');
    }
    const binding: CodeBinding = options.clientId ? { kind: 'world', clientId: options.clientId } : { kind: 'new' };
    const code = this.newCode(binding, now, ISSUED_CODE_LIFETIME_MS);
    this.store({ codes: [code] });
    return code;
  }

  /**
   * Trades a pairing code for a connection token and the world's client id (module-protocol.md §3.4 step 2). A wrong
   * code counts against its caller; a code presented by another world than it was made for is refused and stays usable.
   */
  exchange(input: PairingExchange, caller: PairingCaller, now = Date.now()): { token: string; clientId: string } {
    const { place } = this.placeOf(caller);
    this.guesses.check(place, now);
    const code = this.codes.get(input.code.trim().toUpperCase());
    if (!code || code.used || code.expiresAt <= now) {
      this.guesses.failed(place, now);
      if (!code) throw new HttpError(404, 'Invalid pairing code');
      throw new HttpError(
        410,
        code.used ? 'This pairing code has already been used' : 'This pairing code has expired; generate a new one',
      );
    }
    if (code.binding.kind !== 'world' && !input.worldId) throw new HttpError(400, 'worldId is required');
    const clientId = this.clientIdFor(code.binding, input);
    // Used up before the token exists, so that no restart can make one code yield two tokens.
    this.store({ codes: [{ ...code, used: true }] });
    try {
      return { token: this.issueToken(clientId, input), clientId };
    } catch (error) {
      this.giveBack(code);
      throw error;
    }
  }

  private issueToken(clientId: string, input: PairingExchange): string {
    this.worlds.remember({
      clientId,
      worldId: input.worldId,
      worldTitle: input.worldTitle,
      serverFingerprint: input.serverFingerprint,
    });
    const name = input.userAgent ? `Browser (${input.userAgent.slice(0, 80)})` : 'Browser';
    return this.tokens.issue(clientId, name, 'pairing', input.origin).token;
  }

  /** A code whose token could not be stored stays usable, when that can be stored; otherwise the GM makes a new one. */
  private giveBack(code: PairingCode): void {
    try {
      this.store({ codes: [code] });
    } catch {
      // The store already logged why; the code stays used up.
    }
  }

  /** Which client id the code yields for this world; refuses (403) a world the code was not made for. */
  private clientIdFor(binding: CodeBinding, input: PairingExchange): string {
    if (binding.kind === 'world') return this.boundWorldClientId(binding.clientId, input);
    if (binding.kind === 'request') return this.requestedWorldClientId(binding, input);
    return this.newWorldClientId(input);
  }

  private boundWorldClientId(clientId: string, input: PairingExchange): string {
    const world = this.worlds.get(clientId);
    const claimsOther = input.existingClientId && input.existingClientId !== clientId;
    if (
      claimsOther ||
      differs(world?.worldId, input.worldId) ||
      differs(world?.serverFingerprint, input.serverFingerprint)
    ) {
      forbidden(
        `This pairing code adds a browser to the world "${world?.worldTitle ?? clientId}" only; enter it in that world`,
      );
    }
    return clientId;
  }

  private requestedWorldClientId(binding: Extract<CodeBinding, { kind: 'request' }>, input: PairingExchange): string {
    const { world } = binding;
    const claimsOther = input.existingClientId && world.clientId && input.existingClientId !== world.clientId;
    if (input.worldId !== world.worldId || claimsOther || differs(world.serverFingerprint, input.serverFingerprint)) {
      forbidden('This pairing code was made for the world that asked to pair; only that world can use it');
    }
    const paired = binding.pairedClientId ? this.worlds.get(binding.pairedClientId) : undefined;
    if (
      input.existingClientId &&
      input.existingClientId !== paired?.clientId &&
      this.worlds.get(input.existingClientId)
    ) {
      forbidden(
        'This world claims the client id of another paired world than the one approved; press Pair in that world instead',
      );
    }
    return paired?.clientId ?? newClientId();
  }

  /**
   * An unbound code never hands out a paired world's client id to a world that does not prove to be it: the claimed
   * client id must belong to a paired world with the same world id and, when it has one, the same fingerprint; without a
   * claim, only a paired world with the same world id and fingerprint is re-used. Anything else is a new world.
   */
  private newWorldClientId(input: PairingExchange): string {
    const claimed = input.existingClientId ? this.worlds.get(input.existingClientId) : undefined;
    if (claimed) {
      const fingerprintDiffers =
        claimed.serverFingerprint !== undefined && claimed.serverFingerprint !== input.serverFingerprint;
      if (claimed.worldId !== input.worldId || fingerprintDiffers) {
        forbidden(
          "This world claims the client id of a paired world it does not match; in Tabletop Relay, generate the code for that world, or reset the module's relay URL and pair it as a new world",
        );
      }
      return claimed.clientId;
    }
    const sameWorld = input.serverFingerprint
      ? this.worlds
          .list()
          .find((known) => known.serverFingerprint === input.serverFingerprint && known.worldId === input.worldId)
      : undefined;
    return sameWorld?.clientId ?? newClientId();
  }

  /** A new code, not yet stored: the caller stores it with whatever else it changes. */
  private newCode(binding: CodeBinding, now: number, lifetimeMs: number): PairingCode {
    this.forgetExpired(now);
    return {
      code: this.unusedCode(PAIRING_CODE_LENGTH, this.codes),
      expiresAt: now + lifetimeMs,
      binding,
      used: false,
    };
  }

  /** Writes the next state, then makes it current: a failed write (StorageWriteError) changes nothing. */
  private store(changed: { requests?: PairRequest[]; codes?: PairingCode[] }): void {
    const requests = new Map(this.requests);
    for (const request of changed.requests ?? []) requests.set(request.code, request);
    const codes = new Map(this.codes);
    for (const code of changed.codes ?? []) codes.set(code.code, code);
    this.file.write({ requests: [...requests.values()], codes: [...codes.values()] });
    this.requests = requests;
    this.codes = codes;
  }

  private decidable(code: string, now: number): PairRequest {
    const request = this.requests.get(code.trim().toUpperCase());
    if (!request) throw new HttpError(404, 'Unknown pairing request; it may have expired');
    if (this.refreshed(request, now).status !== 'pending') {
      throw new HttpError(409, `This pairing request is already ${request.status}`);
    }
    return request;
  }

  private refreshed(request: PairRequest, now: number): PairRequest {
    if (request.expiresAt <= now && (request.status === 'pending' || request.status === 'approved')) {
      request.status = 'expired';
    }
    return request;
  }

  /** Says 'changed' when a waiting request runs out, so the GM's list drops it without anyone asking. */
  private expireLater(request: PairRequest, now: number): void {
    const timer = setTimeout(() => {
      this.expiryTimers.delete(request.code);
      const current = this.requests.get(request.code);
      if (current?.status !== 'pending') return;
      this.refreshed(current, Math.max(Date.now(), current.expiresAt));
      this.emit('changed', current);
    }, request.expiresAt - now);
    timer.unref();
    this.expiryTimers.set(request.code, timer);
  }

  private forgetExpired(now: number): void {
    for (const [code, request] of this.requests) {
      if (request.expiresAt + REQUEST_LIFETIME_MS > now) continue;
      this.requests.delete(code);
      clearTimeout(this.expiryTimers.get(code));
      this.expiryTimers.delete(code);
    }
    for (const [code, pairingCode] of this.codes) {
      if (pairingCode.expiresAt + ISSUED_CODE_LIFETIME_MS <= now) this.codes.delete(code);
    }
  }

  private unusedCode(length: number, taken: Map<string, unknown>): string {
    let code = randomCode(length);
    while (taken.has(code)) code = randomCode(length);
    return code;
  }
}

/** Whether both sides name a value and the values differ; a side that names none does not count against a match. */
function differs(expected: string | undefined, presented: string | undefined): boolean {
  return Boolean(expected) && Boolean(presented) && expected !== presented;
}

function sameRequestedWorld(a: PairingWorld, b: PairingWorld): boolean {
  return (
    a.worldId === b.worldId &&
    (a.serverFingerprint ?? '') === (b.serverFingerprint ?? '') &&
    (a.clientId ?? '') === (b.clientId ?? '')
  );
}

function newClientId(): string {
  return `fvtt_${randomHex(8)}`;
}
