import { RetryLater, type HttpError } from '../errors.ts';
import { msUntilToken, TokenBucket } from '../token-bucket.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one more request is allowed, when this one was not. */
  retryAfterSeconds: number;
}

/** The reference relay's 429, byte for byte; when to retry goes out as Retry-After (and the limit as RateLimit-*). */
export function tooManyRequests(decision: RateDecision): HttpError {
  return new RetryLater('Too many API requests, please slow down', decision.retryAfterSeconds);
}

/** A token bucket per API key: `perMinute` requests at once, refilled evenly over a minute. O(1) per request. */
export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly perMinute: () => number;

  constructor(perMinute: () => number) {
    this.perMinute = perMinute;
  }

  take(keyId: string, now = Date.now()): RateDecision | undefined {
    const limit = this.perMinute();
    if (limit <= 0) return undefined;
    const refillPerMs = limit / 60_000;
    let bucket = this.buckets.get(keyId);
    if (!bucket) this.buckets.set(keyId, (bucket = new TokenBucket(limit, now)));
    const { taken, tokens } = bucket.take(now, refillPerMs, limit);
    return {
      allowed: taken,
      limit,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((limit - tokens) / refillPerMs / 1000),
      retryAfterSeconds: taken ? 0 : Math.ceil(msUntilToken(tokens, refillPerMs) / 1000),
    };
  }

  forget(keyId: string): void {
    this.buckets.delete(keyId);
  }
}
