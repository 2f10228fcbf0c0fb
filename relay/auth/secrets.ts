import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys and tokens are long random strings, so one SHA-256 pass is enough to store them safely and look them up fast. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function randomSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A code a person reads and types: no 0/O or 1/I to confuse. */
export function randomCode(length: number): string {
  const bytes = randomBytes(length);
  let code = '';
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}

/** A short code to show and read out, e.g. `K7P-4QX`. */
export function readableCode(): string {
  const code = randomCode(6);
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/** `k7p4qx`, `K7P 4QX` and `K7P-4QX` all name the same code. */
export function normalCode(code: string): string {
  const letters = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return `${letters.slice(0, 3)}-${letters.slice(3)}`;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
