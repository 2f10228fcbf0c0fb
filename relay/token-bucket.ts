/**
 * A token bucket: at most `capacity` tokens, refilled continuously at `perMs` tokens a millisecond. The per-key rate
 * limit and the pairing limits are all this one refill rule with their own capacity and rate.
 */
export class TokenBucket {
  private readonly capacity: number;
  private tokens: number;
  private updatedAt: number;

  constructor(capacity: number, now: number) {
    this.capacity = capacity;
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** The tokens there are at `now`, the refill since the last look added. */
  tokensAt(now: number, perMs: number, capacity = this.capacity): number {
    return Math.min(capacity, this.tokens + (now - this.updatedAt) * perMs);
  }

  /**
   * Refills up to `now` and takes one token when there is one; answers the tokens left. `capacity` may change between
   * calls (a rate limit the GM edits), so it can be given here.
   */
  take(now: number, perMs: number, capacity = this.capacity): { taken: boolean; tokens: number } {
    this.tokens = this.tokensAt(now, perMs, capacity);
    this.updatedAt = now;
    const taken = this.tokens >= 1;
    if (taken) this.tokens -= 1;
    return { taken, tokens: this.tokens };
  }
}

/** Milliseconds until a bucket holding `tokens` has one whole token again. */
export function msUntilToken(tokens: number, perMs: number): number {
  return Math.max(0, (1 - tokens) / perMs);
}
