// give and remove: moving items between actors, stacking by name when the item has a quantity.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { deepClone, getProperty, type PlainObject } from '../world/objects.ts';
import { assertWritePermission } from '../world/permissions.ts';
import { controlledTokens } from './targets.ts';

function actorAt(game: Game, uuid: unknown, role: 'Source' | 'Target'): WorldDocument {
  const document = typeof uuid === 'string' && uuid ? game.fromUuid(uuid) : null;
  if (role === 'Target' && !document) throw new Error(`Target entity not found: ${uuid}`);
  if (document?.documentName !== 'Actor')
    throw new Error(`${role} entity must be an Actor, got ${document?.documentName}`);
  return document;
}

function itemNamed(actor: WorldDocument, name: string): WorldDocument | undefined {
  return actor.collection('Item').find((item) => item.name.toLowerCase() === name.toLowerCase());
}

function selectedActorUuid(game: Game): string | undefined {
  const token = controlledTokens(game)[0];
  return token ? game.tokenActor(token)?.uuid : undefined;
}

/** The item to give: by uuid, on the source actor by name, or (without a source) a world item by name. */
function itemToGive(game: Game, request: WorldRequest, source: WorldDocument | null): WorldDocument | undefined {
  if (request.itemUuid) return game.fromUuid(String(request.itemUuid)) ?? undefined;
  const name = String(request.itemName);
  return source
    ? itemNamed(source, name)
    : game.collections.items.find((item) => item.name.toLowerCase() === name.toLowerCase());
}

export function giveItem(game: Game, request: WorldRequest, user: WorldDocument | null): PlainObject {
  if (!request.toUuid && !request.selected) throw new Error('Target UUID or selected is required');
  if (!request.itemUuid && !request.itemName) throw new Error('Item UUID or Item Name is required');
  const source = request.fromUuid ? actorAt(game, request.fromUuid, 'Source') : null;
  const toUuid = request.selected ? selectedActorUuid(game) : request.toUuid;
  const target = actorAt(game, toUuid, 'Target');
  const item = itemToGive(game, request, source);
  if (!item) throw new Error(`Item not found: ${request.itemUuid || request.itemName}`);
  if (item.documentName !== 'Item') throw new Error(`Entity must be an Item, got ${item.documentName}`);
  if (source && item.parent?.id !== source.id)
    throw new Error(`Item ${request.itemUuid || request.itemName} does not belong to source actor ${request.fromUuid}`);
  if (user && source) assertWritePermission(game, source, user, 'give items from');
  if (user) assertWritePermission(game, target, user, 'give items to');
  const amount = Number(request.quantity) || 1;
  const itemData = item.toObject();
  if (source) takeFromStack(game, item, amount);
  const existing = target.collection('Item').find((candidate) => candidate.name === itemData.name);
  let newItemId: string;
  let quantity: number;
  if (existing && typeof getProperty(existing.source, 'system.quantity') === 'number') {
    quantity = (getProperty(existing.source, 'system.quantity') as number) + amount;
    game.updateDocument(existing, { 'system.quantity': quantity });
    newItemId = existing.id;
  } else {
    const { _id, ...data } = itemData;
    data.system = { ...deepClone((data.system as PlainObject | undefined) ?? {}), quantity: amount };
    quantity = amount;
    newItemId = game.createDocument('Item', data, { parent: target }).id;
  }
  return {
    fromUuid: request.fromUuid,
    selected: request.selected,
    toUuid,
    quantity,
    itemUuid: request.itemUuid,
    newItemId,
    success: true,
  };
}

function takeFromStack(game: Game, item: WorldDocument, amount: number): void {
  const quantity = getProperty(item.source, 'system.quantity');
  if (typeof quantity === 'number' && amount < quantity)
    game.updateDocument(item, { 'system.quantity': quantity - amount });
  else game.deleteDocument(item);
}

export function removeItem(game: Game, request: WorldRequest, user: WorldDocument | null): PlainObject {
  if (!request.actorUuid && !request.selected) throw new Error('Target actor UUID or selected is required');
  if (!request.itemUuid && !request.itemName) throw new Error('Item UUID or Item Name is required');
  const actorUuid = request.selected ? selectedActorUuid(game) : request.actorUuid;
  const actor = typeof actorUuid === 'string' ? game.fromUuid(actorUuid) : null;
  if (!actor) throw new Error(`Target actor not found: ${actorUuid}`);
  if (actor.documentName !== 'Actor') throw new Error(`Target entity must be an Actor, got ${actor.documentName}`);
  const item = request.itemUuid ? game.fromUuid(String(request.itemUuid)) : itemNamed(actor, String(request.itemName));
  if (!item) throw new Error(`Item not found: ${request.itemUuid || request.itemName}`);
  if (user) assertWritePermission(game, actor, user, 'remove items from');
  const amount = Number(request.quantity) || null;
  const current = getProperty(item.source, 'system.quantity');
  let quantity = 0;
  if (amount && typeof current === 'number' && current > amount) {
    quantity = current - amount;
    game.updateDocument(item, { 'system.quantity': quantity });
  } else {
    game.deleteDocument(item);
  }
  return { actorUuid, itemUuid: item.uuid, quantity, success: true };
}
