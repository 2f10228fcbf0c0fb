// select, selected, players, world-info (module-operations.md §8.1–8.4).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { getProperty, isPlainObject } from '../world/objects.ts';
import { assertGM, isGM } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';

export function userRow(user: WorldDocument) {
  const source = user.source;
  return {
    id: user.id,
    name: user.name,
    role: source.role,
    isGM: isGM(user),
    active: source.active === true,
    color: source.color || null,
    avatar: source.avatar || null,
  };
}

function activeSceneOrFail(game: Game): WorldDocument {
  const scene = game.activeScene();
  if (!scene) throw new Error('No active scene found');
  return scene;
}

/** `select`'s `data` criteria: `actor.` paths read the token's actor, others the token's source data. */
function matchesCriteria(game: Game, token: WorldDocument, criteria: Record<string, unknown>): boolean {
  if (game.foundryMajorVersion >= 14) throw new ReferenceError('getProperty is not defined');
  return Object.entries(criteria).every(([key, value]) => {
    if (key.startsWith('actor.'))
      return getProperty(game.tokenActor(token)?.view(), key.slice('actor.'.length)) === value;
    return getProperty(token.toObject(), key) === value;
  });
}

function matchingTokens(game: Game, scene: WorldDocument, request: WorldRequest): Set<WorldDocument> {
  const tokens = scene.collection('Token').contents;
  const matches = new Set<WorldDocument>();
  if (request.all) tokens.forEach((token) => matches.add(token));
  if (Array.isArray(request.uuids))
    tokens.filter((token) => (request.uuids as unknown[]).includes(token.uuid)).forEach((token) => matches.add(token));
  if (typeof request.name === 'string') {
    const name = request.name.toLowerCase();
    tokens.filter((token) => token.name.toLowerCase() === name).forEach((token) => matches.add(token));
  }
  if (isPlainObject(request.data)) {
    const criteria = request.data;
    tokens.filter((token) => matchesCriteria(game, token, criteria)).forEach((token) => matches.add(token));
  }
  return matches;
}

export const utilityOperations: OperationTable = {
  select: withUser({ success: false }, (request, { game }, user) => {
    if (user) assertGM(user, 'select tokens');
    const scene = activeSceneOrFail(game);
    if (request.overwrite) game.canvas.controlledTokenIds.clear();
    const matches = [...matchingTokens(game, scene, request)];
    if (matches.length === 0) throw new Error('No matching entities found');
    // Only tokens drawn on the GM's canvas can be controlled; the others are still reported.
    if (game.canvas.viewedSceneId === scene.id)
      matches.forEach((token) => game.canvas.controlledTokenIds.add(token.id));
    return reply(request, {
      success: true,
      count: matches.length,
      message: `${matches.length} entities selected`,
      selected: matches.map((token) => token.uuid),
    });
  }),

  selected: withUser({ success: false }, (request, { game }, user) => {
    if (user) assertGM(user, 'get selected tokens');
    activeSceneOrFail(game);
    const tokens =
      game
        .viewedScene()
        ?.collection('Token')
        .contents.filter((token) => game.canvas.controlledTokenIds.has(token.id)) ?? [];
    const selected = tokens.map((token) => ({
      tokenUuid: token.uuid,
      actorUuid: game.tokenActor(token)?.uuid || null,
    }));
    return reply(request, { success: true, selected });
  }),

  players: withUser({ users: [] }, (request, { game }, user) => {
    if (user && !isGM(user)) return reply(request, { users: [] });
    return reply(request, { users: game.users.contents.map(userRow) });
  }),

  'world-info': withUser({}, (request, { game }) => {
    const scene = game.activeScene();
    return reply(request, {
      data: {
        world: { ...game.world },
        system: { ...game.system },
        foundryVersion: game.version,
        modules: game.modules.map((m) => ({ ...m })),
        users: game.users.contents.map(userRow),
        activeScene: scene ? { id: scene.id, name: scene.name } : null,
      },
    });
  }),
};
