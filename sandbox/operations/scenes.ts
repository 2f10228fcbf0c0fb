// get-scene, create-scene, update-scene, delete-scene, switch-scene (module-protocol.md §4.11 Scene).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { assertGM, assertWritePermission, isGM, serializeWithPermission } from '../world/permissions.ts';
import { isPlainObject } from '../world/objects.ts';
import { activateScene, viewScene } from '../world/scenes.ts';
import { reply, withUser, type OperationTable } from './context.ts';

/** By `sceneId`, then exact `name`, then the `active` or `viewed` scene. */
function sceneOf(game: Game, request: WorldRequest): WorldDocument | null {
  if (request.sceneId) return game.scenes.get(String(request.sceneId)) ?? null;
  if (request.name) return game.scenes.find((scene) => scene.name === request.name) ?? null;
  if (request.active) return game.activeScene() ?? null;
  if (request.viewed) return game.viewedScene() ?? null;
  return null;
}

function requireScene(game: Game, request: WorldRequest): WorldDocument {
  const scene = sceneOf(game, request);
  if (!scene) throw new Error('Scene not found');
  return scene;
}

export const sceneOperations: OperationTable = {
  'get-scene': withUser({ data: null }, (request, { game }, user) => {
    if (request.all) {
      const scenes = game.scenes.contents;
      const data = user
        ? scenes.map((scene) => serializeWithPermission(game, scene, user)).filter(Boolean)
        : scenes.map((scene) => scene.toObject());
      return reply(request, { data });
    }
    const scene = sceneOf(game, request);
    if (!scene) return reply(request, { error: 'Scene not found', data: null });
    const data = user ? serializeWithPermission(game, scene, user) : scene.toObject();
    if (!data)
      return reply(request, { error: `User '${user!.name}' does not have permission to view this scene`, data: null });
    return reply(request, { data });
  }),

  'create-scene': withUser({}, (request, { game }, user) => {
    if (user && !isGM(user)) throw new Error(`User '${user.name}' does not have permission to create scenes`);
    const scene = game.createDocument('Scene', isPlainObject(request.data) ? request.data : {});
    return reply(request, { data: scene.toObject() });
  }),

  'update-scene': withUser({}, (request, { game }, user) => {
    const scene = requireScene(game, request);
    if (user) assertWritePermission(game, scene, user, 'update');
    // The module (since 3.1.0) sends the legacy background and foreground to the first level on Foundry 14, where
    // Foundry itself puts them anyway (Game#updateDocument).
    game.updateDocument(scene, isPlainObject(request.data) ? request.data : {});
    return reply(request, { data: scene.toObject() });
  }),

  'delete-scene': withUser({ success: false }, (request, { game }, user) => {
    const scene = requireScene(game, request);
    if (user) assertWritePermission(game, scene, user, 'delete');
    game.deleteDocument(scene);
    if (game.canvas.viewedSceneId === scene.id) viewScene(game, game.activeScene() ?? null);
    return reply(request, { success: true });
  }),

  'switch-scene': withUser({ success: false }, (request, { game }, user) => {
    if (user) assertGM(user, 'switch scenes');
    const scene = requireScene(game, request);
    activateScene(game, scene);
    return reply(request, { success: true, data: scene.toObject() });
  }),
};
