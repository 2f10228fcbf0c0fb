import { z } from 'zod';
import { CANVAS_DOCUMENT_CLASSES, type CanvasDocumentType } from '../../contracts/world-protocol.ts';
import { HttpError } from '../errors.ts';
import { flag, number, record, text } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD, OWNED_IN_WORLD } from '../routing/player-view.ts';
import { canvasDocumentsSeen, distanceSeen } from '../world-data/player-sorts.ts';
import { creating, deleting, updating } from '../journal/changes.ts';
import { sceneOf } from '../journal/touched.ts';
import { fieldsOf, listOf, textOf } from '../objects.ts';
import type { WorldAsk } from '../tabletop/world-ask.ts';

function canvasClassOf(documentType: string): string | undefined {
  return Object.hasOwn(CANVAS_DOCUMENT_CLASSES, documentType)
    ? CANVAS_DOCUMENT_CLASSES[documentType as CanvasDocumentType]
    : undefined;
}

/** The uuid of a scene's embedded document; the scene the module picks when none is named is the active one. */
async function canvasDocument(
  p: { documentType: string; sceneId?: string; documentId: string },
  askWorld: WorldAsk,
): Promise<string[]> {
  const className = canvasClassOf(p.documentType);
  if (!className) return [];
  return (await sceneOf({ sceneId: p.sceneId, active: true }, askWorld)).map(
    (scene) => `${scene}.${className}.${p.documentId}`,
  );
}

/** The documents a canvas create made, by the scene and ids of the world's answer. */
function madeOnCanvas(answer: Record<string, unknown>, p: { documentType: string }): string[] {
  const className = canvasClassOf(p.documentType);
  const sceneId = textOf(answer.sceneId);
  return listOf(answer.data).map((document) => `Scene.${sceneId}.${className}.${textOf(document._id)}`);
}

/** A token by uuid, or by name on the scene it moves on (the active one when none is named). */
async function tokenNamed(
  p: { uuid?: string; name?: string; sceneId?: string },
  askWorld: WorldAsk,
): Promise<string[]> {
  if (p.uuid !== undefined) return [p.uuid];
  const answer = await askWorld('get-canvas-documents', {
    documentType: 'tokens',
    className: 'Token',
    ...(p.sceneId !== undefined ? { sceneId: p.sceneId } : {}),
  }).catch(() => undefined);
  const token = listOf(answer?.data).find((document) => fieldsOf(document)?.name === p.name);
  return token ? [`Scene.${textOf(answer?.sceneId)}.Token.${textOf(token._id)}`] : [];
}

const DOCUMENT_TYPES = Object.keys(CANVAS_DOCUMENT_CLASSES) as CanvasDocumentType[];

const documentType = text().describe('tokens, tiles, drawings, lights, sounds, notes, templates, walls or regions');
const sceneId = text().optional().describe('Scene id; omit for the viewed scene');

/** The world's message with the class the module needs; an unknown type is refused as the reference relay refuses it. */
function withClassName<T extends { documentType: string }>(p: T): T & { className: string } {
  if (!Object.hasOwn(CANVAS_DOCUMENT_CLASSES, p.documentType)) {
    const error = `Invalid documentType '${p.documentType}'. Must be one of: ${DOCUMENT_TYPES.join(', ')}`;
    throw new HttpError(400, error, { validTypes: DOCUMENT_TYPES });
  }
  return { ...p, className: CANVAS_DOCUMENT_CLASSES[p.documentType as CanvasDocumentType] };
}
const read = { scope: 'canvas:read' } as const;
const write = { scope: 'canvas:write' } as const;

const point = (prefix: 'origin' | 'target') => ({
  [`${prefix}X`]: number().optional().describe(`${prefix} x in pixels`),
  [`${prefix}Y`]: number().optional().describe(`${prefix} y in pixels`),
  [`${prefix}Uuid`]: text().optional().describe(`${prefix} token UUID`),
  [`${prefix}Name`]: text().optional().describe(`${prefix} token name`),
});
function located(p: Record<string, unknown>, prefix: 'origin' | 'target'): boolean {
  return (
    (p[`${prefix}X`] !== undefined && p[`${prefix}Y`] !== undefined) ||
    p[`${prefix}Uuid`] !== undefined ||
    p[`${prefix}Name`] !== undefined
  );
}

export const canvasRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/canvas/{documentType}',
    summary: 'The embedded documents of a scene, or one of them',
    access: read,
    playerView: canvasDocumentsSeen,
    parameters: z.object({ documentType, sceneId, documentId: text().optional().describe('Only this document') }),
    operation: 'get-canvas-documents',
    message: withClassName,
  }),
  worldRoute({
    method: 'POST',
    path: '/canvas/{documentType}',
    summary: 'Create embedded documents in a scene',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({
      documentType,
      sceneId,
      data: z
        .union([record(), z.array(z.record(z.string(), z.unknown()))], {
          error: 'must be an object or an array of objects',
        })
        .describe('Document data'),
    }),
    operation: 'create-canvas-document',
    message: withClassName,
    timeoutMs: 30_000,
    changes: {
      touches: () => [],
      made: madeOnCanvas,
      predict: creating((p) =>
        (Array.isArray(p.data) ? p.data : [p.data]).map((document) => ({
          documentName: canvasClassOf(p.documentType) ?? p.documentType,
          document,
        })),
      ),
    },
  }),
  worldRoute({
    method: 'PUT',
    path: '/canvas/{documentType}',
    summary: 'Update an embedded document of a scene',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({
      documentType,
      sceneId,
      documentId: text().describe('Document id'),
      data: record().describe('Changes'),
    }),
    operation: 'update-canvas-document',
    message: withClassName,
    timeoutMs: 30_000,
    changes: { touches: canvasDocument, predict: updating((p) => p.data) },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/canvas/{documentType}',
    summary: 'Delete an embedded document of a scene',
    access: write,
    playerView: OWNED_IN_WORLD,
    parameters: z.object({ documentType, sceneId, documentId: text().describe('Document id') }),
    operation: 'delete-canvas-document',
    message: withClassName,
    changes: { touches: canvasDocument, predict: deleting },
  }),
  worldRoute({
    method: 'POST',
    path: '/move-token',
    idempotent: true,
    summary: 'Move a token, optionally along waypoints',
    access: write,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z
      .object({
        uuid: text().optional().describe('Token UUID'),
        name: text().optional().describe('Token name'),
        x: number().describe('Destination x in pixels'),
        y: number().describe('Destination y in pixels'),
        waypoints: z
          .array(z.object({ x: z.number(), y: z.number() }), { error: 'must be an array of {x, y}' })
          .optional()
          .describe('Points to pass through'),
        animate: flag().optional().describe('Animate the move'),
        sceneId,
      })
      .refine((p) => p.uuid !== undefined || p.name !== undefined, { error: "Either 'uuid' or 'name' is required" }),
    operation: 'move-token',
    changes: { touches: tokenNamed, predict: updating((p) => ({ x: p.x, y: p.y })) },
  }),
  worldRoute({
    method: 'GET',
    path: '/measure-distance',
    summary: 'The distance between two points or tokens, as the grid counts it',
    access: read,
    playerView: distanceSeen,
    parameters: z
      .object({ ...point('origin'), ...point('target'), sceneId })
      .refine((p) => located(p, 'origin'), {
        error: "Give the origin as 'originX' and 'originY', 'originUuid' or 'originName'",
      })
      .refine((p) => located(p, 'target'), {
        error: "Give the target as 'targetX' and 'targetY', 'targetUuid' or 'targetName'",
      }),
    operation: 'measure-distance',
  }),
];
