// encounters, start-encounter, next/last turn and round, end-encounter, add-to/remove-from-encounter
// (module-protocol.md §4.11 Encounter). Reads `encounterId` and `tokenUuids`, the field names the module reads.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { combatantName } from '../events.ts';
import {
  beginCombat,
  currentCombatant,
  nextRound,
  nextTurn,
  previousRound,
  previousTurn,
  rollInitiative,
} from '../world/combat.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import type { PlainObject } from '../world/objects.ts';
import { assertGM } from '../world/permissions.ts';
import { reply, withUser, type OperationHandler, type OperationTable } from './context.ts';
import { controlledTokens } from './targets.ts';

function combatantRow(game: Game, combatant: WorldDocument): PlainObject {
  const token = combatantToken(game, combatant);
  const actor = token ? game.tokenActor(token) : game.actors.get(combatant.source.actorId as string);
  return {
    id: combatant.id,
    name: combatantName(game, combatant),
    tokenUuid: token?.uuid,
    actorUuid: actor?.uuid,
    img: combatant.source.img ?? (token?.source.texture as PlainObject | undefined)?.src ?? actor?.img ?? null,
    initiative: combatant.source.initiative,
    hidden: combatant.source.hidden === true,
    defeated: combatant.source.defeated === true,
  };
}

function combatantToken(game: Game, combatant: WorldDocument): WorldDocument | undefined {
  return game.scenes
    .get(combatant.source.sceneId as string)
    ?.collection('Token')
    .get(combatant.source.tokenId as string);
}

function encounterSummary(combat: WorldDocument): PlainObject {
  return { id: combat.id, name: combat.source.name ?? null, round: combat.source.round, turn: combat.source.turn };
}

function combatFor(game: Game, request: WorldRequest): WorldDocument {
  const encounterId = request.encounterId as string | undefined;
  const combat = encounterId ? game.combats.get(encounterId) : game.activeCombat();
  if (!combat) throw new Error(encounterId ? `Encounter with ID ${encounterId} not found` : 'No active encounter');
  return combat;
}

function addCombatants(game: Game, combat: WorldDocument, tokens: WorldDocument[]): void {
  for (const token of tokens) {
    game.createDocument(
      'Combatant',
      { tokenId: token.id, sceneId: token.parent?.id, actorId: token.source.actorId },
      { parent: combat },
    );
  }
}

/** `combat.activate()`: this combat becomes the active one of its scene. */
function activate(game: Game, combat: WorldDocument): void {
  for (const other of game.combats.filter(
    (c) => c.id !== combat.id && c.source.active === true && c.source.scene === combat.source.scene,
  )) {
    game.updateDocument(other, { active: false });
  }
  game.updateDocument(combat, { active: true });
}

function hasPlayerOwner(game: Game, actor: WorldDocument | null): boolean {
  if (!actor) return false;
  return game.users.contents.some(
    (user) => (user.source.role as number) < 3 && (actor.ownership[user.id] ?? actor.ownership.default ?? 0) >= 3,
  );
}

function startEncounter(game: Game, request: WorldRequest): WorldDocument {
  const scene = game.viewedScene();
  const combat = game.createDocument('Combat', {
    name: request.name || 'New Encounter',
    scene: scene?.id ?? null,
    active: false,
    round: 0,
    turn: null,
  });
  beginCombat(game, combat);
  const uuids = Array.isArray(request.tokenUuids) ? request.tokenUuids : [];
  addCombatants(
    game,
    combat,
    uuids
      .map((uuid) => game.fromUuid(String(uuid)))
      .filter((doc): doc is WorldDocument => doc?.documentName === 'Token'),
  );
  const added = new Set<string>();
  if (request.startWithPlayers && scene) {
    const players = scene.collection('Token').filter((token) => hasPlayerOwner(game, game.tokenActor(token)));
    players.forEach((token) => added.add(token.id));
    addCombatants(game, combat, players);
  }
  if (request.startWithSelected)
    addCombatants(
      game,
      combat,
      controlledTokens(game).filter((token) => !added.has(token.id)),
    );
  const combatants = combat.collection('Combatant').contents;
  if (request.rollNPC)
    rollInitiative(
      game,
      combatants.filter((c) => !hasPlayerOwner(game, game.actors.get(c.source.actorId as string) ?? null)),
    );
  if (request.rollAll) rollInitiative(game, combatants);
  activate(game, combat);
  return combat;
}

/** next/last turn and round: GM-only navigation replying with the combat after the step. */
function navigation(action: string, step: (game: Game, combat: WorldDocument) => WorldDocument): OperationHandler {
  return withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'manage encounters');
    const combat = step(game, combatFor(game, request));
    const current = currentCombatant(game, combat);
    const token = current ? combatantToken(game, current) : undefined;
    return reply(request, {
      encounterId: combat.id,
      action,
      currentTurn: combat.source.turn,
      currentRound: combat.source.round,
      actorTurn: (token ? game.tokenActor(token) : null)?.uuid,
      tokenTurn: token?.uuid,
      encounter: encounterSummary(combat),
    });
  });
}

