import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { sameSecret } from '../auth/secrets.ts';
import type { CallContext } from './route.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from '../errors.ts';
import { ADMIN_COOKIE, cookieValue } from '../admin/admin-sessions.ts';
import { isLoopback } from '../http/addresses.ts';

/** The key a caller presented (the `x-api-key` header); none, or one the relay does not know, is the 401 that says so. */
export function verifiedKey(presented: unknown, services: RelayServices): ApiKeyRecord {
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpError(401, 'API key is required');
  }
  const key = services.keys.verify(presented);
  if (!key) throw new HttpError(401, 'Invalid API key');
  return key;
}

/** What the admin check looks at besides the headers: a change must not take parameters from the query string. */
export interface AdminCall {
  method: string;
  call: CallContext;
  hasQuery: boolean;
}

/**
 * The admin API takes the admin token (scripts, the tray) or a settings UI session cookie (a local browser). A browser
 * page of another origin (even another port of this computer, which counts as the same site for cookies) is refused,
 * and changes take a JSON body only, so neither a form nor a simple cross-origin fetch can make one.
 */
export function checkAdmin({ method, call, hasQuery }: AdminCall, services: RelayServices): void {
  if (!isLoopback(call.remoteAddress)) {
    throw new HttpError(403, 'The admin API answers only on this computer (loopback)');
  }
  refuseOtherOrigins(call);
  checkAdminCredentials(call, services);
  if (method !== 'GET') requireJsonChange(call, hasQuery);
}

function checkAdminCredentials(call: CallContext, services: RelayServices): void {
  const session = cookieValue(call.header('cookie'), ADMIN_COOKIE);
  if (session && services.adminSessions.isSession(session)) return;
  const header = call.header('authorization') ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (token === '') throw new HttpError(401, 'Admin token is required: send it as Authorization: Bearer <token>');
  if (!sameSecret(token, services.adminToken)) throw new HttpError(401, 'Invalid admin token');
}

const SAME_ORIGIN_FETCH_SITES = ['same-origin', 'none'];

/** Browsers say where a request comes from (`Origin`, `Sec-Fetch-Site`); scripts and the tray send neither. */
function refuseOtherOrigins(call: CallContext): void {
  const origin = call.header('origin');
  const ownOrigin = call.relayOrigin;
  if (origin !== undefined && origin !== ownOrigin) {
    throw new HttpError(
      403,
      `The admin API refuses calls from other web pages (${origin}): use the settings UI at ${ownOrigin}/admin/`,
    );
  }
  const site = call.header('sec-fetch-site');
  if (site !== undefined && !SAME_ORIGIN_FETCH_SITES.includes(site)) {
    throw new HttpError(
      403,
      `The admin API refuses calls from other web pages (Sec-Fetch-Site: ${site}): use the settings UI at ${ownOrigin}/admin/`,
    );
  }
}

/** A change's parameters come from a JSON body (application/json) and never from the query string. */
function requireJsonChange(call: CallContext, hasQuery: boolean): void {
  const contentType = call.header('content-type');
  const hasBody =
    contentType !== undefined ||
    call.header('transfer-encoding') !== undefined ||
    Number(call.header('content-length') ?? 0) > 0;
  if (hasBody && !isJson(contentType)) {
    throw new HttpError(415, 'Admin changes take a JSON body: send it with Content-Type: application/json');
  }
  if (hasQuery)
    throw new HttpError(400, 'Admin changes take their parameters from the JSON body, not the query string');
}

function isJson(contentType: string | undefined): boolean {
  const mimeType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mimeType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mimeType);
}
