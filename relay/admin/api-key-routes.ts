import { z } from 'zod';
import type { ApiKeyView } from '../../contracts/admin-api.ts';
import { HttpError } from '../errors.ts';
import { text, textList } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import { knownScopes } from '../auth/scope-list.ts';
import { revocationAnswer } from './revocation-answer.ts';

// Key management with the reference relay's bodies (`/auth/api-keys`), so scripts written for it work here too.
// It takes the admin token, like the rest of the admin API.

const keyId = text().describe('The API key id');
const scopes = textList().pipe(knownScopes().min(1, { error: 'must name at least one scope' }));
const bindings = {
  scopedClientId: text().optional().describe('The one world the key may reach'),
  scopedClientIds: textList().optional().describe('The worlds the key may reach'),
  scopedUserId: text().optional().describe('The tabletop user the key always acts as'),
  scopedUserIds: z.unknown().optional().describe('Not supported: bind the key to one user with scopedUserId'),
};

function referenceView(key: ApiKeyView) {
  return {
    id: key.id,
    name: key.name,
    key: `${key.prefix.slice(0, 8)}...`,
    scopes: key.scopes,
    scopedClientIds: key.worldIds ?? [],
    scopedUserId: key.userId ?? null,
    enabled: true,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt ?? null,
  };
}

function worldIdsOf(p: { scopedClientId?: string; scopedClientIds?: string[] }): string[] | undefined {
  const ids = [...(p.scopedClientIds ?? []), ...(p.scopedClientId ? [p.scopedClientId] : [])];
  return ids.length > 0 ? ids : undefined;
}

function refusePerWorldUsers(p: { scopedUserIds?: unknown }): void {
  if (p.scopedUserIds !== undefined)
    throw new HttpError(400, "'scopedUserIds' is not supported: bind the key to one user with 'scopedUserId'");
}

function keyNotFound(): never {
  throw new HttpError(404, 'No API key with this id');
}

export const apiKeyRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/auth/api-keys',
    summary: 'API keys, each shown masked',
    access: 'admin',
    parameters: z.object({}),
    handle: ({ services }) => ({ body: { keys: services.keys.list().map(referenceView) } }),
  }),
  localRoute({
    method: 'POST',
    path: '/auth/api-keys',
    summary: 'Create an API key; the full key is in this answer only',
    access: 'admin',
    parameters: z.object({ name: text().max(100, { error: 'is at most 100 characters' }), scopes, ...bindings }),
    handle: ({ parameters, services }) => {
      refusePerWorldUsers(parameters);
      const { key, record } = services.keys.create({
        name: parameters.name,
        scopes: parameters.scopes,
        userId: parameters.scopedUserId,
        worldIds: worldIdsOf(parameters),
      });
      return { status: 201, body: { ...referenceView(record), key } };
    },
  }),
  localRoute({
    method: 'PATCH',
    path: '/auth/api-keys/{id}',
    summary: "Change a key's name, scopes or bindings",
    access: 'admin',
    parameters: z.object({ id: keyId, name: text().max(100).optional(), scopes: scopes.optional(), ...bindings }),
    handle: ({ parameters, services }) => {
      refusePerWorldUsers(parameters);
      const hasBinding = parameters.scopedClientId !== undefined || parameters.scopedClientIds !== undefined;
      const updated = services.keys.update(parameters.id, {
        name: parameters.name,
        scopes: parameters.scopes,
        userId: parameters.scopedUserId,
        worldIds: hasBinding ? (worldIdsOf(parameters) ?? []) : undefined,
      });
      return { body: referenceView(updated ?? keyNotFound()) };
    },
  }),
  localRoute({
    method: 'DELETE',
    path: '/auth/api-keys/{id}',
    summary: 'Revoke a key',
    access: 'admin',
    parameters: z.object({ id: keyId }),
    handle: ({ parameters, services }) => {
      return revocationAnswer({ success: true }, services.keys.revoke(parameters.id) ?? keyNotFound());
    },
  }),
  localRoute({
    method: 'POST',
    path: '/auth/api-keys/{id}/regenerate',
    summary: 'Replace a key with a new one; the old one stops working at once',
    access: 'admin',
    parameters: z.object({ id: keyId }),
    handle: ({ parameters, services }) => {
      const rotated = services.keys.rotate(parameters.id) ?? keyNotFound();
      return { body: { ...referenceView(rotated.record), key: rotated.key } };
    },
  }),
];