function addToEncounter(game: Game, combat: WorldDocument, request: WorldRequest) {
  const added: string[] = [];
  const failed: { uuid: unknown; reason: string }[] = [];
  for (const uuid of Array.isArray(request.uuids) ? request.uuids : []) {
    const entity = game.fromUuid(String(uuid));
    const scene = game.viewedScene();
    let token: WorldDocument | undefined;
    if (!entity) failed.push({ uuid, reason: 'Entity not found' });
    else if (entity.documentName === 'Token') token = entity;
    else if (entity.documentName !== 'Actor') failed.push({ uuid, reason: 'Entity must be a Token or Actor' });
    else if (!scene) failed.push({ uuid, reason: 'No active scene' });
    else {
      token = scene.collection('Token').find((candidate) => game.tokenActor(candidate)?.id === entity.id);
      if (!token) failed.push({ uuid, reason: 'No token found for this actor in the current scene' });
    }
    if (token) {
      addCombatants(game, combat, [token]);
      added.push(String(uuid));
    }
  }
  if (request.selected === true) {
    const present = new Set(combat.collection('Combatant').contents.map((c) => c.source.tokenId));
    const fresh = controlledTokens(game).filter((token) => !present.has(token.id));
    addCombatants(game, combat, fresh);
    added.push(...fresh.map((token) => token.uuid));
  }
  if (request.rollInitiative === true && added.length > 0)
    rollInitiative(game, combat.collection('Combatant').contents);
  return { added, failed };
}

function removeFromEncounter(game: Game, combat: WorldDocument, request: WorldRequest) {
  const removed: string[] = [];
  const failed: { uuid: unknown; reason: string }[] = [];
  const doomed = new Set<WorldDocument>();
  const combatants = combat.collection('Combatant').contents;
  for (const uuid of Array.isArray(request.uuids) ? request.uuids : []) {
    const entity = game.fromUuid(String(uuid));
    if (!entity) {
      failed.push({ uuid, reason: 'Entity not found' });
      continue;
    }
    const matches =
      entity.documentName === 'Token'
        ? combatants.filter((c) => c.source.tokenId === entity.id && c.source.sceneId === entity.parent?.id)
        : entity.documentName === 'Actor'
          ? combatants.filter((c) => c.source.actorId === entity.id)
          : [];
    if (matches.length === 0) failed.push({ uuid, reason: 'No combatant found for this entity' });
    else {
      matches.forEach((c) => doomed.add(c));
      removed.push(String(uuid));
    }
  }
  if (request.selected === true) {
    for (const token of controlledTokens(game)) {
      const match = combatants.find((c) => c.source.tokenId === token.id);
      if (match && !doomed.has(match)) {
        doomed.add(match);
        removed.push(token.uuid);
      }
    }
  }
  doomed.forEach((combatant) => game.deleteDocument(combatant));
  return { removed, failed };
}

export const encounterOperations: OperationTable = {
  encounters: withUser({ encounters: [] }, (request, { game }) => {
    const current = game.activeCombat();
    const encounters = game.combats.contents.map((combat) => ({
      ...encounterSummary(combat),
      current: combat.id === current?.id,
      combatants: combat.collection('Combatant').contents.map((combatant) => combatantRow(game, combatant)),
    }));
    return reply(request, { encounters });
  }),

  'start-encounter': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'manage encounters');
    const combat = startEncounter(game, request);
    const combatants = combat.collection('Combatant').contents.map((combatant) => combatantRow(game, combatant));
    return reply(request, { encounterId: combat.id, encounter: { ...encounterSummary(combat), combatants } });
  }),

  'next-turn': navigation('nextTurn', nextTurn),
  'next-round': navigation('nextRound', nextRound),
  'last-turn': navigation('previousTurn', previousTurn),
  // The module answers a failed last-round as "encounter-navigation", which no relay can match to the request; the
  // sandbox answers "last-round-result" so the caller gets the error instead of a timeout.
  'last-round': navigation('previousRound', previousRound),

  'end-encounter': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'manage encounters');
    const encounterId = (request.encounterId as string | undefined) || game.activeCombat()?.id;
    const combat = encounterId ? game.combats.get(encounterId) : undefined;
    if (!combat) throw new Error('No encounter not found');
    game.deleteDocument(combat);
    return reply(request, { encounterId, message: 'Encounter successfully ended' });
  }),

  'add-to-encounter': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'manage encounters');
    const combat = combatFor(game, request);
    return reply(request, { encounterId: combat.id, ...addToEncounter(game, combat, request) });
  }),

  'remove-from-encounter': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'manage encounters');
    const combat = combatFor(game, request);
    return reply(request, { encounterId: combat.id, ...removeFromEncounter(game, combat, request) });
  }),
};
