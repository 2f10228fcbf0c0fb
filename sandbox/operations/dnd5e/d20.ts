// dnd5e's d20 tests (checks and saves): 1d20, or 2d20 keep highest/lowest, plus the bonus; posted to chat unless
// `createChatMessage` is false, which also feeds the roll-events channel.
import type { WorldRequest } from '../../../contracts/world-protocol.ts';
import { evaluateRoll, type EvaluatedRoll } from '../../dice.ts';
import { createChatMessage } from '../../world/chat.ts';
import type { WorldDocument } from '../../world/document.ts';
import type { Game } from '../../world/game.ts';

export interface D20Result {
  total: number;
  formula: string;
  result: string;
  natural: number;
}

function signed(value: number): string {
  return value < 0 ? ` - ${-value}` : ` + ${value}`;
}

/** The kept die's face, e.g. 17 for "2d20kh" rolling 17 and 4. */
function naturalOf(roll: EvaluatedRoll): number {
  return roll.dice[0]?.results.filter((r) => r.active).reduce((sum, r) => sum + r.result, 0) ?? 0;
}

export function rollD20(
  game: Game,
  actor: WorldDocument,
  request: WorldRequest,
  modifier: number,
  flavor: string,
): D20Result {
  const die = request.advantage ? '2d20kh' : request.disadvantage ? '2d20kl' : '1d20';
  const bonus = typeof request.bonus === 'string' && request.bonus.trim() ? request.bonus.trim() : '';
  const formula = `${die}${modifier === 0 ? '' : signed(modifier)}${bonus ? ` + ${bonus}` : ''}`;
  const roll = evaluateRoll(formula, game.diceRandom);
  const natural = naturalOf(roll);
  const extra = roll.total - natural - modifier;
  const result = `${natural}${modifier === 0 ? '' : signed(modifier)}${bonus ? signed(extra) : ''}`;
  if (request.createChatMessage !== false) {
    createChatMessage(game, {
      authorId: game.moduleUserId,
      speaker: { actor: actor.id, alias: actor.name },
      flavor,
      rolls: [roll],
    });
  }
  return { total: roll.total, formula, result, natural };
}
