// Scene activation as `Scene#activate` does it: one active scene, which the GM's canvas then draws.
import type { WorldDocument } from './document.ts';
import type { Game } from './game.ts';
import { isPlainObject, type PlainObject } from './objects.ts';

/** The canvas is full of circular references, which is why the module forwards `canvasReady` as "[object Object]". */
function canvasOf(game: Game): PlainObject {
  const canvas: PlainObject = { ready: true, scene: game.viewedScene() };
  canvas.stage = { parent: canvas };
  return canvas;
}

export function viewScene(game: Game, scene: WorldDocument | null): void {
  game.canvas.viewedSceneId = scene?.id ?? null;
  game.canvas.controlledTokenIds.clear();
  if (scene) game.hooks.callAll('canvasReady', canvasOf(game));
}

export function activateScene(game: Game, scene: WorldDocument): void {
  const previous = game.activeScene();
  if (previous && previous.id !== scene.id) game.updateDocument(previous, { active: false });
  game.updateDocument(scene, { active: true });
  game.hooks.callAll('activateScene', scene);
  viewScene(game, scene);
}

/** `scene.firstLevel` on Foundry 14: the lowest of its levels. */
export function firstLevel(scene: WorldDocument): WorldDocument | undefined {
  if (!scene.embedded.has('Level')) return undefined;
  return scene
    .collection('Level')
    .contents.sort((a, b) => ((a.source.sort as number) ?? 0) - ((b.source.sort as number) ?? 0))[0];
}

/** The scene's background texture: on its first level on Foundry 14, on the scene before. */
export function sceneBackground(scene: WorldDocument): PlainObject | undefined {
  const holder = firstLevel(scene)?.source ?? scene.source;
  return isPlainObject(holder.background) ? holder.background : undefined;
}
