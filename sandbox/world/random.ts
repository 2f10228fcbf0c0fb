// Seeded randomness: every id, shuffle and die face of a sandbox world comes from here, so a seed replays a world exactly.

export interface RandomSource {
  /** A uniformly distributed unsigned 32-bit integer. */
  nextUint32(): number;
}

/** Mulberry32: tiny, fast and good enough for game dice. */
export function createRandomSource(seed: number): RandomSource {
  let state = seed >>> 0;
  return {
    nextUint32() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    },
  };
}

/** A float in [0, 1). */
export function nextFraction(random: RandomSource): number {
  return random.nextUint32() / 0x100000000;
}

/** An integer in [min, max]. */
export function nextInteger(random: RandomSource, min: number, max: number): number {
  return min + Math.floor(nextFraction(random) * (max - min + 1));
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A Foundry-style document id: 16 alphanumeric characters. */
export function randomDocumentId(random: RandomSource, length = 16): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ID_ALPHABET[random.nextUint32() % ID_ALPHABET.length];
  return id;
}

/** A lowercase base-36 fragment, as `Math.random().toString(36).substring(2, 15)` would give. */
export function randomBase36(random: RandomSource, length = 11): string {
  let text = '';
  for (let i = 0; i < length; i++) text += (random.nextUint32() % 36).toString(36);
  return text;
}

export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.nextUint32() % (i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
