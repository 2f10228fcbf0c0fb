import { randomHex, sameSecret } from '../auth/secrets.ts';

const LOGIN_CODE_LIFETIME_MS = 2 * 60_000;
export const ADMIN_COOKIE = 'ttr_admin';

/**
 * One-time login codes for the settings UI in a browser, traded for a session cookie. Sessions last as long as the
 * relay runs; the admin token itself never reaches the browser.
 */
export class AdminSessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Set<string>();

  issueLoginCode(now = Date.now()): string {
    for (const [code, expiresAt] of this.codes) if (expiresAt <= now) this.codes.delete(code);
    const code = randomHex(24);
    this.codes.set(code, now + LOGIN_CODE_LIFETIME_MS);
    return code;
  }

  /** A new session for a valid, unused code; undefined otherwise. */
  redeem(code: string, now = Date.now()): string | undefined {
    const expiresAt = this.codes.get(code);
    this.codes.delete(code);
    if (expiresAt === undefined || expiresAt <= now) return undefined;
    const session = randomHex(32);
    this.sessions.add(session);
    return session;
  }

  isSession(value: string): boolean {
    for (const session of this.sessions) if (sameSecret(session, value)) return true;
    return false;
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
