// short-rest, long-rest, modify-experience. Rests run without dialogs and announce themselves in chat, as
// `actor.shortRest({dialog: false, chat: true})` does.
import { evaluateRoll } from '../../dice.ts';
import { createChatMessage } from '../../world/chat.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import { getProperty, type PlainObject } from '../../world/objects.ts';
import { assertWritePermission } from '../../world/permissions.ts';
import { reply, type OperationTable } from '../context.ts';
import { abilityMod, actorOrSelected, classItems, hitPoints, system } from './actor-data.ts';
import { dnd5eRoute } from './route.ts';

interface HitDie {
  item: WorldDocument;
  denomination: string;
  available: number;
}

function hitDice(actor: WorldDocument): HitDie[] {
  return classItems(actor).map((item) => {
    const levels = (getProperty(item.source, 'system.levels') as number | undefined) ?? 0;
    const spent = (getProperty(item.source, 'system.hd.spent') as number | undefined) ?? 0;
    return {
      item,
      denomination: (getProperty(item.source, 'system.hd.denomination') as string | undefined) ?? 'd8',
      available: levels - spent,
    };
  });
}

/** Items whose uses recover on one of `periods` get them all back. */
function recoverUses(game: Game, actor: WorldDocument, periods: string[]): string[] {
  const recovered = actor.collection('Item').filter((item) => {
    const recovery = (getProperty(item.source, 'system.uses.recovery') as { period?: string }[] | undefined) ?? [];
    return (
      recovery.some((entry) => periods.includes(entry.period ?? '')) &&
      ((getProperty(item.source, 'system.uses.spent') as number) || 0) > 0
    );
  });
  recovered.forEach((item) => game.updateDocument(item, { 'system.uses.spent': 0 }));
  return recovered.map((item) => item.id);
}

/** With `autoHD`, spends hit dice while at least `threshold` hit points are missing. */
function shortRest(game: Game, actor: WorldDocument, autoHD: boolean, threshold: number): PlainObject {
  const hp = hitPoints(actor);
  const max = (hp.max as number) ?? 0;
  let value = (hp.value as number) ?? 0;
  const rolls: PlainObject[] = [];
  for (const die of autoHD ? hitDice(actor) : []) {
    let spent = 0;
    while (die.available - spent > 0 && max - value >= threshold) {
      const con = abilityMod(actor, 'con');
      const roll = evaluateRoll(
        `1${die.denomination}${con === 0 ? '' : con > 0 ? ` + ${con}` : ` - ${-con}`}`,
        game.diceRandom,
      );
      value = Math.min(max, value + Math.max(0, roll.total));
      rolls.push({ formula: roll.formula, total: roll.total });
      spent++;
    }
    if (spent > 0)
      game.updateDocument(die.item, {
        'system.hd.spent': ((getProperty(die.item.source, 'system.hd.spent') as number) || 0) + spent,
      });
  }
  const dhp = value - ((hp.value as number) ?? 0);
  if (dhp > 0) game.updateDocument(actor, { 'system.attributes.hp.value': value });
  const updateItems = recoverUses(game, actor, ['sr']);
  announce(
    game,
    actor,
    `${actor.name} takes a short rest, spending ${rolls.length} Hit Dice to recover ${dhp} Hit Points.`,
  );
  return { type: 'short', deltas: { hitPoints: dhp, hitDice: -rolls.length }, newDay: false, rolls, updateItems };
}

/** Full hit points, back half the hit dice (at least one), death saves cleared, one level of exhaustion gone. */
function longRest(game: Game, actor: WorldDocument, newDay: boolean): PlainObject {
  const hp = hitPoints(actor);
  const dhp = ((hp.max as number) ?? 0) - ((hp.value as number) ?? 0);
  let recoveredDice = 0;
  for (const die of hitDice(actor)) {
    const levels = (getProperty(die.item.source, 'system.levels') as number) || 0;
    const spent = (getProperty(die.item.source, 'system.hd.spent') as number) || 0;
    const back = Math.min(spent, Math.max(1, Math.floor(levels / 2)));
    if (back > 0) game.updateDocument(die.item, { 'system.hd.spent': spent - back });
    recoveredDice += back;
  }
  game.updateDocument(actor, {
    'system.attributes.hp.value': hp.max,
    'system.attributes.hp.temp': 0,
    'system.attributes.death.success': 0,
    'system.attributes.death.failure': 0,
    'system.attributes.exhaustion': Math.max(0, ((system(actor, 'attributes.exhaustion') as number) || 0) - 1),
  });
  const updateItems = recoverUses(game, actor, newDay ? ['sr', 'lr', 'day'] : ['sr', 'lr']);
  announce(
    game,
    actor,
    `${actor.name} takes a long rest and recovers ${dhp} Hit Points and ${recoveredDice} Hit Dice.`,
  );
  return { type: 'long', deltas: { hitPoints: dhp, hitDice: recoveredDice }, newDay, rolls: [], updateItems };
}

function announce(game: Game, actor: WorldDocument, content: string): void {
  createChatMessage(game, { authorId: game.moduleUserId, speaker: { actor: actor.id, alias: actor.name }, content });
}

export const restRoutes: OperationTable = {
  'short-rest': dnd5eRoute((request, game, user) => {
    const actor = actorOrSelected(game, request);
    if (user) assertWritePermission(game, actor, user, 'perform a short rest on');
    const threshold = typeof request.autoHDThreshold === 'number' ? request.autoHDThreshold : 3;
    return reply(request, {
      data: { actorUuid: actor.uuid, result: shortRest(game, actor, request.autoHD === true, threshold) },
    });
  }),

  'long-rest': dnd5eRoute((request, game, user) => {
    const actor = actorOrSelected(game, request);
    if (user) assertWritePermission(game, actor, user, 'perform a long rest on');
    return reply(request, { data: { actorUuid: actor.uuid, result: longRest(game, actor, request.newDay !== false) } });
  }),

  'modify-experience': dnd5eRoute((request, game, user) => {
    if (!request.actorUuid && !request.selected) throw new Error('Either actorUuid or selected must be provided');
    if (typeof request.amount !== 'number') throw new Error('amount must be a number');
    const actor = actorOrSelected(game, request);
    if (user) assertWritePermission(game, actor, user, 'modify experience on');
    const oldXp = system(actor, 'details.xp.value');
    if (typeof oldXp !== 'number')
      throw new Error(
        `Actor '${actor.name}' does not have experience points (may be an NPC or using milestone leveling)`,
      );
    const newXp = oldXp + request.amount;
    game.updateDocument(actor, { 'system.details.xp.value': newXp });
    return reply(request, { data: { actorUuid: actor.uuid, oldXp, newXp } });
  }),
};
