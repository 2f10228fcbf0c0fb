// get-status-effects, get-effects, add-effect, remove-effect (module-operations.md §2).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game, StatusEffectConfig } from '../world/game.ts';
import { assertWritePermission, serializeWithPermission } from '../world/permissions.ts';
import { guarded, reply, withUser, type OperationTable } from './context.ts';

/** `CONFIG.statusEffects` became an object on v14, where the module's array calls fail. */
function statusEffectList(game: Game, method: string): StatusEffectConfig[] {
  if (game.foundryMajorVersion >= 14) throw new TypeError(`CONFIG.statusEffects.${method} is not a function`);
  return game.statusEffects;
}

/** Validates in the module's order: uuid, then the missing-choice error if any, then the lookup. */
function targetOf(game: Game, request: WorldRequest, missingChoice?: string): WorldDocument {
  const uuid = request.uuid as string | undefined;
  if (!uuid) throw new Error('uuid is required');
  if (missingChoice) throw new Error(missingChoice);
  const document = game.fromUuid(uuid);
  if (!document) throw new Error(`Document not found with UUID: ${uuid}`);
  return effectOwner(game, document);
}

/** `document.actor || document`: tokens resolve to their actor, owned items to the owning actor. */
function effectOwner(game: Game, document: WorldDocument): WorldDocument {
  if (document.documentName === 'Token') return game.tokenActor(document) ?? document;
  if (document.documentName === 'Item' && document.parent?.documentName === 'Actor') return document.parent;
  return document;
}

function effectsOf(owner: WorldDocument): WorldDocument[] {
  const effects = owner.embedded.get('ActiveEffect');
  if (!effects) throw new TypeError("Cannot read properties of undefined (reading 'find')");
  return effects.contents;
}

function statusesOf(effect: WorldDocument): string[] {
  return (effect.source.statuses as string[] | undefined) ?? [];
}

/** The module reads `effect.icon`, the v12 name of `img`, whose getter Foundry 14 removed: there it is undefined. */
function iconOf(effect: WorldDocument): string | null | undefined {
  return effect.generation >= 14 ? undefined : effect.img;
}

function effectSummary(effect: WorldDocument) {
  return { id: effect.id, uuid: effect.uuid, name: effect.name, icon: iconOf(effect), statuses: statusesOf(effect) };
}

function effectDetails(effect: WorldDocument) {
  const source = effect.source;
  return {
    id: effect.id,
    uuid: effect.uuid,
    name: effect.name,
    icon: iconOf(effect),
    disabled: source.disabled === true,
    duration: source.duration,
    statuses: statusesOf(effect),
    changes: source.changes ?? [],
    origin: source.origin ?? null,
  };
}

export const effectOperations: OperationTable = {
  'get-status-effects': (request, { game }) =>
    guarded(request, {}, () => {
      const effects = statusEffectList(game, 'map').map((status) => ({
        id: status.id,
        name: status.name || status.id,
        icon: status.img || null,
      }));
      return reply(request, { data: { effects } });
    }),

  'get-effects': withUser({}, (request, { game }, user) => {
    const actor = targetOf(game, request);
    if (user && !serializeWithPermission(game, actor, user)) {
      throw new Error(`User '${user.name}' does not have permission to view '${actor.name}'`);
    }
    return reply(request, { data: { uuid: actor.uuid, effects: effectsOf(actor).map(effectDetails) } });
  }),

  'add-effect': withUser({}, (request, { game }, user) => {
    const { statusId, effectData } = request as { statusId?: string; effectData?: Record<string, unknown> };
    const actor = targetOf(
      game,
      request,
      statusId || effectData ? undefined : 'Either statusId or effectData is required',
    );
    if (user) assertWritePermission(game, actor, user, 'add effects to');
    let data: Record<string, unknown>;
    if (statusId) {
      const statuses = statusEffectList(game, 'find');
      const status = statuses.find((candidate) => candidate.id === statusId);
      if (!status)
        throw new Error(`Unknown status effect: '${statusId}'. Available: ${statuses.map((s) => s.id).join(', ')}`);
      if (effectsOf(actor).some((effect) => statusesOf(effect).includes(statusId))) {
        throw new Error(`Actor '${actor.name}' already has status '${statusId}'`);
      }
      data = { name: status.name || statusId, icon: status.img, statuses: [statusId] };
    } else {
      data = effectData ?? {};
    }
    const effect = game.createDocument('ActiveEffect', data, { parent: actor });
    return reply(request, { data: { uuid: actor.uuid, effect: effectSummary(effect) } });
  }),

  'remove-effect': withUser({}, (request, { game }, user) => {
    const { statusId, effectId } = request as { statusId?: string; effectId?: string };
    const actor = targetOf(game, request, statusId || effectId ? undefined : 'Either effectId or statusId is required');
    if (user) assertWritePermission(game, actor, user, 'remove effects from');
    const effects = effectsOf(actor);
    const effect = statusId
      ? effects.find((candidate) => statusesOf(candidate).includes(statusId))
      : effects.find((candidate) => candidate.id === effectId);
    if (!effect) {
      throw new Error(
        statusId
          ? `Status '${statusId}' not found on actor '${actor.name}'`
          : `Effect with ID '${effectId}' not found on actor '${actor.name}'`,
      );
    }
    game.deleteDocument(effect);
    return reply(request, { data: { uuid: actor.uuid, removedEffectId: effect.id } });
  }),
};
