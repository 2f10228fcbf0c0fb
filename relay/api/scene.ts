import { z } from 'zod';
import { flag, number, oneOf, record, text, wholeNumber } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD, OWNED_IN_WORLD, WORLD_FILTERS } from '../routing/player-view.ts';
import { sceneImageSeen } from '../world-data/player-sorts.ts';
import { creating, deleting, updating } from '../journal/changes.ts';
import { activeScenes, sceneOf } from '../journal/touched.ts';
import { fieldsOf } from '../objects.ts';

const read = { scope: 'scene:read' } as const;
const write = { scope: 'scene:write' } as const;
const sceneId = text().optional().describe('Scene id');
const name = text().optional().describe('Scene name');
const active = flag().optional().describe('The active scene');
const named = (p: { sceneId?: string; name?: string }) => p.sceneId !== undefined || p.name !== undefined;
const sceneRequired = { error: "Either 'sceneId' or 'name' is required" };
const pixels = () => wholeNumber({ min: 1, max: 8192 });

export const sceneRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/scene',
    summary: 'Scenes by id, name, active, viewed, or all',
    access: read,
    playerView: WORLD_FILTERS,
    parameters: z
      .object({
        sceneId,
        name,
        active,
        viewed: flag().optional().describe('The scene the GM views'),
        all: flag().optional().describe('Every scene'),
      })
      .refine((p) => named(p) || p.active === true || p.viewed === true || p.all === true, {
        error: "At least one of 'sceneId', 'name', 'active', 'viewed', or 'all' is required",
      }),
    operation: 'get-scene',
  }),
  worldRoute({
    method: 'POST',
    path: '/scene',
    summary: 'Create a scene',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({ data: record().describe('Scene data; name is required by Foundry') }),
    operation: 'create-scene',
    timeoutMs: 30_000,
    changes: {
      touches: () => [],
      made: (answer) => {
        const id = fieldsOf(answer.data)?._id;
        return typeof id === 'string' ? [`Scene.${id}`] : [];
      },
      predict: creating((p) => [{ documentName: 'Scene', document: p.data }]),
    },
  }),
  worldRoute({
    method: 'PUT',
    path: '/scene',
    summary: 'Update a scene',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z
      .object({ sceneId, name, active, data: record().describe('Changes') })
      .refine((p) => named(p) || p.active === true, { error: "Either 'sceneId', 'name' or 'active' is required" }),
    operation: 'update-scene',
    timeoutMs: 30_000,
    changes: { touches: sceneOf, predict: updating((p) => p.data) },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/scene',
    summary: 'Delete a scene',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({ sceneId, name }).refine(named, sceneRequired),
    operation: 'delete-scene',
    changes: { touches: sceneOf, predict: deleting },
  }),
  worldRoute({
    method: 'POST',
    path: '/switch-scene',
    idempotent: true,
    summary: 'Activate a scene for everyone',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({ sceneId, name }).refine(named, sceneRequired),
    operation: 'switch-scene',
    timeoutMs: 30_000,
    // The scene activated, and the one that was active until then.
    changes: { touches: async (p, askWorld) => [...(await sceneOf(p, askWorld)), ...(await activeScenes(askWorld))] },
  }),
  worldRoute({
    method: 'GET',
    path: '/scene/image',
    summary: 'The rendered scene as PNG or JPEG bytes',
    access: read,
    playerView: {
      refused:
        "is rendered from the GM's canvas, with hidden tokens, the GM's drawings and no fog of war; GET /scene/image/raw gives a player the background of a scene they may view",
    },
    parameters: z.object({
      sceneId,
      active,
      format: oneOf(['png', 'jpeg']).default('png').describe('Image format'),
      quality: number({ min: 0, max: 1 }).default(0.9).describe('JPEG quality'),
      viewport: flag().optional().describe('Only what the GM sees'),
      width: pixels().optional().describe('Output width'),
      height: pixels().optional().describe('Output height'),
      showGrid: flag().optional().describe('Draw the grid'),
      hideOverlays: flag().optional().describe('Leave tokens and drawings out'),
    }),
    operation: 'scene-screenshot',
    timeoutMs: 30_000,
    reply: 'image',
  }),
  worldRoute({
    method: 'GET',
    path: '/scene/image/raw',
    summary: "The scene's background image file, as the world's JSON: data.imageData is a data URL",
    access: read,
    playerView: sceneImageSeen,
    parameters: z.object({ sceneId, active }),
    operation: 'scene-raw-image',
    timeoutMs: 30_000,
  }),
];
