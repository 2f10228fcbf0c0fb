// What the dnd5e system derives from an actor's source data (modifiers, proficiency, skill totals), and the
// lookups its routes share: actor and item by uuid or name, the concentration effect.
import type { WorldRequest } from '../../../contracts/world-protocol.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import { getProperty, type PlainObject } from '../../world/objects.ts';
import { controlledTokens } from '../targets.ts';

export const ABILITIES = ['str', 'dex', 'con', 'int', 'wis', 'cha'];
export const SKILLS = [
  'acr',
  'ani',
  'arc',
  'ath',
  'dec',
  'his',
  'ins',
  'itm',
  'inv',
  'med',
  'nat',
  'prc',
  'prf',
  'per',
  'rel',
  'slt',
  'ste',
  'sur',
];

export const ABILITY_NAMES: Record<string, string> = {
  str: 'Strength',
  dex: 'Dexterity',
  con: 'Constitution',
  int: 'Intelligence',
  wis: 'Wisdom',
  cha: 'Charisma',
};
export const SKILL_NAMES: Record<string, string> = {
  acr: 'Acrobatics',
  ani: 'Animal Handling',
  arc: 'Arcana',
  ath: 'Athletics',
  dec: 'Deception',
  his: 'History',
  ins: 'Insight',
  itm: 'Intimidation',
  inv: 'Investigation',
  med: 'Medicine',
  nat: 'Nature',
  prc: 'Perception',
  prf: 'Performance',
  per: 'Persuasion',
  rel: 'Religion',
  slt: 'Sleight of Hand',
  ste: 'Stealth',
  sur: 'Survival',
};

export function system(actor: WorldDocument, path: string): unknown {
  return getProperty(actor.source.system, path);
}

export function abilityMod(actor: WorldDocument, ability: string): number {
  const value = (system(actor, `abilities.${ability}.value`) as number | undefined) ?? 10;
  return Math.floor((value - 10) / 2);
}

export function classItems(actor: WorldDocument): WorldDocument[] {
  return actor.collection('Item').filter((item) => item.type === 'class');
}

/** Character level: the sum of the class items' levels, as dnd5e counts it. */
export function characterLevel(actor: WorldDocument): number {
  return classItems(actor).reduce(
    (sum, item) => sum + ((getProperty(item.source, 'system.levels') as number | undefined) ?? 0),
    0,
  );
}

export function proficiencyBonus(actor: WorldDocument): number {
  const level =
    actor.type === 'character'
      ? characterLevel(actor)
      : Math.max(1, (system(actor, 'details.cr') as number | undefined) ?? 0);
  return Math.floor((Math.max(level, 1) - 1) / 4) + 2;
}

export function saveBonus(actor: WorldDocument, ability: string): number {
  const proficient = (system(actor, `abilities.${ability}.proficient`) as number | undefined) ?? 0;
  return abilityMod(actor, ability) + proficient * proficiencyBonus(actor);
}

export function skillData(
  actor: WorldDocument,
  skill: string,
): { ability: string; value: number; mod: number; total: number; passive: number } {
  const ability = (system(actor, `skills.${skill}.ability`) as string | undefined) ?? 'int';
  const value = (system(actor, `skills.${skill}.value`) as number | undefined) ?? 0;
  const mod = abilityMod(actor, ability);
  const total = mod + Math.floor(value * proficiencyBonus(actor));
  return { ability, value, mod, total, passive: 10 + total };
}

/** By `actorUuid` or `actorName`; a token resolves to its actor. */
export function actorByUuidOrName(game: Game, uuid: unknown, name: unknown): WorldDocument {
  if (!uuid && !name) throw new Error('actorUuid or actorName is required');
  const found = uuid
    ? game.fromUuid(String(uuid))
    : (game.actors.find((actor) => actor.name.toLowerCase() === String(name).toLowerCase()) ?? null);
  const actor = found ? (game.actorOf(found) ?? found) : null;
  if (!actor) throw new Error(`Actor not found: ${uuid || name}`);
  return actor;
}

/** By `actorUuid`, or the first controlled token's actor when `selected`. */
export function actorOrSelected(game: Game, request: WorldRequest): WorldDocument {
  if (!request.actorUuid && !request.selected) throw new Error('Either actorUuid or selected must be provided');
  let actor: WorldDocument | null;
  if (request.actorUuid) actor = game.fromUuid(String(request.actorUuid));
  else {
    const token = controlledTokens(game)[0];
    if (!token) throw new Error('No token selected');
    actor = game.tokenActor(token);
  }
  if (!actor) throw new Error('Actor not found');
  return actor;
}

export function actorByUuid(game: Game, request: WorldRequest): WorldDocument {
  if (!request.actorUuid) throw new Error('actorUuid is required');
  const actor = game.fromUuid(String(request.actorUuid));
  if (!actor) throw new Error(`Actor not found with UUID: ${request.actorUuid}`);
  return actor;
}

export function itemOn(actor: WorldDocument, request: WorldRequest): WorldDocument {
  const { itemUuid, itemName } = request as { itemUuid?: string; itemName?: string };
  if (!itemUuid && !itemName) throw new Error('itemUuid or itemName is required');
  const items = actor.collection('Item');
  const item = itemUuid
    ? (items.get(itemUuid.split('.').pop()!) ?? items.find((candidate) => candidate.uuid === itemUuid))
    : items.find((candidate) => candidate.name.toLowerCase() === itemName!.toLowerCase());
  if (!item) throw new Error(`Item not found on actor ${actor.name}: ${itemUuid || itemName}`);
  return item;
}

export function concentrationEffect(actor: WorldDocument): WorldDocument | undefined {
  return actor.collection('ActiveEffect').find((effect) => {
    const statuses = (effect.source.statuses as string[] | undefined) ?? [];
    return statuses.includes('concentrating') || statuses.includes('concentration');
  });
}

/** The statuses of an actor's active effects, as `actor.statuses`. */
export function actorStatuses(actor: WorldDocument): string[] {
  const statuses = actor
    .collection('ActiveEffect')
    .contents.filter((effect) => effect.source.disabled !== true)
    .flatMap((effect) => (effect.source.statuses as string[] | undefined) ?? []);
  return [...new Set(statuses)];
}

export function hitPoints(actor: WorldDocument): PlainObject {
  return (system(actor, 'attributes.hp') as PlainObject | undefined) ?? {};
}
