// kill: a token or actor is marked defeated in the current combat, its hit points set to 0 and the dead status applied.
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { getProperty, type PlainObject } from '../world/objects.ts';

/** The first hit-point path the module finds on the actor, in its order of preference. */
const HP_PATHS = ['system.attributes.hp', 'system.health', 'system.hp', 'data.attributes.hp'];

function zeroHitPoints(game: Game, actor: WorldDocument): void {
  const path = HP_PATHS.find((candidate) => getProperty(actor.source, candidate) !== undefined);
  if (path) game.updateDocument(actor, { [`${path}.value`]: 0 });
}

/**
 * `TokenDocument#toggleActiveEffect` with the dead status; the sandbox applies it only when absent, so two tokens of
 * one linked actor do not toggle it back off. Foundry 14 removed that method: the module catches the error and logs
 * it, so there the status is not applied.
 */
function applyDeadStatus(game: Game, actor: WorldDocument): boolean {
  if (game.foundryMajorVersion >= 14) return false;
  const status = game.statusEffects.find((candidate) => ['dead', 'unconscious', 'defeated'].includes(candidate.id));
  if (!status) return false;
  const effects = actor.collection('ActiveEffect');
  if (!effects.contents.some((effect) => (effect.source.statuses as string[] | undefined)?.includes(status.id))) {
    game.createDocument(
      'ActiveEffect',
      { name: status.name, img: status.img, statuses: [status.id] },
      { parent: actor },
    );
  }
  return true;
}

function defeatCombatants(game: Game, matches: (combatant: WorldDocument) => boolean): void {
  const combat = game.activeCombat();
  combat
    ?.collection('Combatant')
    .filter(matches)
    .forEach((combatant) => game.updateDocument(combatant, { defeated: true }));
}

function killToken(game: Game, token: WorldDocument): PlainObject {
  const actor = game.tokenActor(token);
  if (!actor) throw new Error('Token has no associated actor');
  defeatCombatants(
    game,
    (combatant) => combatant.source.tokenId === token.id && combatant.source.sceneId === token.parent?.id,
  );
  zeroHitPoints(game, actor);
  applyDeadStatus(game, actor);
  return { uuid: token.uuid, success: true, message: 'Token marked as defeated, HP set to 0, and dead effect applied' };
}

function killActor(game: Game, actor: WorldDocument): PlainObject {
  const tokens =
    game
      .viewedScene()
      ?.collection('Token')
      .filter((token) => game.tokenActor(token)?.id === actor.id) ?? [];
  const tokensUpdated = tokens.filter((token) => applyDeadStatus(game, game.tokenActor(token)!)).length;
  defeatCombatants(game, (combatant) => combatant.source.actorId === actor.id);
  zeroHitPoints(game, actor);
  return {
    uuid: actor.uuid,
    success: true,
    message: `Actor marked as defeated, HP set to 0, and dead effect applied to ${tokensUpdated} tokens`,
  };
}

export function killDocument(game: Game, entity: WorldDocument): PlainObject {
  if (entity.documentName === 'Token') return killToken(game, entity);
  if (entity.documentName === 'Actor') return killActor(game, entity);
  throw new Error(`Cannot mark entity type ${entity.documentName} as defeated`);
}
