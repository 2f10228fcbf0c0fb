// entity, create, update, delete, increase, decrease, kill, give, remove (module-protocol.md §4.11 Entity).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { getProperty, isPlainObject, type PlainObject } from '../world/objects.ts';
import { assertWritePermission, isGM, serializeWithPermission, userCan } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';
import { killDocument } from './entity-kill.ts';
import { giveItem, removeItem } from './entity-items.ts';
import { controlledTokens } from './targets.ts';
import { hasField } from '../world/schema.ts';

/** The permission a non-GM needs to create each document type; types not listed need a GM. */
const CREATE_PERMISSIONS: Record<string, string> = {
  Actor: 'ACTOR_CREATE',
  Item: 'ITEM_CREATE',
  JournalEntry: 'JOURNAL_CREATE',
  Cards: 'CARDS_CREATE',
  Playlist: 'PLAYLIST_CREATE',
  Macro: 'MACRO_SCRIPT',
};

/** The controlled tokens, or their actors when `actor` is set. */
function selectedDocuments(game: Game, request: WorldRequest): WorldDocument[] {
  return controlledTokens(game)
    .map((token) => (request.actor ? game.tokenActor(token) : token))
    .filter((doc): doc is WorldDocument => doc !== null);
}

function targetsOf(game: Game, request: WorldRequest): WorldDocument[] {
  if (request.uuid) {
    const document = game.fromUuid(String(request.uuid));
    if (!document) throw new Error(`Entity not found: ${request.uuid}`);
    return [document];
  }
  return request.selected ? selectedDocuments(game, request) : [];
}

/** Macros run code, so writing them needs the module's `allowMacroWrite` setting and, on scoped keys, `macro:write`. */
function assertMacroWrite(game: Game, request: WorldRequest, documentName: string): void {
  if (documentName !== 'Macro') return;
  if (!game.settings.allowMacroWrite)
    throw new Error('Macro writes are disabled in REST API module settings. A GM must enable allowMacroWrite.');
  const scopes = request._scopes;
  if (Array.isArray(scopes) && !scopes.includes('macro:write'))
    throw new Error("The API key lacks the 'macro:write' scope required to change macros");
}

function readable(game: Game, document: WorldDocument, user: WorldDocument | null): PlainObject {
  if (!user) return document.toObject();
  const data = serializeWithPermission(game, document, user);
  if (!data) throw new Error(`User '${user.name}' does not have permission to view '${document.name}'`);
  return data;
}

/** increase / decrease: adds `sign × amount` to a numeric attribute of each target actor. */
function changeAttribute(game: Game, request: WorldRequest, user: WorldDocument | null, sign: 1 | -1) {
  if (!request.uuid && !request.selected) throw new Error('UUID or selected is required');
  const attribute = request.attribute as string | undefined;
  if (!attribute) throw new Error('Attribute path is required');
  if (typeof request.amount !== 'number') throw new Error('Amount must be a number');
  const amount = request.amount;
  const entities = request.selected
    ? controlledTokens(game)
        .map((token) => game.tokenActor(token))
        .filter((actor): actor is WorldDocument => actor !== null)
    : [game.fromUuid(String(request.uuid))].filter((doc): doc is WorldDocument => doc !== null);
  if (entities.length === 0) throw new Error('No entities found to modify');
  return entities.map((entity) => {
    const oldValue = getProperty(entity.view(), attribute);
    if (typeof oldValue !== 'number')
      throw new Error(`Attribute ${attribute} is not a number, found: ${typeof oldValue}`);
    if (user) assertWritePermission(game, entity, user, 'modify');
    const newValue = oldValue + sign * amount;
    game.updateDocument(entity, { [attribute]: newValue });
    return { uuid: entity.uuid, attribute, oldValue, newValue };
  });
}

