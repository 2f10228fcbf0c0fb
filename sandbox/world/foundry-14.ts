// What a Foundry 14 world stores differently from a 13 one, applied to a document's prepared source: scenes keep
// their background and foreground on Levels, active effects keep typed changes in their system data, chat messages
// carry a messageMode.
import { isPlainObject, type PlainObject } from './objects.ts';

/** The scene fields that moved onto the scene's Levels. */
export const LEVEL_FIELDS = ['background', 'foreground'];

/** `CONST.ACTIVE_EFFECT_MODES` numbers as v14's change types. */
const CHANGE_TYPES = ['custom', 'multiply', 'add', 'downgrade', 'upgrade', 'override'];

/** v14's change priorities by type (`CONST.ACTIVE_EFFECT_CHANGE_TYPES`). */
const CHANGE_PRIORITIES: Record<string, number> = {
  custom: 0,
  multiply: 10,
  add: 20,
  subtract: 20,
  downgrade: 30,
  upgrade: 40,
  override: 50,
};

/** A change as v14 stores it: `{key, type, value, phase, priority}`; a v13 `mode` number becomes its type. */
export function changeObject(change: PlainObject): PlainObject {
  const { mode, ...rest } = change;
  const type = typeof rest.type === 'string' ? rest.type : (CHANGE_TYPES[typeof mode === 'number' ? mode : 2] ?? 'add');
  return {
    key: rest.key ?? '',
    type,
    value: rest.value ?? '',
    phase: rest.phase ?? 'initial',
    priority: rest.priority ?? CHANGE_PRIORITIES[type] ?? null,
  };
}

/** Who sees a message, from its whisper list and blind flag when the caller gave no mode. */
function messageModeOf(source: PlainObject): string {
  const whisper = Array.isArray(source.whisper) ? source.whisper : [];
  if (source.blind === true) return 'blind';
  if (whisper.length === 1 && whisper[0] === source.author) return 'self';
  return whisper.length > 0 ? 'gm' : 'public';
}

/**
 * A Foundry 14 scene's update: the legacy `background` and `foreground` go to its first level, as Foundry migrates
 * them (the module's own scene update, since 3.1.0, sends them there too), the rest to the scene.
 */
export function splitSceneChanges(changes: PlainObject): { scene: PlainObject; level: PlainObject } {
  const scene = { ...changes };
  const level: PlainObject = {};
  for (const field of LEVEL_FIELDS) {
    if (field in scene) level[field] = scene[field];
    delete scene[field];
  }
  return { scene, level };
}

/**
 * Turns a Foundry 13 source into its Foundry 14 shape. A new scene without levels gets one, holding the background and
 * foreground it was given (as Foundry migrates a legacy scene); `embedded` receives that level.
 */
export function adaptSourceTo14(documentName: string, source: PlainObject, embedded: [string, PlainObject[]][]): void {
  if (documentName === 'Scene') {
    const level: PlainObject = { name: 'Level 1' };
    for (const field of LEVEL_FIELDS) {
      if (isPlainObject(source[field])) level[field] = source[field];
      delete source[field];
    }
    delete source.foregroundElevation;
    if (!embedded.some(([name, levels]) => name === 'Level' && levels.length > 0)) embedded.push(['Level', [level]]);
  } else if (documentName === 'ActiveEffect') {
    // Foundry 14 moved `changes` to `system.changes` (foundryvtt#13740); a 13-style list given at the top moves there.
    const system = isPlainObject(source.system) ? source.system : {};
    const given = Array.isArray(system.changes) ? system.changes : Array.isArray(source.changes) ? source.changes : [];
    source.system = { ...system, changes: given.filter(isPlainObject).map(changeObject) };
    delete source.changes;
  } else if (documentName === 'ChatMessage') {
    if (typeof source.messageMode !== 'string') source.messageMode = messageModeOf(source);
  }
}
