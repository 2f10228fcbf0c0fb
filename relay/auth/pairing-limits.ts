import { RetryLater } from '../errors.ts';
import { msUntilToken, TokenBucket } from '../token-bucket.ts';

/** Requests waiting for the GM (to pair, for a key), from everyone together and from one place. */
const MAX_WAITING_REQUESTS = 20;
const MAX_WAITING_PER_SOURCE = 3;

/**
 * Where a request for the GM counts against the caps: its `place` (an address, this computer as one, for a pair request
 * with the kind of page that sent it, see `RequestSources.placeOf`) and whether that place is `kept`: this computer and
 * the addresses of paired worlds are never crowded out by strangers.
 */
export interface RequestPlace {
  place: string;
  kept: boolean;
}

/**
 * Refuses (429) one more request for the GM while MAX_WAITING_PER_SOURCE wait from its place, or, from a place not kept,
 * while MAX_WAITING_REQUESTS from places not kept wait, and says when the oldest of them runs out. `waiting`: oldest
 * first, without a request the new one replaces; `what` names them in the answer, e.g. "pair requests".
 */
export function refuseTooManyWaiting(
  waiting: readonly (RequestPlace & { expiresAt: number })[],
  asking: RequestPlace,
  what: string,
  now: number,
): void {
  const fromPlace = waiting.filter((request) => request.place === asking.place);
  if (fromPlace.length >= MAX_WAITING_PER_SOURCE) {
    throw new RetryLater(
      `${MAX_WAITING_PER_SOURCE} ${what} from this address are already waiting; approve or deny them in Tabletop Relay's settings, or try again in {seconds} s`,
      (fromPlace[0]!.expiresAt - now) / 1000,
    );
  }
  if (asking.kept) return;
  const fromStrangers = waiting.filter((request) => !request.kept);
  if (fromStrangers.length >= MAX_WAITING_REQUESTS) {
    throw new RetryLater(
      `${MAX_WAITING_REQUESTS} ${what} from other computers are already waiting; deny the ones you do not know in Tabletop Relay's settings, or try again in {seconds} s`,
      (fromStrangers[0]!.expiresAt - now) / 1000,
    );
  }
}

/** Above this many sources, the ones with nothing to remember are dropped so a spread of addresses costs little memory. */
const PRUNE_ABOVE = 1_000;

/** A token bucket per source address: `burst` at once, refilled by one every `refillMs`. */
export class SourceBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly burst: number;
  private readonly perMs: number;

  constructor(burst: number, refillMs: number) {
    this.burst = burst;
    this.perMs = 1 / refillMs;
  }

  /** Takes one token, or throws a 429 with `message`, whose {seconds} says how long until one is there. */
  admit(source: string, now: number, message: string): void {
    if (this.buckets.size > PRUNE_ABOVE) this.pruneFull(now);
    let bucket = this.buckets.get(source);
    if (!bucket) this.buckets.set(source, (bucket = new TokenBucket(this.burst, now)));
    const { taken, tokens } = bucket.take(now, this.perMs);
    if (!taken) throw new RetryLater(message, msUntilToken(tokens, this.perMs) / 1000);
  }

  private pruneFull(now: number): void {
    for (const [source, bucket] of this.buckets) {
      if (bucket.tokensAt(now, this.perMs) >= this.burst) this.buckets.delete(source);
    }
  }
}

/** Wrong codes a source may try before it has to wait. */
const FREE_WRONG_CODES = 5;
/** The longest a source waits after a wrong code, however many it tried. */
const MAX_LOCKOUT_MS = 60 * 60_000;
/** A source that tried no wrong code for this long starts afresh. */
const FORGET_SOURCE_MS = 24 * 60 * 60_000;
/** Above PRUNE_ABOVE sources, those not waiting whose last wrong code is this old are dropped: longer than a code lives. */
const PRUNE_IDLE_MS = 10 * 60_000;
/** Wrong codes from all sources together: this many at once, then one more every 20 s. */
const GLOBAL_WRONG_CODE_BURST = 30;
const GLOBAL_REFILL_PER_MS = 1 / 20_000;

interface WrongCodes {
  count: number;
  lastAt: number;
  lockedUntil: number;
}

/**
 * Attempt limits on pairing codes (POST /auth/pair). Each source (an address and page, `Pairing.placeOf`) may try
 * FREE_WRONG_CODES wrong codes; after that every wrong code doubles its wait (2 s, 4 s, … up to an hour). While a source
 * waits, its every attempt is refused unseen: a right code too, or the wait would not slow its guessing.
 * All sources together may try GLOBAL_WRONG_CODE_BURST wrong codes, then one every 20 s; over that ceiling, a source that
 * tried a wrong code waits for the ceiling too. A source that tried none is never refused because of others' wrong
 * codes: its code is looked at, and a right one pairs. So many addresses guessing together get one wrong code each, and
 * the ceiling's share, but cannot hold up the world the GM is pairing.
 */
export class CodeGuessLimits {
  private readonly bySource = new Map<string, WrongCodes>();
  private readonly global = new TokenBucket(GLOBAL_WRONG_CODE_BURST, 0);

  /** Throws a 429 while this source must wait: after its own wrong codes, or, over the relay's ceiling, after any. */
  check(source: string, now: number): void {
    const wrong = this.current(source, now);
    if (!wrong) return;
    if (wrong.lockedUntil > now) {
      throw new RetryLater(
        `Too many wrong pairing codes from this address; try again in {seconds} s. Check the code in Tabletop Relay's settings.`,
        (wrong.lockedUntil - now) / 1000,
      );
    }
    const tokens = this.global.tokensAt(now, GLOBAL_REFILL_PER_MS);
    if (tokens < 1) {
      throw new RetryLater(
        "Too many wrong pairing codes were tried on this relay, one of them from this address; try again in {seconds} s. Check the code in Tabletop Relay's settings.",
        msUntilToken(tokens, GLOBAL_REFILL_PER_MS) / 1000,
      );
    }
  }

  /** Counts a wrong code against the source and against the relay. */
  failed(source: string, now: number): void {
    const wrong = this.current(source, now) ?? { count: 0, lastAt: now, lockedUntil: 0 };
    wrong.count += 1;
    wrong.lastAt = now;
    if (wrong.count >= FREE_WRONG_CODES) {
      wrong.lockedUntil = now + Math.min(2 ** (wrong.count - FREE_WRONG_CODES + 1) * 1000, MAX_LOCKOUT_MS);
    }
    this.bySource.set(source, wrong);
    // Over the ceiling there is no token to take: the ceiling holds, with no debt that would outlast the guessing.
    this.global.take(now, GLOBAL_REFILL_PER_MS);
    if (this.bySource.size > PRUNE_ABOVE) this.forgetIdle(now);
  }

  private current(source: string, now: number): WrongCodes | undefined {
    const wrong = this.bySource.get(source);
    if (wrong && wrong.lastAt + FORGET_SOURCE_MS <= now) {
      this.bySource.delete(source);
      return undefined;
    }
    return wrong;
  }

  /** Only sources idle for longer than a code lives: forgetting one lets it try again as new, once per code at most. */
  private forgetIdle(now: number): void {
    for (const [source, wrong] of this.bySource) {
      if (wrong.lockedUntil <= now && wrong.lastAt + PRUNE_IDLE_MS <= now) this.bySource.delete(source);
    }
  }
}