export const entityOperations: OperationTable = {
  entity: withUser(
    (request) => ({ uuid: request.uuid, data: null }),
    (request, { game }, user) => {
      const uuid = request.uuid as string | undefined;
      if (request.selected) {
        const selected = selectedDocuments(game, request);
        const data = selected.map((document) => readable(game, document, user));
        return reply(request, { uuid: selected.at(-1)?.uuid ?? uuid, data });
      }
      const document = uuid ? game.fromUuid(uuid) : null;
      if (!document) return reply(request, { uuid, error: 'Entity not found', data: null });
      return reply(request, { uuid: document.uuid, data: readable(game, document, user) });
    },
  ),

  create: withUser({ message: 'Failed to create entity' }, (request, { game }, user) => {
    const entityType = String(request.entityType ?? '');
    if (!game.collectionOf(entityType)) throw new Error(`Invalid entity type: ${request.entityType}`);
    if (user && !isGM(user) && !(CREATE_PERMISSIONS[entityType] && userCan(user, CREATE_PERMISSIONS[entityType]))) {
      throw new Error(`User '${user.name}' does not have permission to create ${entityType}`);
    }
    assertMacroWrite(game, request, entityType);
    const data: PlainObject = { ...(isPlainObject(request.data) ? request.data : {}) };
    // The module sets `folder` on any type; Foundry's schema drops it where the type has none (a combat, a message).
    if (hasField(entityType, 'folder')) data.folder = request.folder || null;
    if (entityType === 'Macro') data.author ??= game.moduleUserId;
    const entity = game.createDocument(entityType, data, { keepId: Boolean(request.keepId) });
    return reply(request, { uuid: entity.uuid, entity: entity.toObject() });
  }),

  update: withUser(
    (request) => ({ uuid: request.uuid, message: 'Failed to update entity' }),
    (request, { game }, user) => {
      const entities = targetsOf(game, request);
      if (entities.length === 0) throw new Error(`Entity not found: ${request.uuid}`);
      for (const entity of entities) {
        if (user) assertWritePermission(game, entity, user, 'update');
        assertMacroWrite(game, request, entity.documentName);
      }
      const changes = isPlainObject(request.data) ? request.data : {};
      for (const entity of entities) game.updateDocument(entity, changes);
      return reply(request, { uuid: request.uuid, entity: entities.map((entity) => entity.toObject()) });
    },
  ),

  delete: withUser(
    (request) => ({ uuid: request.uuid, message: 'Failed to delete entity' }),
    (request, { game }, user) => {
      // The module deletes `await fromUuid(uuid)` with `entity?.delete()`: a document already gone is a no-op, not an error.
      if (request.uuid && !game.fromUuid(String(request.uuid)))
        return reply(request, { uuid: request.uuid, success: true });
      const entities = targetsOf(game, request);
      if (entities.length === 0) throw new Error(`Entity not found: ${request.uuid}`);
      for (const entity of entities) {
        if (user) assertWritePermission(game, entity, user, 'delete');
        assertMacroWrite(game, request, entity.documentName);
      }
      for (const entity of entities) game.deleteDocument(entity);
      return reply(request, { uuid: request.uuid, success: true });
    },
  ),

  increase: withUser({ success: false }, (request, { game }, user) =>
    reply(request, { results: changeAttribute(game, request, user, 1), success: true }),
  ),

  decrease: withUser({ success: false }, (request, { game }, user) =>
    reply(request, { results: changeAttribute(game, request, user, -1), success: true }),
  ),

  kill: withUser({ success: false }, (request, { game }, user) => {
    let entities: WorldDocument[];
    if (request.uuid) {
      const entity = game.fromUuid(String(request.uuid));
      if (!entity) throw new Error(`Entity not found: ${request.uuid}`);
      entities = [entity];
    } else {
      entities = request.selected ? controlledTokens(game) : [];
    }
    if (entities.length === 0) throw new Error('No entities found to mark as defeated');
    if (user) entities.forEach((entity) => assertWritePermission(game, entity, user, 'mark as defeated'));
    return reply(request, { results: entities.map((entity) => killDocument(game, entity)) });
  }),

  give: withUser(
    (request) => ({
      selected: request.selected,
      fromUuid: request.fromUuid || '',
      toUuid: request.toUuid || '',
      quantity: request.quantity,
      itemUuid: request.itemUuid || '',
      success: false,
    }),
    (request, { game }, user) => reply(request, giveItem(game, request, user)),
  ),

  remove: withUser({ success: false }, (request, { game }, user) => reply(request, removeItem(game, request, user))),
};
