// get/create/update/delete-canvas-document, move-token, measure-distance (module-protocol.md §4.11 Canvas).
import { CANVAS_DOCUMENT_CLASSES, type WorldRequest } from '../../contracts/world-protocol.ts';
import { OWNERSHIP, type WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { isPlainObject, type PlainObject } from '../world/objects.ts';
import { assertGM, assertWritePermission, hasPermission } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';
import { tokenByName, tokenByUuid } from './targets.ts';

const DOCUMENT_TYPES: Readonly<Record<string, string>> = CANVAS_DOCUMENT_CLASSES;

function sceneOf(game: Game, request: WorldRequest): WorldDocument {
  const sceneId = request.sceneId as string | undefined;
  const scene = sceneId ? game.scenes.get(sceneId) : game.activeScene();
  if (!scene) throw new Error(sceneId ? `Scene not found: ${sceneId}` : 'No active scene');
  return scene;
}

/** `scene.<className>` as `createEmbeddedDocuments(className, …)` finds it, with Foundry's error for other names. */
function embeddedCollection(scene: WorldDocument, className: unknown) {
  if (typeof className !== 'string' || !scene.embedded.has(className)) {
    throw new Error(`${String(className)} is not a valid embedded Document within the Scene Document`);
  }
  return scene.collection(className);
}

function existing(scene: WorldDocument, className: unknown, id: unknown): WorldDocument {
  const document = embeddedCollection(scene, className).get(String(id));
  if (!document)
    throw new Error(`${String(className)} id [${String(id)}] does not exist in the Scene embedded collection`);
  return document;
}

/** Where a measurement end sits: explicit coordinates, or the top-left corner of a token found by uuid or name. */
function pointOf(
  game: Game,
  scene: WorldDocument,
  request: WorldRequest,
  end: 'origin' | 'target',
): { x: number; y: number } {
  const x = request[`${end}X`];
  const y = request[`${end}Y`];
  if (typeof x === 'number' && typeof y === 'number') return { x, y };
  const uuid = request[`${end}Uuid`] as string | undefined;
  const name = request[`${end}Name`] as string | undefined;
  const label = end === 'origin' ? 'Origin' : 'Target';
  if (!uuid && !name) throw new Error(`${label} must be specified as ${end}X/${end}Y or ${end}Uuid/${end}Name`);
  const token = uuid ? tokenByUuid(game, uuid, scene) : tokenByName(scene, name!);
  if (!token) throw new Error(`${label} token not found: ${uuid || name}`);
  return { x: token.source.x as number, y: token.source.y as number };
}

/** `canvas.grid.measurePath` on the scene's grid: cells moved (diagonals count as one) × grid distance; gridless is Euclidean. */
function gridDistance(
  scene: WorldDocument,
  origin: { x: number; y: number },
  target: { x: number; y: number },
): number {
  const grid = (scene.source.grid as PlainObject | undefined) ?? {};
  const size = (grid.size as number) || 100;
  const distance = (grid.distance as number) || 5;
  if (grid.type === 0) return (Math.hypot(target.x - origin.x, target.y - origin.y) / size) * distance;
  const cells = (value: number) => Math.floor(value / size);
  const steps = Math.max(Math.abs(cells(target.x) - cells(origin.x)), Math.abs(cells(target.y) - cells(origin.y)));
  return steps * distance;
}

function moveToken(game: Game, request: WorldRequest): PlainObject {
  const scene = sceneOf(game, request);
  const { uuid, name, x, y, waypoints } = request as {
    uuid?: string;
    name?: string;
    x?: unknown;
    y?: unknown;
    waypoints?: unknown;
  };
  if (typeof x !== 'number' || typeof y !== 'number') throw new Error('x and y coordinates are required');
  if (!uuid && !name) throw new Error('uuid or name is required');
  const token = uuid ? tokenByUuid(game, uuid, scene) : tokenByName(scene, name!);
  if (!token) throw new Error(`Token not found: ${uuid || name}`);
  const path = Array.isArray(waypoints) ? waypoints : [];
  for (const waypoint of path) {
    if (!isPlainObject(waypoint) || typeof waypoint.x !== 'number' || typeof waypoint.y !== 'number') {
      throw new Error('Each waypoint must have x and y coordinates');
    }
    game.updateDocument(token, { x: waypoint.x, y: waypoint.y });
  }
  game.updateDocument(token, { x, y });
  return { tokenUuid: token.uuid, name: token.name, x, y, sceneId: scene.id };
}

function assertKnownType(request: WorldRequest): void {
  if (!Object.hasOwn(DOCUMENT_TYPES, String(request.documentType)))
    throw new Error(`Invalid document type: ${request.documentType}`);
}

/**
 * Foundry 14 has no measured templates: the world refuses the type with the relay's own wording for a bad type, since
 * the relay validates types before it knows which world answers.
 */
function assertTypeOnScene(scene: WorldDocument, request: WorldRequest): void {
  const className = DOCUMENT_TYPES[String(request.documentType)];
  if (!className || scene.embedded.has(className)) return;
  const valid = Object.keys(DOCUMENT_TYPES).filter((type) => scene.embedded.has(DOCUMENT_TYPES[type]!));
  throw new Error(`Invalid documentType '${String(request.documentType)}'. Must be one of: ${valid.join(', ')}`);
}

export const canvasOperations: OperationTable = {
  'get-canvas-documents': withUser({ data: null }, (request, { game }, user) => {
    const scene = sceneOf(game, request);
    if (user && !hasPermission(game, scene, user, OWNERSHIP.LIMITED)) {
      throw new Error(`User '${user.name}' does not have permission to view this scene's documents`);
    }
    assertKnownType(request);
    assertTypeOnScene(scene, request);
    const collection = scene.collection(DOCUMENT_TYPES[String(request.documentType)]!);
    let data: PlainObject[];
    if (request.documentId) {
      const document = collection.get(String(request.documentId));
      if (!document) throw new Error(`Document not found: ${request.documentId}`);
      data = [document.toObject()];
    } else {
      data = collection.contents.map((document) => document.toObject());
    }
    return reply(request, { sceneId: scene.id, documentType: request.documentType, data });
  }),

  'create-canvas-document': withUser({}, (request, { game }, user) => {
    const scene = sceneOf(game, request);
    if (user) assertWritePermission(game, scene, user, 'create embedded documents on');
    assertTypeOnScene(scene, request);
    embeddedCollection(scene, request.className);
    const entries = (Array.isArray(request.data) ? request.data : [request.data]).map((entry) =>
      isPlainObject(entry) ? entry : {},
    );
    const created = entries.map((entry) => game.createDocument(String(request.className), entry, { parent: scene }));
    return reply(request, {
      sceneId: scene.id,
      documentType: request.documentType,
      data: created.map((document) => document.toObject()),
    });
  }),

  'update-canvas-document': withUser({}, (request, { game }, user) => {
    const scene = sceneOf(game, request);
    if (user) assertWritePermission(game, scene, user, 'update embedded documents on');
    assertTypeOnScene(scene, request);
    const document = existing(scene, request.className, request.documentId);
    const changed = game.updateDocument(document, isPlainObject(request.data) ? request.data : {});
    return reply(request, {
      sceneId: scene.id,
      documentType: request.documentType,
      data: changed ? [document.toObject()] : [],
    });
  }),

  'delete-canvas-document': withUser({ success: false }, (request, { game }, user) => {
    const scene = sceneOf(game, request);
    if (user) assertWritePermission(game, scene, user, 'delete embedded documents from');
    assertTypeOnScene(scene, request);
    const ids = Array.isArray(request.documentId) ? request.documentId : [request.documentId];
    const documents = ids.map((id) => existing(scene, request.className, id));
    documents.forEach((document) => game.deleteDocument(document));
    return reply(request, { sceneId: scene.id, documentType: request.documentType, success: true });
  }),

  'move-token': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'move tokens');
    return reply(request, { data: moveToken(game, request) });
  }),

  'measure-distance': withUser({}, (request, { game }) => {
    const scene = sceneOf(game, request);
    const origin = pointOf(game, scene, request, 'origin');
    const target = pointOf(game, scene, request, 'target');
    const units = ((scene.source.grid as PlainObject | undefined)?.units as string | undefined) || 'ft';
    return reply(request, {
      data: { distance: gridDistance(scene, origin, target), units, origin, target, sceneId: scene.id },
    });
  }),
};
