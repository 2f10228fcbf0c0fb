// A combat's order as Foundry runs it, for answers the relay rebuilds without some combatants.
import { numberOf, textOf } from '../objects.ts';

type Fields = Record<string, unknown>;

/** Foundry's turn order (`Combat#setupTurns`): initiative high to low, none last, then by name, then by id. */
export function inTurnOrder(combatants: Fields[]): Fields[] {
  const initiative = (combatant: Fields) => numberOf(combatant.initiative) ?? -Infinity;
  return [...combatants].sort(
    (a, b) =>
      initiative(b) - initiative(a) ||
      textOf(a.name).localeCompare(textOf(b.name)) ||
      textOf(a.id).localeCompare(textOf(b.id)),
  );
}
