// scene-screenshot and scene-raw-image (module-protocol.md §4.11 Scene images): generated pictures of the scene,
// or the background file itself when the world's data folder holds it.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { dataUrl } from '../images/encoding.ts';
import { encodeJpeg } from '../images/jpeg.ts';
import { encodePng } from '../images/png.ts';
import { paintScene, type SceneWindow } from '../images/scene-painter.ts';
import type { FileStore } from '../files/file-store.ts';
import { storePath } from '../files/paths.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { sceneBackground } from '../world/scenes.ts';
import { mimeTypeOf } from '../files/media-types.ts';
import { reply, withUser, type OperationTable } from './context.ts';

/** The renderer size used for `viewport` captures. */
const VIEWPORT = { width: 1280, height: 720 };
/** Bounds a requested output size so a caller cannot make the world allocate an unbounded image. */
const MAX_SIDE = 8192;

function sceneForImage(game: Game, request: WorldRequest): WorldDocument {
  if (request.sceneId) {
    const scene = game.scenes.get(String(request.sceneId));
    if (!scene) throw new Error(`Scene not found: ${request.sceneId}`);
    return scene;
  }
  const scene = request.active ? game.activeScene() : (game.viewedScene() ?? game.activeScene());
  if (!scene) throw new Error('No active scene');
  return scene;
}

function side(requested: unknown, fallback: number): number {
  const value = Number(requested) || fallback;
  return Math.max(1, Math.min(MAX_SIDE, Math.round(value)));
}

/** A window of `width × height` centred on the scene, as the module crops a full capture from its centre. */
function centredWindow(scene: WorldDocument, width: number, height: number): SceneWindow {
  const sceneWidth = scene.source.width as number;
  const sceneHeight = scene.source.height as number;
  return { x: Math.round((sceneWidth - width) / 2), y: Math.round((sceneHeight - height) / 2), width, height };
}

async function encode(raster: ReturnType<typeof paintScene>, format: unknown, quality: unknown) {
  const jpeg = format === 'jpeg';
  const mimeType = jpeg ? 'image/jpeg' : 'image/png';
  const bytes = jpeg ? encodeJpeg(raster, typeof quality === 'number' ? quality : 0.9) : await encodePng(raster);
  return { imageData: dataUrl(mimeType, bytes), mimeType };
}

async function storedFile(files: FileStore, src: string): Promise<{ bytes: Uint8Array; mimeType: string } | null> {
  try {
    const bytes = await files.read(storePath(src));
    return bytes ? { bytes, mimeType: mimeTypeOf(src) } : null;
  } catch {
    return null;
  }
}

export const sceneImageOperations: OperationTable = {
  'scene-screenshot': withUser({}, async (request, { game }) => {
    const scene = sceneForImage(game, request);
    if (game.canvas.viewedSceneId !== scene.id)
      throw new Error(`Scene '${scene.name}' is not the currently viewed scene. Switch to it first.`);
    const size = request.viewport
      ? VIEWPORT
      : {
          width: side(request.width, scene.source.width as number),
          height: side(request.height, scene.source.height as number),
        };
    const grid = !request.hideOverlays || Boolean(request.showGrid);
    const raster = paintScene(scene, centredWindow(scene, size.width, size.height), { grid, placeables: true });
    return reply(request, {
      ...(await encode(raster, request.format, request.quality)),
      width: raster.width,
      height: raster.height,
    });
  }),

  'scene-raw-image': withUser({}, async (request, { game, files }) => {
    const scene = sceneForImage(game, request);
    const src =
      (sceneBackground(scene)?.src as string | null | undefined) || (scene.source.img as string | undefined) || null;
    if (!src) throw new Error(`Scene '${scene.name}' has no background image`);
    const stored = await storedFile(files, src);
    if (stored) {
      return reply(request, {
        data: {
          sceneId: scene.id,
          sceneName: scene.name,
          src,
          imageData: dataUrl(stored.mimeType, stored.bytes),
          mimeType: stored.mimeType,
        },
      });
    }
    const raster = paintScene(
      scene,
      { x: 0, y: 0, width: side(scene.source.width, 1), height: side(scene.source.height, 1) },
      { grid: false, placeables: false },
    );
    const { imageData, mimeType } = await encode(raster, 'png', undefined);
    return reply(request, { data: { sceneId: scene.id, sceneName: scene.name, src, imageData, mimeType } });
  }),
};
