import { randomHex, sameSecret } from './secrets.ts';

const LOGIN_CODE_LIFETIME_MS = 2 * 60_000;
/** How long a settings UI session lasts: the cookie's Max-Age and the time after which the relay forgets it. */
export const ADMIN_SESSION_LIFETIME_MS = 12 * 60 * 60_000;
export const ADMIN_COOKIE = 'ttr_admin';

/**
 * One-time login codes for the settings UI in a browser, traded for a session cookie that expires after
 * ADMIN_SESSION_LIFETIME_MS; the admin token itself never reaches the browser.
 */
export class AdminSessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, number>();

  issueLoginCode(now = Date.now()): string {
    forgetExpired(this.codes, now);
    const code = randomHex(24);
    this.codes.set(code, now + LOGIN_CODE_LIFETIME_MS);
    return code;
  }

  /** A new session for a valid, unused code; undefined otherwise. */
  redeem(code: string, now = Date.now()): string | undefined {
    const expiresAt = this.codes.get(code);
    this.codes.delete(code);
    if (expiresAt === undefined || expiresAt <= now) return undefined;
    forgetExpired(this.sessions, now);
    const session = randomHex(32);
    this.sessions.set(session, now + ADMIN_SESSION_LIFETIME_MS);
    return session;
  }

  isSession(value: string, now = Date.now()): boolean {
    forgetExpired(this.sessions, now);
    for (const session of this.sessions.keys()) if (sameSecret(session, value)) return true;
    return false;
  }
}

function forgetExpired(expiries: Map<string, number>, now: number): void {
  for (const [value, expiresAt] of expiries) if (expiresAt <= now) expiries.delete(value);
}

/**
 * Every value the Cookie header carries under `name`. A browser sends one per path that matches, and any page served
 * on another port of this computer may set one (cookies do not keep ports apart), so no single value is the one.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) values.push(rest.join('='));
  }
  return values;
}
