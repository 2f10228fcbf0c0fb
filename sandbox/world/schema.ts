// Source defaults and the few validation rules the operations can run into, per document type.
import { deepClone, type PlainObject } from './objects.ts';

export const FOLDER_DOCUMENT_TYPES = [
  'Actor', 'Adventure', 'Item', 'Scene', 'JournalEntry', 'Playlist', 'RollTable', 'Cards', 'Macro', 'Compendium',
];

const DEFAULTS: Record<string, () => PlainObject> = {
  Actor: () => ({ type: 'npc', img: 'icons/svg/mystery-man.svg', system: {}, folder: null, sort: 0, ownership: { default: 0 }, flags: {} }),
  Item: () => ({ type: 'loot', img: 'icons/svg/item-bag.svg', system: {}, folder: null, sort: 0, ownership: { default: 0 }, flags: {} }),
  ActiveEffect: () => ({
    img: null, type: 'base', system: {}, changes: [], disabled: false,
    duration: { startTime: null, seconds: null, combat: null, rounds: null, turns: null, startRound: null, startTurn: null },
    description: '', origin: null, tint: '#ffffff', transfer: false, statuses: [], sort: 0, flags: {},
  }),
  Folder: () => ({ description: '', folder: null, sorting: 'a', sort: 0, color: null, flags: {} }),
  ChatMessage: () => ({
    type: 'base', system: {}, style: 0, author: null, timestamp: 0, flavor: '', content: '',
    speaker: { scene: null, actor: null, token: null, alias: null }, whisper: [], blind: false, rolls: [], sound: null, emote: false, flags: {},
  }),
  Combatant: () => ({ type: 'base', system: {}, actorId: null, tokenId: null, sceneId: null, name: null, img: null, initiative: null, hidden: false, defeated: false, flags: {} }),
  Combat: () => ({ type: 'base', system: {}, scene: null, active: true, round: 0, turn: null, sort: 0, flags: {} }),
  Scene: () => ({
    active: false, navigation: true, width: 4000, height: 3000, padding: 0.25, background: { src: null },
    grid: { size: 100, type: 1, distance: 5, units: 'ft' }, folder: null, sort: 0, ownership: { default: 0 }, flags: {},
  }),
  Macro: () => ({ type: 'script', scope: 'global', command: '', author: null, img: 'icons/svg/dice-target.svg', folder: null, sort: 0, ownership: { default: 0 }, flags: {} }),
  User: () => ({ role: 1, color: '#888888', active: false, avatar: null, character: null, flags: {} }),
  Token: () => ({
    name: '', displayName: 0, actorId: null, actorLink: false, width: 1, height: 1, x: 0, y: 0, elevation: 0, rotation: 0,
    hidden: false, locked: false, disposition: -1, texture: { src: 'icons/svg/mystery-man.svg' }, flags: {},
  }),
};

export class ValidationError extends Error {}

export function prepareSource(documentName: string, data: PlainObject): PlainObject {
  const source = { ...(DEFAULTS[documentName]?.() ?? {}), ...deepClone(data) };
  if (documentName === 'ActiveEffect') migrateEffect(source);
  validate(documentName, source);
  return source;
}

/** Foundry migrates the pre-v12 `label`/`icon` keys of effects to `name`/`img`. */
function migrateEffect(source: PlainObject): void {
  if (source.name === undefined && typeof source.label === 'string') source.name = source.label;
  if (source.icon !== undefined) source.img = source.img ?? source.icon;
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
  if (documentName === 'Folder' && !FOLDER_DOCUMENT_TYPES.includes(source.type as string)) {
    problems.push(source.type === undefined ? 'type: may not be undefined' : `type: ${String(source.type)} is not a valid choice`);
  }
  if (problems.length > 0) {
    throw new ValidationError(`${documentName} validation errors:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}
