// Source defaults and the few validation rules the operations can run into, per document type.
import { CORE_DEFAULTS, CORE_FALLBACKS } from './core-defaults.ts';
import { DND5E_DEFAULTS } from './dnd5e-defaults.ts';
import { migrateDnd5eSource } from './dnd5e-migrations.ts';
import { deepClone, getProperty, setProperty, overlay, type PlainObject } from './objects.ts';

export const FOLDER_DOCUMENT_TYPES = [
  'Actor',
  'Adventure',
  'Item',
  'Scene',
  'JournalEntry',
  'Playlist',
  'RollTable',
  'Cards',
  'Macro',
  'Compendium',
];

/** Defaults of each game system, by system id (document type → subtype or `'*'` → partial source). */
const SYSTEM_DEFAULTS: Record<string, Record<string, Record<string, PlainObject>>> = { dnd5e: DND5E_DEFAULTS };
/** What each game system's data models do to a new document's source. */
const SYSTEM_MIGRATIONS: Record<string, (documentName: string, source: PlainObject) => void> = {
  dnd5e: migrateDnd5eSource,
};

export class ValidationError extends Error {}

/** Whether documents of this type have the field in their schema (Foundry drops a field the schema lacks). */
export function hasField(documentName: string, field: string): boolean {
  return Object.hasOwn(CORE_DEFAULTS[documentName] ?? {}, field);
}

/**
 * The source of a new document: `data` over the system's defaults for its type over Foundry's core defaults, as
 * Foundry `generation` (13, 14) migrates and validates it.
 */
export function prepareSource(
  documentName: string,
  data: PlainObject,
  systemId: string,
  generation: number,
): PlainObject {
  const systemDefaults = SYSTEM_DEFAULTS[systemId]?.[documentName] ?? {};
  const type = typeof data.type === 'string' ? data.type : (CORE_DEFAULTS[documentName]?.type as string | undefined);
  const layers = [
    CORE_DEFAULTS[documentName] ?? {},
    systemDefaults['*'] ?? {},
    (type && systemDefaults[type]) || {},
    data,
  ];
  const source = deepClone(layers.reduce<PlainObject>((merged, layer) => overlay(merged, layer), {}));
  for (const [target, from] of CORE_FALLBACKS[documentName] ?? []) {
    if (!getProperty(source, target)) setProperty(source, target, deepClone(source[from]));
  }
  if (documentName === 'ActiveEffect') migrateEffect(source, generation);
  if (documentName === 'ChatMessage' && generation < 14) migrateChatType(source);
  SYSTEM_MIGRATIONS[systemId]?.(documentName, source);
  validate(documentName, source);
  return source;
}

/**
 * Foundry 12 and 13 take a numeric `type` (the pre-v12 CHAT_MESSAGE_TYPES) as the message's `style`; Foundry 14 no
 * longer does, and the number fails validation as a document subtype.
 */
function migrateChatType(source: PlainObject): void {
  if (typeof source.type !== 'number') return;
  source.style = source.type;
  source.type = 'base';
}

/**
 * Foundry 12 and 13 migrate the older `label`/`icon` keys of effects to `name`/`img`; Foundry 14 retired that shim with
 * the other v12 deprecations (foundryvtt#13436), so there the keys are dropped as unknown.
 */
function migrateEffect(source: PlainObject, generation: number): void {
  if (generation < 14 && source.name === undefined && typeof source.label === 'string') source.name = source.label;
  if (generation < 14 && source.icon !== undefined) source.img = source.img ?? source.icon;
  delete source.label;
  delete source.icon;
}

function validate(documentName: string, source: PlainObject): void {
  const problems: string[] = [];
  if (['ActiveEffect', 'Folder', 'Actor', 'Item', 'Scene', 'Playlist', 'Macro', 'User'].includes(documentName)) {
    if (source.name === undefined || source.name === null) problems.push('name: may not be undefined');
    else if (typeof source.name !== 'string') problems.push('name: must be a string');
    else if (source.name.trim() === '') problems.push('name: may not be a blank string');
  }
  if (documentName === 'ChatMessage' && source.type !== 'base') {
    problems.push(`type: "${String(source.type)}" is not a valid type for the ChatMessage Document class`);
  }
  if (documentName === 'Folder' && !FOLDER_DOCUMENT_TYPES.includes(source.type as string)) {
    problems.push(
      source.type === undefined ? 'type: may not be undefined' : `type: ${String(source.type)} is not a valid choice`,
    );
  }
  if (problems.length > 0) {
    throw new ValidationError(`${documentName} validation errors:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}
