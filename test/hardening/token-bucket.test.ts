import { describe, expect, it } from 'vitest';
import { msUntilToken, TokenBucket } from '../../relay/token-bucket.ts';

describe('the token bucket behind the rate limit and the pairing limits', () => {
  const perMs = 1 / 1000; // one token a second

  it('gives its capacity at once, then one token per refill period, never more than its capacity', () => {
    const bucket = new TokenBucket(3, 0);
    expect([1, 2, 3, 4].map(() => bucket.take(0, perMs).taken)).toEqual([true, true, true, false]);
    expect(bucket.take(999, perMs).taken).toBe(false);
    expect(bucket.take(1_000, perMs).taken).toBe(true);
    expect(bucket.tokensAt(1_000_000, perMs)).toBe(3);
  });

  it('says how long until the next token', () => {
    const bucket = new TokenBucket(1, 0);
    const { tokens } = bucket.take(0, perMs);
    expect(msUntilToken(tokens, perMs)).toBe(1000);
    expect(msUntilToken(bucket.tokensAt(250, perMs), perMs)).toBe(750);
    expect(msUntilToken(bucket.tokensAt(5_000, perMs), perMs)).toBe(0);
  });

  it('follows a capacity changed between calls, as a rate limit the GM edits', () => {
    const bucket = new TokenBucket(10, 0);
    expect(bucket.take(0, perMs, 2).tokens).toBe(1);
    expect(bucket.tokensAt(60_000, perMs, 2)).toBe(2);
  });
});
