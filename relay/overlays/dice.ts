// The dice feed: each roll posted to chat, as the overlay shows it (who, formula, total, dice, crit or fumble).
import type { DieView, RollView } from '../../contracts/overlays.ts';
import { listOf, numberOf, textOf } from '../objects.ts';
import { speakerName, timeOf, type Fields } from './world.ts';

/** A chat message's first roll (the one the module reports for it), or undefined for a message without one. */
export function rollViewOf(message: Fields): RollView | undefined {
  if (message.isRoll !== true) return undefined;
  const roll = listOf(message.rolls)[0];
  const total = numberOf(roll?.total);
  if (!roll || total === undefined || typeof message.id !== 'string') return undefined;
  const dice = listOf(roll.dice).map(dieViewOf);
  return {
    id: message.id,
    who: speakerName(message),
    formula: textOf(roll.formula),
    total,
    flavor: textOf(message.flavor),
    dice,
    critical: roll.isCritical === true || naturalD20(dice, 20),
    fumble: roll.isFumble === true || naturalD20(dice, 1),
    at: timeOf(message),
  };
}

function dieViewOf(die: Fields): DieView {
  return {
    faces: numberOf(die.faces) ?? 0,
    results: listOf(die.results).map((result) => ({
      result: numberOf(result.result) ?? 0,
      active: result.active !== false,
    })),
  };
}

/**
 * Core Foundry rolls carry no crit or fumble (only system roll classes do), so the feed also calls a natural 20 or 1
 * on a roll's leading d20, among the results kept, one.
 */
function naturalD20(dice: DieView[], face: number): boolean {
  const first = dice[0];
  return first?.faces === 20 && first.results.some((result) => result.active && result.result === face);
}
