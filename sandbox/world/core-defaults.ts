// Foundry 13's source defaults per document type: what `new Document(data).toObject()` holds for the fields the
// caller left out. Only data; schema.ts applies it (data wins, objects are filled in key by key).
import type { PlainObject } from './objects.ts';

const OWNED = { folder: null, sort: 0, ownership: { default: 0 }, flags: {} };

/** `TextureData`: the image of tokens, tiles, notes and prototype tokens. */
const texture = (src: string | null, fit = 'contain'): PlainObject => ({
  src, anchorX: 0.5, anchorY: 0.5, offsetX: 0, offsetY: 0, fit, scaleX: 1, scaleY: 1, rotation: 0, tint: '#ffffff', alphaThreshold: 0.75,
});

/** `LightData`: the light a token or an ambient light emits. */
const LIGHT: PlainObject = {
  negative: false, priority: 0, alpha: 0.5, angle: 360, bright: 0, color: null, coloration: 1, dim: 0, attenuation: 0.5,
  luminosity: 0.5, saturation: 0, contrast: 0, shadows: 0, animation: { type: null, speed: 5, intensity: 5, reverse: false },
  darkness: { min: 0, max: 1 },
};

/** The fields a placed token and an actor's prototype token share. */
const TOKEN_FIELDS: PlainObject = {
  name: '', displayName: 0, actorLink: false, appendNumber: false, prependAdjective: false, width: 1, height: 1,
  texture: texture('icons/svg/mystery-man.svg'), shape: 4, lockRotation: false, rotation: 0, alpha: 1, disposition: -1,
  displayBars: 0, bar1: { attribute: null }, bar2: { attribute: null }, light: LIGHT,
  sight: { enabled: false, range: 0, angle: 360, visionMode: 'basic', color: null, attenuation: 0.1, brightness: 0, saturation: 0, contrast: 0 },
  detectionModes: [], occludable: { radius: 0 },
  ring: { enabled: false, colors: { ring: null, background: null }, effects: 1, subject: { scale: 1, texture: null } },
  turnMarker: { mode: 1, animation: null, src: null, disposition: false }, movementAction: null, flags: {},
};

