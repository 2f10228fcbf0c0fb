import { RetryLater, type HttpError } from '../errors.ts';

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

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A token bucket per API key: `perMinute` requests at once, refilled evenly over a minute. O(1) per request. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMinute: () => number;

  constructor(perMinute: () => number) {
    this.perMinute = perMinute;
  }

  take(keyId: string, now = Date.now()): RateDecision | undefined {
    const limit = this.perMinute();
    if (limit <= 0) return undefined;
    const refillPerMs = limit / 60_000;
    const bucket = this.buckets.get(keyId) ?? { tokens: limit, updatedAt: now };
    bucket.tokens = Math.min(limit, bucket.tokens + (now - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(keyId, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      limit,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((limit - bucket.tokens) / refillPerMs / 1000),
      retryAfterSeconds: allowed ? 0 : Math.ceil((1 - bucket.tokens) / refillPerMs / 1000),
    };
  }

  forget(keyId: string): void {
    this.buckets.delete(keyId);
  }
}
