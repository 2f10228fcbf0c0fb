// modify-item-charges, use-ability/feature/spell/item, equip-item, attune-item, transfer-currency,
// modify-currency, prepare-spell.
import type { WorldRequest } from '../../../contracts/world-protocol.ts';
import { createChatMessage } from '../../world/chat.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import { getProperty, isPlainObject, type PlainObject } from '../../world/objects.ts';
import { assertWritePermission } from '../../world/permissions.ts';
import { reply, type OperationHandler, type OperationTable } from '../context.ts';
import { actorByUuid, actorByUuidOrName, itemOn, system } from './actor-data.ts';
import { dnd5eRoute } from './route.ts';

const DENOMINATIONS = ['pp', 'gp', 'ep', 'sp', 'cp'];
const FEATURE_TYPES = ['feat', 'class', 'subclass', 'background'];
const NOT_ITEMS = ['feat', 'spell', 'class', 'subclass', 'background'];

/** `item.system.uses` with dnd5e's derived `value` (max − spent). */
function usesOf(item: WorldDocument): { max: number; spent: number; value: number } {
  const uses = (getProperty(item.source, 'system.uses') as PlainObject | undefined) ?? {};
  const max = Number(uses.max) || 0;
  const spent = Number(uses.spent) || 0;
  return { max, spent, value: typeof uses.value === 'number' ? uses.value : Math.max(0, max - spent) };
}

/** Which items a use route may pick by name: any (use-ability), features, spells, or everything else. */
function matchesKind(item: WorldDocument, kind: 'any' | 'feat' | 'spell' | 'item'): boolean {
  if (kind === 'any') return true;
  if (kind === 'feat') return FEATURE_TYPES.includes(item.type ?? '');
  if (kind === 'spell') return item.type === 'spell';
  return !NOT_ITEMS.includes(item.type ?? '');
}

/** `item.use()` without dialogs: a limited-use item spends a use (none left → nothing happens), then a chat card is posted. */
function useItem(game: Game, actor: WorldDocument, item: WorldDocument): WorldDocument | null {
  const uses = usesOf(item);
  if (uses.max > 0) {
    if (uses.value <= 0) return null;
    game.updateDocument(item, { 'system.uses.spent': uses.spent + 1 });
  }
  const content = `<div class="dnd5e2 chat-card item-card" data-item-id="${item.id}"><header class="card-header"><h3>${item.name}</h3></header></div>`;
  return createChatMessage(game, {
    authorId: game.moduleUserId,
    speaker: { actor: actor.id, alias: actor.name },
    content,
  });
}

function useRoute(kind: 'any' | 'feat' | 'spell' | 'item'): OperationHandler {
  return dnd5eRoute((request, game, user) => {
    const { abilityUuid, abilityName } = request as { abilityUuid?: string; abilityName?: string };
    if (!request.actorUuid) throw new Error('actorUuid is required');
    if (!abilityUuid && !abilityName) throw new Error('abilityUuid or abilityName is required');
    const actor = actorByUuid(game, request);
    if (user) assertWritePermission(game, actor, user, 'use abilities on');
    const ability = abilityUuid
      ? game.fromUuid(abilityUuid)
      : actor
          .collection('Item')
          .find((item) => item.name.toLowerCase() === abilityName!.toLowerCase() && matchesKind(item, kind));
    if (!ability) throw new Error(`Ability not found on actor ${actor.name}`);
    const message = useItem(game, actor, ability);
    return reply(request, { data: { uuid: request.actorUuid, ability: ability.name, result: message?.id ?? null } });
  });
}

function currencyOf(actor: WorldDocument): Record<string, number> {
  return { ...((system(actor, 'currency') as Record<string, number> | undefined) ?? {}) };
}

function transferCurrency(game: Game, request: WorldRequest, user: WorldDocument | null): PlainObject {
  const { sourceActorUuid, sourceActorName, targetActorUuid, targetActorName, currency } = request;
  if (!sourceActorUuid && !sourceActorName) throw new Error('sourceActorUuid or sourceActorName is required');
  if (!targetActorUuid && !targetActorName) throw new Error('targetActorUuid or targetActorName is required');
  if (!isPlainObject(currency)) throw new Error('currency object is required');
  const source = actorByUuidOrName(game, sourceActorUuid, sourceActorName);
  const target = actorByUuidOrName(game, targetActorUuid, targetActorName);
  if (user) {
    assertWritePermission(game, source, user, 'transfer currency from');
    assertWritePermission(game, target, user, 'transfer currency to');
  }
  const moving = DENOMINATIONS.filter(
    (denomination) => typeof currency[denomination] === 'number' && (currency[denomination] as number) > 0,
  );
  const sourcePurse = currencyOf(source);
  const targetPurse = currencyOf(target);
  for (const denomination of moving) {
    const amount = currency[denomination] as number;
    if ((sourcePurse[denomination] || 0) < amount) {
      throw new Error(
        `Insufficient ${denomination}: ${source.name} has ${sourcePurse[denomination] || 0}, needs ${amount}`,
      );
    }
  }
  const change = (purse: Record<string, number>, sign: 1 | -1) =>
    Object.fromEntries(
      moving.map((denomination) => [
        `system.currency.${denomination}`,
        (purse[denomination] || 0) + sign * (currency[denomination] as number),
      ]),
    );
  game.updateDocument(source, change(sourcePurse, -1));
  game.updateDocument(target, change(targetPurse, 1));
  return {
    sourceActorUuid: source.uuid,
    targetActorUuid: target.uuid,
    transferred: currency,
    sourceBalance: currencyOf(source),
    targetBalance: currencyOf(target),
  };
}

