// What dnd5e's data models do to the data they are given before it is stored (their `migrateData`), where clients of
// the module still send the older shape.
import { isPlainObject, type PlainObject } from './objects.ts';

/**
 * dnd5e's `CommonTemplate#migrateACData` (module/data/actor/templates/common.mjs): a number in `attributes.ac.value`
 * is an armour class from before dnd5e computed it, so it becomes the flat armour class (`flat`, with `calc` "flat", or
 * "natural" for an NPC). `value` itself is derived data, never stored.
 */
function migrateArmourClass(type: unknown, system: PlainObject): void {
  const attributes = system.attributes;
  const ac = isPlainObject(attributes) ? attributes.ac : undefined;
  if (!isPlainObject(ac) || ac.value === undefined) return;
  const flat = Number.parseInt(String(ac.value), 10);
  if (Number.isFinite(flat) && String(ac.value).trim() !== '') {
    ac.flat = flat;
    ac.calc = type === 'npc' ? 'natural' : 'flat';
  }
  delete ac.value;
}

/** Applies dnd5e's migrations to a new document's source. */
export function migrateDnd5eSource(documentName: string, source: PlainObject): void {
  if (documentName === 'Actor' && isPlainObject(source.system)) migrateArmourClass(source.type, source.system);
}
