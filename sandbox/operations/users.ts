// get-users, get-user, create-user, update-user, delete-user (module-protocol.md §4.11 User); GM-only.
// User changes fire the user hooks, which also re-send the player list to the relay.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { isPlainObject } from '../world/objects.ts';
import { assertGM, isGM, USER_ROLES } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';

/** The safe fields of a user; the sandbox keeps no passwords at all. */
function userRow(user: WorldDocument) {
  const source = user.source;
  return {
    id: user.id,
    name: user.name,
    role: source.role,
    isGM: isGM(user),
    active: source.active === true,
    color: source.color ?? null,
    avatar: source.avatar ?? null,
    character: source.character ?? null,
  };
}

function targetOf(game: Game, request: WorldRequest): WorldDocument | null {
  if (request.id) return game.users.get(String(request.id)) ?? null;
  if (request.name)
    return game.users.find((user) => user.name.toLowerCase() === String(request.name).toLowerCase()) ?? null;
  return null;
}

function gamemasterCount(game: Game): number {
  return game.users.filter((user) => user.source.role === USER_ROLES.GAMEMASTER).length;
}

/** `User#character` holds an actor id; an "Actor.<id>" uuid is accepted too. */
function characterId(value: unknown): string {
  const text = String(value);
  return text.includes('.') ? text.split('.').pop()! : text;
}

export const userOperations: OperationTable = {
  'get-users': withUser({ data: null }, (request, { game }, user) => {
    if (user) assertGM(user, 'list users');
    return reply(request, { data: game.users.contents.map(userRow) });
  }),

  'get-user': withUser({ data: null }, (request, { game }, user) => {
    if (user) assertGM(user, 'get user');
    const target = targetOf(game, request);
    if (!target) return reply(request, { error: 'User not found', data: null });
    return reply(request, { data: userRow(target) });
  }),

  'create-user': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'create users');
    if (!request.name) throw new Error('User name is required');
    const data: Record<string, unknown> = { name: request.name, role: request.role ?? USER_ROLES.PLAYER };
    if (request.character) data.character = characterId(request.character);
    return reply(request, { data: userRow(game.createDocument('User', data)) });
  }),

  'update-user': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'update users');
    const target = targetOf(game, request);
    if (!target) throw new Error('User not found');
    const changes = isPlainObject(request.data) ? { ...request.data } : {};
    delete changes.password;
    const role = changes.role;
    if (
      typeof role === 'number' &&
      role < USER_ROLES.GAMEMASTER &&
      target.source.role === USER_ROLES.GAMEMASTER &&
      gamemasterCount(game) <= 1
    ) {
      throw new Error('Cannot demote the last GM user');
    }
    game.updateDocument(target, changes);
    return reply(request, { data: userRow(target) });
  }),

  'delete-user': withUser({ success: false }, (request, { game }, user) => {
    if (user) assertGM(user, 'delete users');
    const target = targetOf(game, request);
    if (!target) throw new Error('User not found');
    if (target.id === game.moduleUserId) throw new Error('Cannot delete the currently active GM user');
    if (target.source.role === USER_ROLES.GAMEMASTER && gamemasterCount(game) <= 1)
      throw new Error('Cannot delete the last GM user');
    game.deleteDocument(target);
    return reply(request, { success: true });
  }),
};
