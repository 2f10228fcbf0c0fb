// Foundry dice formulas evaluated with @dice-roller/rpg-dice-roller, driven by the world's seeded random source.
import { DiceRoll, Dice, NumberGenerator, Parser, Results } from '@dice-roller/rpg-dice-roller';
import type { DieResults } from './world/game.ts';
import type { RandomSource } from './world/random.ts';

/** An evaluated roll with what the module reads from a Foundry `Roll`. */
export interface EvaluatedRoll {
  formula: string;
  total: number;
  /** `roll.dice`: every die term, nested ones included. */
  dice: DieResults[];
  /** Faces of `roll.terms[0]` when the first term is a die. */
  firstTermFaces: number | undefined;
  /** Results of the dice that are top-level terms (not inside parentheses or pools). */
  topLevelResults: number[];
}

export class RollFormulaError extends Error {}

/** Rewrites Foundry-only modifier syntax into the library's dialect. */
export function toLibraryNotation(formula: string): string {
  return formula
    .replace(/\[[^\]]*\]/g, '')
    .replace(
      /(\d*d(?:\d+|%|F))((?:[a-z!<>=]+\d*)+)/gi,
      (_match, die: string, modifiers: string) => die + translateModifiers(modifiers),
    );
}

function translateModifiers(modifiers: string): string {
  return modifiers
    .replace(/(kh|kl|dh|dl|k)(?![\dhl])/g, '$11')
    .replace(/cs(\d+)/g, '>=$1')
    .replace(/cs([<>=]+\d+)/g, '$1')
    .replace(/x(\d+)/g, '!=$1')
    .replace(/x(?!o)/g, '!')
    .replace(/rr/g, '\u0000')
    .replace(/r(?!o)/g, 'ro')
    .replace(/\u0000/g, 'r')
    .replace(/(ro?)(\d+)/g, '$1=$2');
}

export function evaluateRoll(formula: string, random: RandomSource): EvaluatedRoll {
  if (typeof formula !== 'string' || formula.trim() === '') {
    throw new RollFormulaError(`Roll formula "${formula ?? ''}" produced a non-numeric result`);
  }
  const notation = toLibraryNotation(formula);
  let terms: unknown[];
  let rolls: unknown[];
  let total: number;
  try {
    terms = Parser.parse(notation);
    NumberGenerator.generator.engine = { next: () => random.nextUint32() };
    const roll = new DiceRoll(notation);
    rolls = roll.rolls;
    total = roll.total;
  } catch (error) {
    throw new RollFormulaError(describeParseFailure(notation, error));
  }
  return { formula, total, ...collectDice(terms, rolls) };
}

function collectDice(
  terms: unknown[],
  rolls: unknown[],
): Pick<EvaluatedRoll, 'dice' | 'firstTermFaces' | 'topLevelResults'> {
  const dice: DieResults[] = [];
  const topLevelResults: number[] = [];
  let depth = 0;
  terms.forEach((term, index) => {
    if (typeof term === 'string') {
      if (term.endsWith('(')) depth++;
      if (term === ')') depth--;
      return;
    }
    const results = rolls[index];
    if (!(term instanceof Dice.StandardDice) || !(results instanceof Results.RollResults)) return;
    const die = {
      faces: facesOf(term),
      results: results.rolls.map((r) => ({ result: r.value, active: r.useInTotal })),
    };
    dice.push(die);
    if (depth === 0) topLevelResults.push(...die.results.map((r) => r.result));
  });
  const first = terms[0];
  return { dice, topLevelResults, firstTermFaces: first instanceof Dice.StandardDice ? facesOf(first) : undefined };
}

function facesOf(die: InstanceType<typeof Dice.StandardDice>): number {
  if (die instanceof Dice.FudgeDice) return 3;
  if (die instanceof Dice.PercentileDice) return 100;
  return die.sides;
}

function describeParseFailure(notation: string, error: unknown): string {
  const offset = (error as { location?: { start?: { offset?: number } } }).location?.start?.offset;
  if (offset === undefined) return error instanceof Error ? error.message : String(error);
  const unresolved = notation.slice(offset).trim() || notation.trim();
  return `Unresolved StringTerm ${unresolved} requested for evaluation`;
}

/** The `roll` action's own heuristic (module-operations.md §3.3): dropped dice count too. */
export function moduleCriticalFlags(roll: EvaluatedRoll): { isCritical: boolean; isFumble: boolean } {
  return {
    isCritical: roll.firstTermFaces !== undefined && roll.topLevelResults.includes(roll.firstTermFaces),
    isFumble: roll.topLevelResults.includes(1),
  };
}
