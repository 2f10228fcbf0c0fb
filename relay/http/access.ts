import type { Request } from 'express';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { sameSecret } from '../auth/secrets.ts';
import type { Access } from '../api/route.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from './errors.ts';
import { isLoopback } from './addresses.ts';
import { requireScope } from './route-call.ts';

/** Checks who calls: returns the caller's key for scoped routes, throws the 401/403 that says what is missing. */
export function checkAccess(access: Access, request: Request, services: RelayServices): ApiKeyRecord | undefined {
  if (access === 'public') return undefined;
  if (access === 'admin') {
    checkAdmin(request, services.adminToken);
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

function checkAdmin(request: Request, adminToken: string): void {
  if (!isLoopback(request.socket.remoteAddress)) {
    throw new HttpError(403, 'The admin API answers only on this computer (loopback)');
  }
  const header = request.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  if (token === '') throw new HttpError(401, 'Admin token is required: send it as Authorization: Bearer <token>');
  if (!sameSecret(token, adminToken)) throw new HttpError(401, 'Invalid admin token');
}
