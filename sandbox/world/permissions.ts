// The module's userId permission model (module-operations.md §1) on top of Foundry's testUserPermission.
import { OWNERSHIP, type WorldDocument } from './document.ts';
import type { Game } from './game.ts';
import type { PlainObject } from './objects.ts';

export const USER_ROLES = { NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 } as const;

/** The lowest role holding each core user permission the operations check (Foundry's defaults). */
const PERMISSION_ROLES: Record<string, number> = {
  FILES_BROWSE: USER_ROLES.TRUSTED,
  FILES_UPLOAD: USER_ROLES.ASSISTANT,
  ACTOR_CREATE: USER_ROLES.ASSISTANT,
  ITEM_CREATE: USER_ROLES.ASSISTANT,
  JOURNAL_CREATE: USER_ROLES.TRUSTED,
  CARDS_CREATE: USER_ROLES.TRUSTED,
  PLAYLIST_CREATE: USER_ROLES.ASSISTANT,
  MACRO_SCRIPT: USER_ROLES.PLAYER,
};

export function isGM(user: WorldDocument): boolean {
  return (user.source.role as number) >= USER_ROLES.ASSISTANT;
}

/** `resolveUser`: by id first, then by case-insensitive name. */
export function resolveUser(game: Game, userId: unknown): WorldDocument | null {
  if (!userId || typeof userId !== 'string') return null;
  const lowered = userId.toLowerCase();
  return game.users.get(userId) ?? game.users.find((user) => user.name.toLowerCase() === lowered) ?? null;
}

/** Foundry's `getUserLevel`: GMs own everything, tokens defer to their actor, embedded documents to their parent. */
export function userLevel(game: Game, document: WorldDocument, user: WorldDocument): number {
  if (isGM(user)) return OWNERSHIP.OWNER;
  if (document.documentName === 'Token') {
    const actor = game.tokenActor(document);
    if (actor) return userLevel(game, actor, user);
  }
  if (document.parent && document.documentName !== 'Actor') return userLevel(game, document.parent, user);
  const ownership =
    document.documentName === 'Actor' && document.parent
      ? (game.actors.get(document.id)?.ownership ?? document.ownership)
      : document.ownership;
  return ownership[user.id] ?? ownership.default ?? OWNERSHIP.NONE;
}

export function hasPermission(
  game: Game,
  document: WorldDocument | null,
  user: WorldDocument | null,
  level: number,
): boolean {
  if (!document || !user) return false;
  return userLevel(game, document, user) >= level;
}

export function toLimitedData(document: WorldDocument): PlainObject {
  return {
    uuid: document.uuid,
    name: document.name,
    type: document.documentName || document.type,
    img: document.img || null,
  };
}

/** OBSERVER+ → full data; LIMITED → stub; otherwise null. */
export function serializeWithPermission(game: Game, document: WorldDocument, user: WorldDocument): PlainObject | null {
  if (hasPermission(game, document, user, OWNERSHIP.OBSERVER)) return document.toObject();
  if (hasPermission(game, document, user, OWNERSHIP.LIMITED)) return toLimitedData(document);
  return null;
}

/** `User#can`: GMs can do everything; others need the permission's role. Unknown permissions are refused. */
export function userCan(user: WorldDocument, permission: string): boolean {
  if (isGM(user)) return true;
  const role = PERMISSION_ROLES[permission];
  return role !== undefined && (user.source.role as number) >= role;
}

export class PermissionError extends Error {}

export function assertUserCan(user: WorldDocument, permission: string, operation: string): void {
  if (!userCan(user, permission)) {
    throw new PermissionError(`User '${user.name}' does not have '${permission}' permission required to ${operation}`);
  }
}

export function assertWritePermission(
  game: Game,
  document: WorldDocument,
  user: WorldDocument,
  operation: string,
): void {
  if (!hasPermission(game, document, user, OWNERSHIP.OWNER)) {
    throw new PermissionError(
      `User '${user.name}' does not have permission to ${operation} '${document.name || document.uuid || 'unknown'}'`,
    );
  }
}

export function assertGM(user: WorldDocument, operation: string): void {
  if (!isGM(user)) throw new PermissionError(`User '${user.name}' must be a GM to ${operation}`);
}
