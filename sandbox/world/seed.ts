// Builds the Sandbox Keep from seed-content.ts. Runs before any listener is attached, so it fires no pushes.
import { evaluateRoll } from '../dice.ts';
import { createChatMessage } from './chat.ts';
import { DocumentCollection, type WorldDocument } from './document.ts';
import { SKILL_ABILITIES } from './dnd5e-defaults.ts';
import type { Game } from './game.ts';
import type { PlainObject } from './objects.ts';
import {
  ACTORS,
  CARDS,
  FOLDERS,
  ITEMS,
  JOURNAL,
  MACROS,
  MODULES,
  PACKS,
  PLAYLISTS,
  SCENES,
  TABLES,
  USERS,
  type SeedActor,
  type SeedEffect,
  type SeedItem,
  type SeedScene,
  type SeedSimple,
} from './seed-content.ts';
import { statusEffectsFor } from './status-effects.ts';

class SeedKeys {
  readonly #ids = new Map<string, string>();
  readonly #game: Game;

  constructor(game: Game) {
    this.#game = game;
  }

  /** The id reserved for a seed key, minted on first use so documents can reference each other before they exist. */
  id(key: string): string {
    if (!this.#ids.has(key)) this.#ids.set(key, this.#game.newId());
    return this.#ids.get(key)!;
  }

  optional(key: string | undefined): string | null {
    return key ? this.id(key) : null;
  }
}

export function seedWorld(game: Game, options: { encounters: boolean }): void {
  const keys = new SeedKeys(game);
  game.statusEffects = statusEffectsFor(game.system.id);
  game.modules.push(...MODULES);
  seedUsers(game, keys);
  for (const folder of FOLDERS) {
    game.createDocument(
      'Folder',
      {
        _id: keys.id(folder.key),
        name: folder.name,
        type: folder.type,
        folder: keys.optional(folder.parent),
        color: folder.color ?? null,
      },
      { keepId: true },
    );
  }
  for (const actor of ACTORS) game.createDocument('Actor', actorData(actor, keys), { keepId: true });
  for (const item of ITEMS) game.createDocument('Item', itemData(item, keys));
  for (const scene of SCENES) game.createDocument('Scene', sceneData(game, scene, keys), { keepId: true });
  seedPlaylists(game, keys);
  seedSimple(game, 'JournalEntry', JOURNAL, keys);
  seedSimple(game, 'RollTable', TABLES, keys);
  seedSimple(game, 'Cards', CARDS, keys);
  seedSimple(game, 'Macro', MACROS, keys, { author: keys.id('gm'), scope: 'global' });
  seedPacks(game);
  const courtyard = game.scenes.get(keys.id('courtyard'))!;
  game.canvas.viewedSceneId = courtyard.id;
  if (options.encounters) seedCombat(game, courtyard, keys);
  seedChat(game, keys);
}

function seedUsers(game: Game, keys: SeedKeys): void {
  for (const user of USERS) {
    game.createDocument(
      'User',
      {
        _id: keys.id(user.key),
        name: user.name,
        role: user.role,
        color: user.color,
        active: user.active,
        avatar: user.character ? `icons/avatars/${user.key}.webp` : null,
        character: keys.optional(user.character),
        flags: {},
      },
      { keepId: true },
    );
  }
  game.moduleUserId = keys.id('gm');
}

function ownership(
  keys: SeedKeys,
  owners: Record<string, number> | undefined,
  defaultLevel = 0,
): Record<string, number> {
  const levels: Record<string, number> = { default: defaultLevel, [keys.id('gm')]: 3 };
  for (const [user, level] of Object.entries(owners ?? {})) levels[keys.id(user)] = level;
  return levels;
}

function itemData(item: SeedItem, keys: SeedKeys): PlainObject {
  return { name: item.name, type: item.type, img: item.img, folder: keys.optional(item.folder), system: item.system };
}

function effectData(effect: SeedEffect): PlainObject {
  return {
    name: effect.name,
    img: effect.img,
    statuses: effect.statuses ?? [],
    changes: effect.changes ?? [],
    duration: {
      startTime: 0,
      seconds: null,
      combat: null,
      rounds: effect.rounds ?? null,
      turns: null,
      startRound: null,
      startTurn: null,
    },
  };
}

/** The source data a dnd5e actor keeps (derived values such as modifiers are computed when read). */
function dnd5eSystem(actor: SeedActor): PlainObject {
  const character = actor.type === 'character';
  const details = character
    ? { level: actor.level, xp: { value: 2700 }, alignment: 'Neutral Good', biography: { value: '' } }
    : {
        cr: actor.cr,
        type: { value: actor.folder === 'undead' ? 'undead' : 'humanoid' },
        alignment: '',
        biography: { value: '' },
      };
  const currency = { pp: 0, gp: 0, ep: 0, sp: 0, cp: 0, ...actor.currency };
  const skills = Object.fromEntries(
    Object.entries(SKILL_ABILITIES).map(([id, ability]) => [id, { value: actor.skills?.[id] ?? 0, ability }]),
  );
  return {
    attributes: {
      hp: { value: actor.hp, max: actor.hp, temp: 0 },
      ac: { value: actor.ac },
      movement: { walk: actor.speed ?? 30, units: 'ft' },
      death: { success: 0, failure: 0 },
      exhaustion: 0,
      inspiration: false,
    },
    details,
    abilities: abilitiesOf(actor),
    skills,
    currency,
    ...(actor.spellSlots
      ? {
          spells: Object.fromEntries(
            Object.entries(actor.spellSlots).map(([slot, { value, max }]) => [slot, { value, override: max }]),
          ),
        }
      : {}),
    ...(character
      ? {
          resources: {
            primary: { value: null, max: null, label: '' },
            secondary: { value: null, max: null, label: '' },
            tertiary: { value: null, max: null, label: '' },
          },
        }
      : {}),
  };
}

function actorData(actor: SeedActor, keys: SeedKeys): PlainObject {
  return {
    _id: keys.id(actor.key),
    name: actor.name,
    type: actor.type,
    img: actor.img,
    folder: keys.optional(actor.folder),
    ownership: ownership(keys, actor.owners, actor.defaultLevel),
    system: dnd5eSystem(actor),
    prototypeToken: {
      name: actor.name,
      actorLink: actor.type === 'character',
      disposition: actor.type === 'character' ? 1 : -1,
      texture: { src: actor.img },
    },
    items: (actor.items ?? []).map((item) => itemData(item, keys)),
    effects: (actor.effects ?? []).map(effectData),
  };
}

function abilitiesOf(actor: SeedActor): PlainObject {
  const scores = [...actor.name].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return Object.fromEntries(
    ['str', 'dex', 'con', 'int', 'wis', 'cha'].map((ability, i) => [
      ability,
      { value: 8 + ((scores >> i) % 11), proficient: actor.saves?.includes(ability) ? 1 : 0 },
    ]),
  );
}

function sceneData(game: Game, scene: SeedScene, keys: SeedKeys): PlainObject {
  const tokens = scene.tokens.map((token) => {
    const actor = game.actors.get(keys.id(token.actor))!;
    const prototype = actor.source.prototypeToken as PlainObject;
    return {
      _id: keys.id(token.key),
      name: token.name ?? actor.name,
      actorId: actor.id,
      actorLink: prototype.actorLink,
      x: token.x,
      y: token.y,
      disposition: token.disposition,
      hidden: token.hidden ?? false,
      texture: { src: actor.img },
    };
  });
  const lights = Array.from({ length: scene.lights ?? 0 }, (_, i) => ({
    x: 400 + i * 600,
    y: 400,
    config: { dim: 30, bright: 15, color: '#ff9b3b' },
  }));
  const walls = Array.from({ length: scene.walls ?? 0 }, (_, i) => ({
    c: [100 + i * 200, 100, 100 + i * 200, 900],
    move: 20,
    sight: 20,
  }));
  return {
    _id: keys.id(scene.key),
    name: scene.name,
    active: scene.active ?? false,
    folder: keys.optional(scene.folder),
    navigation: true,
    width: scene.width,
    height: scene.height,
    background: { src: scene.background },
    grid: { size: 100, type: 1, distance: 5, units: 'ft' },
    ownership: { default: 0 },
    tokens,
    lights,
    walls,
    regions: scene.regions ?? [],
  };
}

function seedPlaylists(game: Game, keys: SeedKeys): void {
  for (const playlist of PLAYLISTS) {
    game.createDocument('Playlist', {
      name: playlist.name,
      description: playlist.description,
      mode: playlist.mode,
      sorting: playlist.sorting,
      fade: playlist.fade,
      playing: false,
      channel: 'music',
      seed: game.random.nextUint32() % 1000,
      folder: keys.optional(playlist.folder),
      ownership: { default: 0 },
      sounds: playlist.sounds.map((sound, i) => ({
        name: sound.name,
        path: sound.path,
        volume: sound.volume,
        repeat: sound.repeat,
        playing: false,
        pausedTime: null,
        fade: null,
        channel: '',
        description: '',
        sort: (i + 1) * 100000,
        flags: {},
      })),
    });
  }
}

function seedSimple(
  game: Game,
  documentName: string,
  entries: SeedSimple[],
  keys: SeedKeys,
  common: PlainObject = {},
): void {
  for (const entry of entries) {
    game.createDocument(
      documentName,
      {
        ...(entry.id ? { _id: entry.id } : {}),
        name: entry.name,
        ...(entry.img ? { img: entry.img } : {}),
        folder: keys.optional(entry.folder),
        ownership: ownership(keys, undefined, entry.defaultLevel),
        ...common,
        ...entry.extra,
      },
      { keepId: entry.id !== undefined },
    );
  }
}

function seedPacks(game: Game): void {
  // A world's packs, and the packs of its game system (`dnd5e.monsters` only in a dnd5e world).
  for (const seed of PACKS.filter((candidate) =>
    ['world', game.system.id].includes(candidate.collection.split('.')[0]!),
  )) {
    const pack = {
      collection: seed.collection,
      title: seed.title,
      documentName: seed.documentName,
      documents: new DocumentCollection(),
    };
    game.packs.set(pack.collection, pack);
    for (const entry of seed.entries) {
      game.buildPackDocument(pack, {
        _id: entry.id ?? game.newId(),
        name: entry.name,
        type: entry.type,
        img: entry.img,
        ownership: { default: 2 },
        system: entry.system ?? {},
      });
    }
  }
}

function seedCombat(game: Game, scene: WorldDocument, keys: SeedKeys): void {
  const combat = game.createDocument('Combat', { scene: scene.id, active: true, round: 0, turn: null });
  for (const tokenKey of ['thorinToken', 'lyraToken', 'goblinToken1', 'archerToken']) {
    const token = scene.collection('Token').get(keys.id(tokenKey))!;
    game.createDocument(
      'Combatant',
      { tokenId: token.id, sceneId: scene.id, actorId: token.source.actorId, initiative: null },
      { parent: combat },
    );
  }
}

function seedChat(game: Game, keys: SeedKeys): void {
  createChatMessage(game, {
    authorId: keys.id('alice'),
    content: 'Thorin checks the gate for tracks.',
    speaker: { alias: 'Thorin Ironfoot', actor: keys.id('thorin') },
  });
  createChatMessage(game, {
    authorId: keys.id('bob'),
    flavor: 'Perception',
    speaker: { alias: 'Lyra Moonwhisper', actor: keys.id('lyra') },
    rolls: [evaluateRoll('1d20+3', game.diceRandom)],
  });
}
