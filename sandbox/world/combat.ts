// Combat turn order as Foundry's Combat runs it: start, next/previous turn and round, initiative rolls.
// Hooks fire before the update, as in core, and a new round advances the world clock.
import { evaluateRoll } from '../dice.ts';
import { combatTurns } from '../events.ts';
import type { WorldDocument } from './document.ts';
import type { Game } from './game.ts';

const SECONDS_PER_ROUND = 6;

interface TurnUpdate {
  round: number;
  turn: number | null;
}

function advanceWorldTime(game: Game, seconds: number): void {
  game.worldTime += seconds;
  game.hooks.callAll('updateWorldTime', game.worldTime, seconds, {}, game.moduleUserId);
}

function applyTurn(
  game: Game,
  combat: WorldDocument,
  hook: 'combatTurn' | 'combatRound',
  update: TurnUpdate,
  direction: 1 | -1,
  seconds: number,
): WorldDocument {
  game.hooks.callAll(hook, combat, update, { direction, worldTime: { delta: seconds } });
  game.updateDocument(combat, { ...update });
  if (seconds !== 0) advanceWorldTime(game, seconds);
  return combat;
}

export function beginCombat(game: Game, combat: WorldDocument): WorldDocument {
  const start = { round: 1, turn: 0 };
  game.hooks.callAll('combatStart', combat, start);
  game.updateDocument(combat, start);
  return combat;
}

export function nextRound(game: Game, combat: WorldDocument): WorldDocument {
  const update = { round: (combat.source.round as number) + 1, turn: 0 };
  return applyTurn(game, combat, 'combatRound', update, 1, SECONDS_PER_ROUND);
}

/** An unstarted combat, or the last turn of a round, moves on to the next round. */
export function nextTurn(game: Game, combat: WorldDocument): WorldDocument {
  const next = ((combat.source.turn as number | null) ?? -1) + 1;
  const round = combat.source.round as number;
  if (round === 0 || next >= combatTurns(game, combat).length) return nextRound(game, combat);
  return applyTurn(game, combat, 'combatTurn', { round, turn: next }, 1, 0);
}

export function previousRound(game: Game, combat: WorldDocument): WorldDocument {
  const round = Math.max((combat.source.round as number) - 1, 0);
  const lastTurn = Math.max(combatTurns(game, combat).length - 1, 0);
  const turn = round === 0 || combat.source.turn === null ? null : lastTurn;
  return applyTurn(game, combat, 'combatRound', { round, turn }, -1, round > 0 ? -SECONDS_PER_ROUND : 0);
}

/** The first turn of round 1 steps back into round 0; the first turn of a later round into the previous round. */
export function previousTurn(game: Game, combat: WorldDocument): WorldDocument {
  const turn = combat.source.turn as number | null;
  const round = combat.source.round as number;
  if (turn === 0 && round === 0) return combat;
  if (turn !== null && turn <= 0) return previousRound(game, combat);
  const previous = (turn ?? combatTurns(game, combat).length) - 1;
  return applyTurn(game, combat, 'combatTurn', { round, turn: previous }, -1, 0);
}

/** The combatant whose turn it is, as `combat.combatant`. */
export function currentCombatant(game: Game, combat: WorldDocument): WorldDocument | null {
  const turn = combat.source.turn;
  return typeof turn === 'number' ? (combatTurns(game, combat)[turn] ?? null) : null;
}

/** Rolls 1d20 for each combatant that has no initiative yet. */
export function rollInitiative(game: Game, combatants: WorldDocument[]): void {
  for (const combatant of combatants.filter((candidate) => typeof candidate.source.initiative !== 'number')) {
    game.updateDocument(combatant, { initiative: evaluateRoll('1d20', game.diceRandom).total });
  }
}
