// The dice feed: who rolled, the formula, each die's face and the total; crits and fumbles stand out.
import type { DieView, RollView } from '../contracts/overlays.ts';
import { element, text } from './dom.ts';
import { createFeed } from './feed.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

/** More faces than this would wrap into a wall of numbers; the rest is counted instead. */
const MOST_FACES = 12;
const DIE_SHAPES = new Set([4, 6, 8, 10, 12, 20, 100]);

function face(die: DieView, result: { result: number; active: boolean }): HTMLElement {
  const shape = DIE_SHAPES.has(die.faces) ? `d${die.faces}` : 'dx';
  const classes = ['die', shape];
  if (!result.active) classes.push('dropped');
  else if (result.result === die.faces && die.faces > 1) classes.push('highest');
  else if (result.result === 1) classes.push('lowest');
  const chip = text('span', classes.join(' '), result.result);
  chip.title = `d${die.faces}`;
  return chip;
}

function faces(dice: DieView[]): HTMLElement {
  const all = dice.flatMap((die) => die.results.map((result) => face(die, result)));
  const row = element('div', 'dice', ...all.slice(0, MOST_FACES));
  if (all.length > MOST_FACES) row.append(text('span', 'dice-more', `+${all.length - MOST_FACES}`));
  return row;
}

function rollEntry(roll: RollView): HTMLElement {
  const outcome = roll.critical ? 'critical' : roll.fumble ? 'fumble' : '';
  const detail = element('div', 'roll-detail');
  if (roll.flavor) detail.append(text('span', 'flavor', roll.flavor));
  detail.append(text('span', 'formula', roll.formula));
  const body = element('div', 'roll-body', text('div', 'who', roll.who), detail);
  if (roll.dice.length > 0) body.append(faces(roll.dice));
  const total = element('div', 'roll-total', text('span', 'total-value', roll.total));
  if (outcome) total.prepend(text('span', 'outcome', roll.critical ? 'Critical' : 'Fumble'));
  return element('li', `card roll ${outcome}`.trim(), element('span', 'accent-bar'), body, total);
}

export function createDiceFeed(setup: OverlaySetup): OverlayView<RollView[], RollView> {
  return createFeed(setup, rollEntry);
}
