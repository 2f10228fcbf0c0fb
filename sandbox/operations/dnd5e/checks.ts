// skill-check, ability-save, ability-check, death-save and the concentration routes.
import type { WorldRequest } from '../../../contracts/world-protocol.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';
import { assertWritePermission, serializeWithPermission } from '../../world/permissions.ts';
import { reply, type OperationTable } from '../context.ts';
import {
  ABILITIES,
  ABILITY_NAMES,
  abilityMod,
  actorByUuid,
  actorByUuidOrName,
  concentrationEffect,
  hitPoints,
  saveBonus,
  SKILL_NAMES,
  SKILLS,
  skillData,
  system,
} from './actor-data.ts';
import { rollD20 } from './d20.ts';
import { dnd5eRoute } from './route.ts';

export function assertCanView(game: Game, actor: WorldDocument, user: WorldDocument | null): void {
  if (user && !serializeWithPermission(game, actor, user))
    throw new Error(`User '${user.name}' does not have permission to view actor '${actor.name}'`);
}

function requireAbility(request: WorldRequest): string {
  const ability = request.ability as string | undefined;
  if (!ability) throw new Error('ability is required');
  if (!ABILITIES.includes(ability))
    throw new Error(`Invalid ability '${ability}'. Valid abilities: ${ABILITIES.join(', ')}`);
  return ability;
}

function abilityRoll(kind: 'save' | 'check') {
  return dnd5eRoute((request, game, user) => {
    if (!request.actorUuid) throw new Error('actorUuid is required');
    const ability = requireAbility(request);
    const actor = actorByUuid(game, request);
    assertCanView(game, actor, user);
    const modifier = kind === 'save' ? saveBonus(actor, ability) : abilityMod(actor, ability);
    const roll = rollD20(
      game,
      actor,
      request,
      modifier,
      `${ABILITY_NAMES[ability]} ${kind === 'save' ? 'Saving Throw' : 'Ability Check'}`,
    );
    return reply(request, {
      data: { actorUuid: actor.uuid, ability, total: roll.total, formula: roll.formula, result: roll.result },
    });
  });
}

/** dnd5e's death save: 10+ succeeds, a natural 1 fails twice, a natural 20 wakes at 1 HP; three successes stabilise. */
function deathSave(game: Game, actor: WorldDocument, request: WorldRequest) {
  const death = {
    success: (system(actor, 'attributes.death.success') as number) || 0,
    failure: (system(actor, 'attributes.death.failure') as number) || 0,
  };
  if (((hitPoints(actor).value as number) ?? 0) > 0 || death.failure >= 3 || death.success >= 3)
    return { roll: null, death };
  const roll = rollD20(game, actor, { ...request, disadvantage: false, bonus: undefined }, 0, 'Death Saving Throw');
  let changes: Record<string, number>;
  if (roll.natural === 20)
    changes = {
      'system.attributes.death.success': 0,
      'system.attributes.death.failure': 0,
      'system.attributes.hp.value': 1,
    };
  else if (roll.total >= 10)
    changes =
      death.success + 1 >= 3
        ? { 'system.attributes.death.success': 0, 'system.attributes.death.failure': 0 }
        : { 'system.attributes.death.success': death.success + 1 };
  else changes = { 'system.attributes.death.failure': Math.min(3, death.failure + (roll.natural === 1 ? 2 : 1)) };
  game.updateDocument(actor, changes);
  return {
    roll,
    death: {
      success: (system(actor, 'attributes.death.success') as number) || 0,
      failure: (system(actor, 'attributes.death.failure') as number) || 0,
    },
  };
}

function concentratingActor(game: Game, request: WorldRequest) {
  return actorByUuidOrName(game, request.actorUuid, request.actorName);
}

export const checkRoutes: OperationTable = {
  'skill-check': dnd5eRoute((request, game, user) => {
    if (!request.actorUuid) throw new Error('actorUuid is required');
    const skill = request.skill as string | undefined;
    if (!skill) throw new Error('skill is required');
    if (!SKILLS.includes(skill)) throw new Error(`Invalid skill '${skill}'. Valid skills: ${SKILLS.join(', ')}`);
    const actor = actorByUuid(game, request);
    assertCanView(game, actor, user);
    const roll = rollD20(game, actor, request, skillData(actor, skill).total, `${SKILL_NAMES[skill]} Skill Check`);
    return reply(request, {
      data: { actorUuid: actor.uuid, skill, total: roll.total, formula: roll.formula, result: roll.result },
    });
  }),

  'ability-save': abilityRoll('save'),
  'ability-check': abilityRoll('check'),

  'death-save': dnd5eRoute((request, game, user) => {
    const actor = actorByUuid(game, request);
    if (user) assertWritePermission(game, actor, user, 'roll death saves for');
    const { roll, death } = deathSave(game, actor, request);
    const rolled = roll ? { total: roll.total, formula: roll.formula, result: roll.result } : {};
    return reply(request, { data: { actorUuid: actor.uuid, ...rolled, deathSaves: death } });
  }),

  'get-concentration': dnd5eRoute((request, game, user) => {
    const actor = concentratingActor(game, request);
    assertCanView(game, actor, user);
    const effect = concentrationEffect(actor);
    const origin = effect?.source.origin as string | null | undefined;
    const spell = origin ? (game.fromUuid(origin)?.name ?? null) : null;
    const summary = effect
      ? {
          id: effect.id,
          uuid: effect.uuid,
          name: effect.name,
          icon: effect.img,
          statuses: effect.source.statuses ?? [],
          origin: origin ?? null,
        }
      : null;
    return reply(request, {
      data: { actorUuid: actor.uuid, isConcentrating: Boolean(effect), effect: summary, spell },
    });
  }),

  'break-concentration': dnd5eRoute((request, game, user) => {
    const actor = concentratingActor(game, request);
    if (user) assertWritePermission(game, actor, user, 'break concentration on');
    const effect = concentrationEffect(actor);
    if (!effect) throw new Error(`Actor '${actor.name}' is not concentrating`);
    game.deleteDocument(effect);
    return reply(request, { data: { actorUuid: actor.uuid, broken: true, removedEffectId: effect.id } });
  }),

  'concentration-save': dnd5eRoute((request, game, user) => {
    const actor = concentratingActor(game, request);
    if (user) assertWritePermission(game, actor, user, 'roll concentration saves for');
    const effect = concentrationEffect(actor);
    if (!effect) throw new Error(`Actor '${actor.name}' is not concentrating`);
    if (typeof request.damage !== 'number') throw new Error('damage must be a number');
    const dc = Math.max(10, Math.floor(request.damage / 2));
    const roll = rollD20(game, actor, request, saveBonus(actor, 'con'), 'Constitution Saving Throw');
    const maintained = roll.total >= dc;
    if (!maintained) game.deleteDocument(effect);
    return reply(request, {
      data: { actorUuid: actor.uuid, dc, total: roll.total, formula: roll.formula, result: roll.result, maintained },
    });
  }),
};
