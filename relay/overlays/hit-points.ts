// Hit points as systems keep them: dnd5e and most d20 systems under system.attributes.hp, others under system.hp.
import { fieldsOf, numberOf } from '../objects.ts';
import { type Fields } from './world.ts';

export interface HitPoints {
  value: number;
  max: number;
  temp?: number;
}

export function hitPointsOf(actor: Fields | undefined): HitPoints | undefined {
  const system = fieldsOf(actor?.system);
  const hp = fieldsOf(fieldsOf(system?.attributes)?.hp) ?? fieldsOf(system?.hp);
  const value = numberOf(hp?.value);
  const max = numberOf(hp?.max) ?? numberOf(hp?.effectiveMax);
  if (value === undefined || max === undefined) return undefined;
  const temp = numberOf(hp?.temp);
  return temp ? { value, max, temp } : { value, max };
}
