// The `game` that execute-js scripts and script macros see: the parts of Foundry's `game` scripts commonly read, with
// documents as frozen copies and settings read through `game.settings.get`: nothing here changes the world.
import type { DocumentCollection, WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import type { PlainObject } from '../world/objects.ts';
import { isGM } from '../world/permissions.ts';
import { packIndex } from './structure.ts';

const MODULE_ID = 'foundry-rest-api';

/** What `game.i18n.localize` knows; any other key comes back unchanged, as Foundry answers a key it cannot translate. */
const TRANSLATIONS: Record<string, string> = {
  'DND5E.ConBlinded': 'Blinded',
  'DND5E.ConCharmed': 'Charmed',
  'DND5E.ConDeafened': 'Deafened',
  'DND5E.ConExhaustion': 'Exhaustion',
  'DND5E.ConFrightened': 'Frightened',
  'DND5E.ConGrappled': 'Grappled',
  'DND5E.ConIncapacitated': 'Incapacitated',
  'DND5E.ConInvisible': 'Invisible',
  'DND5E.ConParalyzed': 'Paralyzed',
  'DND5E.ConPetrified': 'Petrified',
  'DND5E.ConPoisoned': 'Poisoned',
  'DND5E.ConProne': 'Prone',
  'DND5E.ConRestrained': 'Restrained',
  'DND5E.ConStunned': 'Stunned',
  'DND5E.ConUnconscious': 'Unconscious',
  'EFFECT.StatusDead': 'Dead',
  'COMBAT.UnknownCombatant': 'Unknown Combatant',
  'USER.RoleGamemaster': 'Game Master',
  'USER.RolePlayer': 'Player',
  'USER.RoleTrusted': 'Trusted Player',
  'USER.RoleAssistant': 'Assistant GM',
};

type DocumentView = Readonly<PlainObject>;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** A document as scripts read it: a frozen copy of its data with `id`, `uuid` and `documentName`. */
export function documentView(document: WorldDocument): DocumentView;
export function documentView(document: WorldDocument | null | undefined): DocumentView | undefined;
export function documentView(document: WorldDocument | null | undefined): DocumentView | undefined {
  return document ? deepFreeze(document.view()) : undefined;
}

function scriptCollection(collection: DocumentCollection) {
  const views = () => collection.contents.map((document) => documentView(document));
  return {
    get size() {
      return collection.size;
    },
    get contents() {
      return views();
    },
    get: (id: string) => documentView(collection.get(id)),
    getName: (name: string) => documentView(collection.getName(name)),
    find: (predicate: (document: DocumentView) => boolean) => views().find(predicate),
    filter: (predicate: (document: DocumentView) => boolean) => views().filter(predicate),
    some: (predicate: (document: DocumentView) => boolean) => views().some(predicate),
    map: <T>(mapper: (document: DocumentView) => T) => views().map(mapper),
    [Symbol.iterator]: () => views()[Symbol.iterator](),
  };
}

/** The world settings a script can read: the module's own (the connection token lives in the browser, not here). */
function worldSettings(game: Game): Record<string, unknown> {
  const module = Object.entries({ ...game.settings, ...game.relaySettings }).map(([key, value]) => [
    `${MODULE_ID}.${key}`,
    value,
  ]);
  return Object.fromEntries([...module, ['core.time', game.worldTime]]);
}

function settingsOf(game: Game) {
  return {
    get(namespace: string, key: string): unknown {
      const settings = worldSettings(game);
      const name = `${namespace}.${key}`;
      if (!Object.hasOwn(settings, name)) throw new Error(`"${name}" is not a registered game setting`);
      return settings[name];
    },
    set(): never {
      throw new Error('Scripts cannot change world settings in the sandbox world');
    },
  };
}

function userView(game: Game, user: WorldDocument): PlainObject {
  const character = documentView(game.actors.get(user.source.character as string)) ?? null;
  return Object.freeze({ ...documentView(user), isGM: isGM(user), character });
}

/** `game.scenes`, with the active scene and the one the GM's canvas shows read when the script asks. */
function scenesOf(game: Game) {
  return Object.defineProperties(scriptCollection(game.scenes), {
    active: { get: () => documentView(game.activeScene()) },
    viewed: { get: () => documentView(game.viewedScene()) },
  });
}

function modulesOf(game: Game) {
  return {
    get: (id: string) => {
      const module = game.modules.find((candidate) => candidate.id === id);
      return module && Object.freeze({ ...module });
    },
    get size() {
      return game.modules.length;
    },
  };
}

const I18N = {
  lang: 'en',
  localize: (key: string) => TRANSLATIONS[key] ?? key,
  format: (key: string, data: Record<string, unknown> = {}) =>
    (TRANSLATIONS[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(data[name] ?? '')),
  has: (key: string) => Object.hasOwn(TRANSLATIONS, key),
};

function packsOf(game: Game) {
  const view = (collection: string) => {
    const pack = game.packs.get(collection);
    if (!pack) return undefined;
    const { title, documentName } = pack;
    const metadata = { id: collection, label: title, type: documentName };
    return { collection, title, documentName, metadata, getIndex: async () => packIndex(pack) };
  };
  return {
    get: view,
    get contents() {
      return [...game.packs.keys()].map(view);
    },
    get size() {
      return game.packs.size;
    },
  };
}

/** What a script sees as `game`. */
export function scriptGame(game: Game) {
  const collections = Object.fromEntries(
    Object.entries(game.collections).map(([name, collection]) => [name, scriptCollection(collection)]),
  );
  const gm = game.users.get(game.moduleUserId);
  return {
    ...collections,
    world: { ...game.world },
    system: { ...game.system },
    version: game.version,
    release: { generation: game.foundryMajorVersion },
    user: gm ? userView(game, gm) : null,
    userId: game.moduleUserId,
    scenes: scenesOf(game),
    get combat() {
      return documentView(game.activeCombat()) ?? null;
    },
    get paused() {
      return game.paused;
    },
    time: {
      get worldTime() {
        return game.worldTime;
      },
    },
    settings: settingsOf(game),
    modules: modulesOf(game),
    packs: packsOf(game),
    i18n: I18N,
  };
}
