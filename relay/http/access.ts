import type { Request } from 'express';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { sameSecret } from '../auth/secrets.ts';
import type { Access } from '../api/route.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from './errors.ts';
import { ADMIN_COOKIE, cookieValue } from '../admin/admin-sessions.ts';
import { isLoopback } from './addresses.ts';
import { requireScope } from './route-call.ts';

/** Checks who calls: returns the caller's key for scoped routes, throws the 401/403 that says what is missing. */
export function checkAccess(access: Access, request: Request, services: RelayServices): ApiKeyRecord | undefined {
  if (access === 'public') return undefined;
  if (access === 'admin') {
    checkAdmin(request, services);
    return undefined;
  }
  const presented = request.headers['x-api-key'];
  if (typeof presented !== 'string' || presented === '') {
    throw new HttpError(401, 'API key is required: send it in the x-api-key header');
  }
  const key = services.keys.verify(presented);
  if (!key) throw new HttpError(401, 'Invalid API key');
  requireScope(key, access.scope);
  return key;
}

/** The admin API takes the admin token (scripts, the tray) or a settings UI session cookie (a local browser). */
function checkAdmin(request: Request, services: RelayServices): void {
  if (!isLoopback(request.socket.remoteAddress)) {
    throw new HttpError(403, 'The admin API answers only on this computer (loopback)');
  }
  const session = cookieValue(request.headers.cookie, ADMIN_COOKIE);
  if (session && services.adminSessions.isSession(session)) return;
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (token === '') throw new HttpError(401, 'Admin token is required: send it as Authorization: Bearer <token>');
  if (!sameSecret(token, services.adminToken)) throw new HttpError(401, 'Invalid admin token');
}
