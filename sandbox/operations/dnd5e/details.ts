// get-actor-details: the parts of a dnd5e actor the caller asks for in `details`.
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import type { PlainObject } from '../../world/objects.ts';
import { reply, type OperationTable } from '../context.ts';
import {
  ABILITIES,
  abilityMod,
  actorByUuid,
  actorStatuses,
  characterLevel,
  concentrationEffect,
  hitPoints,
  proficiencyBonus,
  saveBonus,
  SKILLS,
  skillData,
  system,
} from './actor-data.ts';
import { assertCanView } from './checks.ts';
import { dnd5eRoute } from './route.ts';

const ITEM_TYPES = ['weapon', 'equipment', 'consumable', 'tool', 'loot', 'backpack'];
const FEATURE_TYPES = ['feat', 'background', 'class'];

function itemsOfType(actor: WorldDocument, types: string[]): PlainObject[] {
  return actor
    .collection('Item')
    .filter((item) => types.includes(item.type ?? ''))
    .map((item) => item.toObject());
}

function stats(actor: WorldDocument): PlainObject {
  const hp = hitPoints(actor);
  return {
    name: actor.name,
    img: actor.img,
    uuid: actor.uuid,
    level: characterLevel(actor),
    profBonus: proficiencyBonus(actor),
    ac: (system(actor, 'attributes.ac.value') ?? system(actor, 'attributes.ac.flat') ?? 10) as number,
    hp: { value: hp.value, max: hp.max, temp: hp.temp ?? 0 },
    speed: (system(actor, 'attributes.movement.walk') as number | undefined) ?? 0,
    exhaustion: (system(actor, 'attributes.exhaustion') as number | undefined) ?? 0,
    inspiration: (system(actor, 'attributes.inspiration') as boolean | undefined) ?? false,
  };
}

function abilities(actor: WorldDocument): PlainObject {
  return Object.fromEntries(
    ABILITIES.map((ability) => [
      ability,
      {
        value: system(actor, `abilities.${ability}.value`),
        mod: abilityMod(actor, ability),
        save: saveBonus(actor, ability),
        proficient: (system(actor, `abilities.${ability}.proficient`) as number | undefined) ?? 0,
      },
    ]),
  );
}

function skills(actor: WorldDocument): PlainObject {
  return Object.fromEntries(
    SKILLS.map((skill) => {
      const { ability, total, mod, value, passive } = skillData(actor, skill);
      return [skill, { ability, total, mod, value, passive }];
    }),
  );
}

function biography(actor: WorldDocument): PlainObject {
  const text = (path: string) => (system(actor, `details.${path}`) as string | undefined) ?? '';
  const named = (type: string) => actor.collection('Item').find((item) => item.type === type)?.name ?? '?';
  return {
    race: named('race'),
    background: named('background'),
    class:
      actor
        .collection('Item')
        .filter((item) => item.type === 'class')
        .map((item) => item.name)
        .join('/') || '?',
    alignment: text('alignment'),
    biography: text('biography.value'),
    age: text('age'),
    height: text('height'),
    weight: text('weight'),
    eyes: text('eyes'),
    skin: text('skin'),
    hair: text('hair'),
    faith: text('faith'),
    gender: text('gender'),
  };
}

function conditions(game: Game, actor: WorldDocument): PlainObject {
  const list = actorStatuses(actor).map((id) => ({
    id,
    name: game.statusEffects.find((status) => status.id === id)?.name ?? id,
  }));
  const effect = concentrationEffect(actor);
  return { conditions: list, concentration: effect ? { active: true, name: effect.name } : { active: false } };
}

export const detailRoutes: OperationTable = {
  'get-actor-details': dnd5eRoute((request, game, user) => {
    if (!request.actorUuid) throw new Error('actorUuid is required');
    const details = request.details;
    if (!Array.isArray(details) || details.length === 0)
      throw new Error('details array is required and cannot be empty');
    const actor = actorByUuid(game, request);
    assertCanView(game, actor, user);
    const wants = (part: string) => details.includes(part);
    const data: PlainObject = { uuid: request.actorUuid };
    if (wants('resources')) data.resources = system(actor, 'resources');
    if (wants('spells')) data.spells = itemsOfType(actor, ['spell']);
    if (wants('items')) data.items = itemsOfType(actor, ITEM_TYPES);
    if (wants('features')) data.features = itemsOfType(actor, FEATURE_TYPES);
    if (wants('stats')) data.stats = stats(actor);
    if (wants('abilities')) data.abilities = abilities(actor);
    if (wants('skills')) data.skills = skills(actor);
    if (wants('details')) data.details = biography(actor);
    if (wants('conditions')) Object.assign(data, conditions(game, actor));
    return reply(request, { data });
  }),
};