export const CORE_DEFAULTS: Record<string, PlainObject> = {
  Actor: { type: 'npc', img: 'icons/svg/mystery-man.svg', system: {}, prototypeToken: { ...TOKEN_FIELDS, texture: texture(null), randomImg: false }, ...OWNED },
  Item: { type: 'loot', img: 'icons/svg/item-bag.svg', system: {}, ...OWNED },
  ActiveEffect: {
    img: null, type: 'base', system: {}, changes: [], disabled: false,
    duration: { startTime: null, seconds: null, combat: null, rounds: null, turns: null, startRound: null, startTurn: null },
    description: '', origin: null, tint: '#ffffff', transfer: false, statuses: [], sort: 0, flags: {},
  },
  Folder: { description: '', folder: null, sorting: 'a', sort: 0, color: null, flags: {} },
  ChatMessage: {
    type: 'base', system: {}, style: 0, author: null, timestamp: 0, flavor: '', content: '',
    speaker: { scene: null, actor: null, token: null, alias: null }, whisper: [], blind: false, rolls: [], sound: null, emote: false, flags: {},
  },
  Combat: { type: 'base', system: {}, scene: null, active: false, round: 0, turn: null, sort: 0, flags: {} },
  Combatant: {
    type: 'base', system: {}, actorId: null, tokenId: null, sceneId: null, name: '', img: null, initiative: null, hidden: false,
    defeated: false, group: null, flags: {},
  },
  Scene: {
    active: false, navigation: true, navOrder: 0, navName: '', background: texture(null, 'fill'), foreground: null,
    foregroundElevation: null, thumb: null, width: 4000, height: 3000, padding: 0.25, initial: { x: null, y: null, scale: null },
    backgroundColor: '#999999',
    grid: { type: 1, size: 100, style: 'solidLines', thickness: 1, color: '#000000', alpha: 0.2, distance: 1, units: '' },
    tokenVision: true, fog: { exploration: true, reset: null, overlay: null, colors: { explored: null, unexplored: null } },
    environment: { darknessLevel: 0, darknessLock: false, globalLight: { enabled: false, bright: false, darkness: { min: 0, max: 1 } }, cycle: true },
    playlist: null, playlistSound: null, journal: null, journalEntryPage: null, weather: '', ...OWNED,
  },
  Token: {
    ...TOKEN_FIELDS, actorId: null, x: 0, y: 0, elevation: 0, sort: 0, locked: false, hidden: false, _movementHistory: [], _regions: [],
  },
  Tile: {
    texture: texture(null, 'fill'), width: 0, height: 0, x: 0, y: 0, elevation: 0, sort: 0, rotation: 0, alpha: 1, hidden: false,
    locked: false, restrictions: { light: false, weather: false }, occlusion: { modes: [], alpha: 0 },
    video: { loop: true, autoplay: true, volume: 0 }, flags: {},
  },
  Drawing: {
    author: null, shape: { type: 'r', width: 0, height: 0, radius: null, points: [] }, interface: false, x: 0, y: 0, elevation: 0,
    sort: 0, rotation: 0, bezierFactor: 0, fillType: 0, fillColor: '#ffffff', fillAlpha: 0.5, strokeWidth: 8, strokeColor: '#ffffff',
    strokeAlpha: 1, texture: null, text: '', fontFamily: 'Signika', fontSize: 48, textColor: '#ffffff', textAlpha: 1, hidden: false,
    locked: false, flags: {},
  },
  Wall: {
    c: [0, 0, 0, 0], light: 20, move: 20, sight: 20, sound: 20, dir: 0, door: 0, ds: 0, doorSound: null,
    threshold: { light: null, sight: null, sound: null, attenuation: false }, animation: null, flags: {},
  },
  AmbientLight: { x: 0, y: 0, elevation: 0, rotation: 0, walls: true, vision: false, config: LIGHT, hidden: false, flags: {} },
  AmbientSound: {
    x: 0, y: 0, elevation: 0, radius: 0, path: null, repeat: false, volume: 0.5, walls: true, easing: true, hidden: false,
    darkness: { min: 0, max: 1 }, effects: { base: { type: null, intensity: 5 }, muffled: { type: null, intensity: 5 } }, flags: {},
  },
  Note: {
    entryId: null, pageId: null, x: 0, y: 0, elevation: 0, sort: 0, texture: texture('icons/svg/book.svg'), iconSize: 40, text: '',
    fontFamily: 'Signika', fontSize: 32, textAnchor: 1, textColor: '#ffffff', global: false, flags: {},
  },
  MeasuredTemplate: {
    author: null, t: 'circle', x: 0, y: 0, elevation: 0, sort: 0, distance: 1, direction: 0, angle: 0, width: 0,
    borderColor: '#000000', fillColor: '#ffffff', texture: null, hidden: false, flags: {},
  },
  Region: {
    name: '', color: '#ffffff', shapes: [], elevation: { bottom: null, top: null }, visibility: 0, highlightMode: 'coverage',
    locked: false, flags: {},
  },
  RegionBehavior: { name: '', type: 'base', system: {}, disabled: false, flags: {} },
  Playlist: { description: '', channel: 'music', mode: 0, playing: false, fade: null, sorting: 'a', seed: null, ...OWNED },
  PlaylistSound: {
    description: '', path: null, channel: '', playing: false, pausedTime: null, repeat: false, volume: 0.5, fade: null, sort: 0, flags: {},
  },
  JournalEntry: { categories: [], ...OWNED },
  JournalEntryPage: {
    type: 'text', title: { show: true, level: 1 }, image: { caption: null }, text: { content: null, format: 1 },
    video: { controls: true, volume: 0.5 }, src: null, system: {}, sort: 0, ownership: { default: -1 }, flags: {},
  },
  RollTable: { img: 'icons/svg/d20-grey.svg', description: '', formula: '', replacement: true, displayRoll: true, ...OWNED },
  TableResult: { type: 'text', name: '', description: '', img: null, documentUuid: null, weight: 1, range: [1, 1], drawn: false, flags: {} },
  Cards: {
    type: 'deck', description: '', img: 'icons/svg/card-hand.svg', system: {}, width: null, height: null, rotation: 0,
    displayCount: false, ...OWNED,
  },
  Card: { type: 'base', system: {}, description: '', suit: '', value: null, drawn: false, origin: null, sort: 0, flags: {} },
  Macro: { type: 'script', scope: 'global', command: '', author: null, img: 'icons/svg/dice-target.svg', ...OWNED },
  User: {
    role: 1, color: '#888888', active: false, avatar: null, character: null, pronouns: '', hotbar: {}, permissions: {}, flags: {},
  },
};

/** Source fields Foundry fills from another field of the same document when they are left blank. */
export const CORE_FALLBACKS: Record<string, [target: string, from: string][]> = {
  Actor: [['prototypeToken.name', 'name'], ['prototypeToken.texture.src', 'img']],
};
