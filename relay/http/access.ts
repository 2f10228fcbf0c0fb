import type { Request } from 'express';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { sameSecret } from '../auth/secrets.ts';
import type { Access } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from '../errors.ts';
import { ADMIN_COOKIE, cookieValue } from '../admin/admin-sessions.ts';
import { isLoopback } from './addresses.ts';
import { requireScope } from '../routing/call.ts';

/** Checks who calls: returns the caller's key for scoped routes, throws the 401/403 that says what is missing. */
export function checkAccess(access: Access, request: Request, services: RelayServices): ApiKeyRecord | undefined {
  if (access === 'public') return undefined;
  if (access === 'admin') {
    checkAdmin(request, services);
    return undefined;
  }
  const key = apiKeyOf(request, services);
  requireScope(key, access.scope);
  return key;
}

/** The key in the `x-api-key` header; none, or one the relay does not know, is the 401 that says so. */
export function apiKeyOf(request: Request, services: RelayServices): ApiKeyRecord {
  const presented = request.headers['x-api-key'];
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpError(401, 'API key is required: send it in the x-api-key header');
  }
  const key = services.keys.verify(presented);
  if (!key) throw new HttpError(401, 'Invalid API key');
  return key;
}

/**
 * The admin API takes the admin token (scripts, the tray) or a settings UI session cookie (a local browser). A browser
 * page of another origin (even another port of this computer, which counts as the same site for cookies) is refused,
 * and changes take a JSON body only, so neither a form nor a simple cross-origin fetch can make one.
 */
function checkAdmin(request: Request, services: RelayServices): void {
  if (!isLoopback(request.socket.remoteAddress)) {
    throw new HttpError(403, 'The admin API answers only on this computer (loopback)');
  }
  refuseOtherOrigins(request);
  checkAdminCredentials(request, services);
  if (request.method !== 'GET') requireJsonChange(request);
}

function checkAdminCredentials(request: Request, services: RelayServices): void {
  const session = cookieValue(request.headers.cookie, ADMIN_COOKIE);
  if (session && services.adminSessions.isSession(session)) return;
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (token === '') throw new HttpError(401, 'Admin token is required: send it as Authorization: Bearer <token>');
  if (!sameSecret(token, services.adminToken)) throw new HttpError(401, 'Invalid admin token');
}

const SAME_ORIGIN_FETCH_SITES = ['same-origin', 'none'];

/** Browsers say where a request comes from (`Origin`, `Sec-Fetch-Site`); scripts and the tray send neither. */
function refuseOtherOrigins(request: Request): void {
  const origin = request.headers.origin;
  const ownOrigin = `${request.protocol}://${request.headers.host ?? ''}`;
  if (origin !== undefined && origin !== ownOrigin) {
    throw new HttpError(403, `The admin API refuses calls from other web pages (${origin}): use the settings UI at ${ownOrigin}/admin/`);
  }
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && !SAME_ORIGIN_FETCH_SITES.includes(site)) {
    throw new HttpError(403, `The admin API refuses calls from other web pages (Sec-Fetch-Site: ${site}): use the settings UI at ${ownOrigin}/admin/`);
  }
}

/** A change's parameters come from a JSON body (application/json) and never from the query string. */
function requireJsonChange(request: Request): void {
  const contentType = request.headers['content-type'];
  const hasBody = contentType !== undefined || request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (hasBody && !isJson(contentType)) {
    throw new HttpError(415, 'Admin changes take a JSON body: send it with Content-Type: application/json');
  }
  if (Object.keys(request.query).length > 0) {
    throw new HttpError(400, 'Admin changes take their parameters from the JSON body, not the query string');
  }
}

function isJson(contentType: string | undefined): boolean {
  const mimeType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return mimeType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mimeType);
}