export const inventoryRoutes: OperationTable = {
  'modify-item-charges': dnd5eRoute((request, game, user) => {
    const { itemUuid, itemName, amount } = request as { itemUuid?: string; itemName?: string; amount?: unknown };
    if (!request.actorUuid) throw new Error('actorUuid is required');
    if (!itemUuid && !itemName) throw new Error('itemUuid or itemName is required');
    if (typeof amount !== 'number') throw new Error('amount must be a number');
    const actor = actorByUuid(game, request);
    if (user) assertWritePermission(game, actor, user, 'modify item charges on');
    const item = itemUuid
      ? actor.collection('Item').get(itemUuid.split('.').pop()!)
      : actor.collection('Item').find((candidate) => candidate.name.toLowerCase() === itemName!.toLowerCase());
    if (!item) throw new Error(`Item not found on actor ${actor.name}`);
    const uses = usesOf(item);
    const newCharges = Math.max(0, Math.min(uses.max, uses.value + amount));
    game.updateDocument(item, { 'system.uses.spent': Math.max(0, Math.min(uses.max, uses.spent - amount)) });
    return reply(request, { data: { itemUuid: item.uuid, oldCharges: uses.value, newCharges } });
  }),

  'use-ability': useRoute('any'),
  'use-feature': useRoute('feat'),
  'use-spell': useRoute('spell'),
  'use-item': useRoute('item'),

  'equip-item': dnd5eRoute((request, game, user) => {
    const actor = actorByUuidOrName(game, request.actorUuid, request.actorName);
    if (user) assertWritePermission(game, actor, user, 'modify items on');
    const item = itemOn(actor, request);
    if (typeof request.equipped !== 'boolean') throw new Error('equipped must be a boolean');
    game.updateDocument(item, { 'system.equipped': request.equipped });
    return reply(request, {
      data: { actorUuid: actor.uuid, itemUuid: item.uuid, itemName: item.name, equipped: request.equipped },
    });
  }),

  'attune-item': dnd5eRoute((request, game, user) => {
    const actor = actorByUuidOrName(game, request.actorUuid, request.actorName);
    if (user) assertWritePermission(game, actor, user, 'modify items on');
    const item = itemOn(actor, request);
    if (typeof request.attuned !== 'boolean') throw new Error('attuned must be a boolean');
    game.updateDocument(item, { 'system.attuned': request.attuned });
    return reply(request, {
      data: { actorUuid: actor.uuid, itemUuid: item.uuid, itemName: item.name, attuned: request.attuned },
    });
  }),

  'transfer-currency': dnd5eRoute((request, game, user) =>
    reply(request, { data: transferCurrency(game, request, user) }),
  ),

  'modify-currency': dnd5eRoute((request, game, user) => {
    const actorUuid = (request.uuid || request.actorUuid) as string | undefined;
    const { currency, amount } = request as { currency?: string; amount?: unknown };
    if (!actorUuid || !currency || amount === undefined)
      throw new Error('Missing required params: uuid, currency, amount');
    const actor = game.fromUuid(actorUuid);
    if (!actor || actor.documentName !== 'Actor') throw new Error(`Actor not found: ${actorUuid}`);
    if (user) assertWritePermission(game, actor, user, 'modify currency on');
    const previous = currencyOf(actor)[currency] || 0;
    const current = Math.max(0, previous + Number(amount));
    game.updateDocument(actor, { [`system.currency.${currency}`]: current });
    return reply(request, { data: { currency, previous, current, delta: amount } });
  }),

  'prepare-spell': dnd5eRoute((request, game, user) => {
    const actorUuid = (request.uuid || request.actorUuid) as string | undefined;
    const spellName = (request.spellName || request.name) as string | undefined;
    if (!actorUuid || !spellName || request.prepared === undefined)
      throw new Error('Missing required params: uuid, spellName, prepared');
    const actor = game.fromUuid(actorUuid);
    if (!actor || actor.documentName !== 'Actor') throw new Error(`Actor not found: ${actorUuid}`);
    if (user) assertWritePermission(game, actor, user, 'prepare spells on');
    const spell = actor
      .collection('Item')
      .find((item) => item.type === 'spell' && item.name.toLowerCase() === spellName.toLowerCase());
    if (!spell) throw new Error(`Spell not found: ${spellName}`);
    game.updateDocument(spell, { 'system.preparation.prepared': request.prepared });
    return reply(request, { data: { spellName: spell.name, prepared: request.prepared, uuid: spell.uuid } });
  }),
};
