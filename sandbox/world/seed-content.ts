// What the Sandbox Keep contains. References between documents use the keys below; seed.ts turns them into ids.
// Names are chosen so every search tier shows up for "goblin": exact, prefix, substring and subsequence.
import { SRD_SPELL_ENTRIES } from './spell-pack.ts';

export interface SeedUser {
  key: string;
  name: string;
  role: number;
  active: boolean;
  color: string;
  character?: string;
}
export interface SeedFolder {
  key: string;
  name: string;
  type: string;
  parent?: string;
  color?: string;
}
export interface SeedItem {
  key?: string;
  name: string;
  type: string;
  folder?: string;
  img: string;
  system: Record<string, unknown>;
}
export interface SeedEffect {
  name: string;
  img: string;
  statuses?: string[];
  changes?: { key: string; mode: number; value: string; priority: number | null }[];
  rounds?: number;
}
export interface SeedActor {
  key: string;
  name: string;
  type: 'character' | 'npc';
  folder?: string;
  img: string;
  owners?: Record<string, number>;
  defaultLevel?: number;
  hp: number;
  ac: number;
  cr?: number;
  level?: number;
  items?: SeedItem[];
  effects?: SeedEffect[];
  /** dnd5e proficiencies: skill id → 1 (proficient) or 2 (expertise), and proficient saving throws. */
  skills?: Record<string, number>;
  saves?: string[];
  currency?: Record<string, number>;
  speed?: number;
  /** Spell slots left and the most of each level (`spell1`…`spell9`, `pact`), the maximum kept as dnd5e's override. */
  spellSlots?: Record<string, { value: number; max: number }>;
}
export interface SeedToken {
  key: string;
  actor: string;
  x: number;
  y: number;
  name?: string;
  disposition: number;
  hidden?: boolean;
}
export interface SeedScene {
  key: string;
  name: string;
  folder?: string;
  active?: boolean;
  width: number;
  height: number;
  background: string;
  tokens: SeedToken[];
  lights?: number;
  walls?: number;
  regions?: Record<string, unknown>[];
}
export interface SeedSound {
  name: string;
  path: string;
  volume: number;
  repeat: boolean;
}
export interface SeedPlaylist {
  name: string;
  folder?: string;
  mode: number;
  sorting: 'a' | 'm';
  description: string;
  fade: number | null;
  sounds: SeedSound[];
}
export interface SeedSimple {
  /** A fixed id, for a document the README and tools name by its UUID. */
  id?: string;
  name: string;
  folder?: string;
  img?: string;
  defaultLevel?: number;
  extra?: Record<string, unknown>;
}
/** A compendium entry; dnd5e's own packs keep fixed ids, as a system's packs do across worlds. */
export interface SeedPackEntry {
  id?: string;
  name: string;
  type?: string;
  img: string;
  system?: Record<string, unknown>;
}
export interface SeedPack {
  collection: string;
  title: string;
  documentName: string;
  entries: SeedPackEntry[];
}

export const USERS: SeedUser[] = [
  { key: 'gm', name: 'Gamemaster', role: 4, active: true, color: '#c0392b' },
  { key: 'assistant', name: 'Assistant GM', role: 3, active: false, color: '#8e44ad' },
  { key: 'alice', name: 'Alice', role: 1, active: true, color: '#2980b9', character: 'thorin' },
  { key: 'bob', name: 'Bob', role: 1, active: true, color: '#27ae60', character: 'lyra' },
  { key: 'carol', name: 'Carol', role: 1, active: false, color: '#f39c12', character: 'pip' },
  { key: 'dana', name: 'Dana', role: 2, active: false, color: '#16a085' },
];

export const FOLDERS: SeedFolder[] = [
  { key: 'heroes', name: 'Heroes', type: 'Actor', color: '#2980b9' },
  { key: 'monsters', name: 'Monsters', type: 'Actor' },
  { key: 'goblinoids', name: 'Goblinoids', type: 'Actor', parent: 'monsters' },
  { key: 'undead', name: 'Undead', type: 'Actor', parent: 'monsters' },
  { key: 'allies', name: 'Allies', type: 'Actor' },
  { key: 'weapons', name: 'Weapons', type: 'Item' },
  { key: 'spells', name: 'Spells', type: 'Item' },
  { key: 'cantrips', name: 'Cantrips', type: 'Item', parent: 'spells' },
  { key: 'treasure', name: 'Treasure', type: 'Item' },
  { key: 'emptyShelf', name: 'Empty Shelf', type: 'Item' },
  { key: 'dungeons', name: 'Dungeons', type: 'Scene' },
  { key: 'town', name: 'Town', type: 'Scene' },
  { key: 'wilderness', name: 'Wilderness', type: 'Scene' },
  { key: 'lore', name: 'Lore', type: 'JournalEntry' },
  { key: 'rumours', name: 'Rumours', type: 'JournalEntry', parent: 'lore' },
  { key: 'encounters', name: 'Random Encounters', type: 'RollTable' },
  { key: 'decks', name: 'Decks', type: 'Cards' },
  { key: 'gmTools', name: 'GM Tools', type: 'Macro' },
  { key: 'ambience', name: 'Ambience', type: 'Playlist' },
  { key: 'soundboard', name: 'Soundboard', type: 'Playlist' },
];

/** dnd5e's `DamageData` of a weapon: `number`d`denomination` + `bonus`, of the given type. */
function damage(number: number, denomination: number, type: string, bonus = ''): Record<string, unknown> {
  return { base: { number, denomination, bonus, types: [type] } };
}

export const ITEMS: SeedItem[] = [
  {
    name: 'Longsword',
    type: 'weapon',
    folder: 'weapons',
    img: 'icons/weapons/swords/sword-guard-brown.webp',
    system: {
      type: { value: 'martialM', baseItem: 'longsword' },
      damage: damage(1, 8, 'slashing'),
      properties: ['ver'],
      weight: { value: 3 },
      price: { value: 15 },
    },
  },
  {
    name: 'Shortbow',
    type: 'weapon',
    folder: 'weapons',
    img: 'icons/weapons/bows/shortbow-recurve.webp',
    system: {
      type: { value: 'simpleR', baseItem: 'shortbow' },
      damage: damage(1, 6, 'piercing'),
      properties: ['amm', 'two'],
      weight: { value: 2 },
      price: { value: 25 },
    },
  },
  {
    name: 'Goblin Scimitar',
    type: 'weapon',
    folder: 'weapons',
    img: 'icons/weapons/swords/scimitar-guard-wood.webp',
    system: {
      type: { value: 'martialM', baseItem: 'scimitar' },
      damage: damage(1, 6, 'slashing'),
      properties: ['fin', 'lgt'],
      weight: { value: 3 },
      price: { value: 25 },
    },
  },
  {
    name: 'Dagger',
    type: 'weapon',
    folder: 'weapons',
    img: 'icons/weapons/daggers/dagger-straight-blue.webp',
    system: {
      type: { value: 'simpleM', baseItem: 'dagger' },
      damage: damage(1, 4, 'piercing'),
      properties: ['fin', 'lgt', 'thr'],
      weight: { value: 1 },
      price: { value: 2 },
    },
  },
  {
    name: 'Fire Bolt',
    type: 'spell',
    folder: 'cantrips',
    img: 'icons/magic/fire/projectile-fireball-orange.webp',
    system: { level: 0, school: 'evo' },
  },
  {
    name: 'Magic Missile',
    type: 'spell',
    folder: 'spells',
    img: 'icons/magic/light/projectiles-trio-pink.webp',
    system: { level: 1, school: 'evo' },
  },
  {
    name: 'Shield',
    type: 'spell',
    folder: 'spells',
    img: 'icons/magic/defensive/shield-barrier-blue.webp',
    system: { level: 1, school: 'abj' },
  },
  {
    name: 'Cure Wounds',
    type: 'spell',
    folder: 'spells',
    img: 'icons/magic/life/heart-cross-green.webp',
    system: { level: 1, school: 'evo' },
  },
  {
    name: 'Globe of Blinding Light',
    type: 'loot',
    folder: 'treasure',
    img: 'icons/magic/light/orb-lightbulb-gray.webp',
    system: { price: { value: 500 }, weight: { value: 1 }, rarity: 'rare' },
  },
  {
    name: 'Silver Chalice',
    type: 'loot',
    folder: 'treasure',
    img: 'icons/containers/kitchenware/goblet-jeweled-gold.webp',
    system: { price: { value: 25 }, weight: { value: 1 } },
  },
  {
    name: 'Potion of Healing',
    type: 'consumable',
    img: 'icons/consumables/potions/potion-bottle-corked-red.webp',
    system: {
      type: { value: 'potion' },
      uses: { max: '1', spent: 0, autoDestroy: true },
      price: { value: 50 },
      weight: { value: 0.1 },
    },
  },
];

const scimitar: SeedItem = {
  name: 'Scimitar',
  type: 'weapon',
  img: 'icons/weapons/swords/scimitar-guard-wood.webp',
  system: { damage: damage(1, 6, 'slashing', '@mod') },
};
const poisoned: SeedEffect = {
  name: 'DND5E.ConPoisoned',
  img: 'systems/dnd5e/icons/svg/statuses/poisoned.svg',
  statuses: ['poisoned'],
};

export const ACTORS: SeedActor[] = [
  {
    key: 'thorin',
    name: 'Thorin Ironfoot',
    type: 'character',
    folder: 'heroes',
    img: 'icons/creatures/dwarf-warrior.webp',
    owners: { alice: 3 },
    hp: 34,
    ac: 18,
    level: 4,
    speed: 25,
    skills: { ath: 1, prc: 1, itm: 1 },
    saves: ['str', 'con'],
    currency: { gp: 15, sp: 8 },
    items: [
      {
        name: 'Battleaxe',
        type: 'weapon',
        img: 'icons/weapons/axes/axe-battle-black.webp',
        system: { damage: damage(1, 8, 'slashing', '@mod'), quantity: 1, equipped: true },
      },
      {
        name: 'Fighter',
        type: 'class',
        img: 'icons/skills/melee/weapons-crossed-swords-yellow.webp',
        system: { levels: 4, hd: { denomination: 'd10', spent: 1 } },
      },
      {
        name: 'Second Wind',
        type: 'feat',
        img: 'icons/magic/life/heart-cross-strong-green.webp',
        system: { uses: { max: 1, spent: 0, recovery: [{ period: 'sr' }] } },
      },
    ],
    effects: [
      {
        name: 'Bless',
        img: 'icons/magic/control/buff-flight-wings-blue.webp',
        rounds: 10,
        changes: [{ key: 'system.bonuses.abilities.save', mode: 2, value: '+1d4', priority: null }],
      },
    ],
  },
  {
    key: 'lyra',
    name: 'Lyra Moonwhisper',
    type: 'character',
    folder: 'heroes',
    img: 'icons/creatures/elf-wizard.webp',
    owners: { bob: 3, carol: 1 },
    hp: 22,
    ac: 12,
    level: 4,
    speed: 30,
    skills: { arc: 1, his: 1, inv: 1 },
    saves: ['int', 'wis'],
    currency: { pp: 1, gp: 42 },
    spellSlots: { spell1: { value: 3, max: 4 }, spell2: { value: 2, max: 3 } },
    items: [
      {
        name: 'Fire Bolt',
        type: 'spell',
        img: 'icons/magic/fire/projectile-fireball-orange.webp',
        system: { level: 0, preparation: { mode: 'always', prepared: true } },
      },
      {
        name: 'Hold Person',
        type: 'spell',
        img: 'icons/magic/control/debuff-chains-purple.webp',
        system: { level: 2, preparation: { mode: 'prepared', prepared: false } },
      },
      {
        name: 'Wizard',
        type: 'class',
        img: 'icons/magic/symbols/rune-sigil-black-pink.webp',
        system: { levels: 4, hd: { denomination: 'd6', spent: 0 } },
      },
      {
        name: 'Cloak of Protection',
        type: 'equipment',
        img: 'icons/equipment/back/cloak-collared-blue.webp',
        system: { quantity: 1, equipped: false, attunement: 'required', attuned: false },
      },
    ],
    effects: [
      {
        name: 'Mage Armor',
        img: 'icons/magic/defensive/armor-shield-barrier-steel.webp',
        changes: [{ key: 'system.attributes.ac.calc', mode: 5, value: 'mage', priority: null }],
      },
    ],
  },
  {
    key: 'pip',
    name: 'Pip Thistledown',
    type: 'character',
    folder: 'heroes',
    img: 'icons/creatures/halfling-rogue.webp',
    owners: { carol: 3 },
    hp: 27,
    ac: 15,
    level: 4,
    speed: 25,
    skills: { ste: 2, acr: 1, slt: 1, prc: 1 },
    saves: ['dex', 'int'],
    currency: { gp: 7, cp: 30 },
    items: [
      {
        name: 'Dagger',
        type: 'weapon',
        img: 'icons/weapons/daggers/dagger-straight-blue.webp',
        system: { damage: damage(1, 4, 'piercing', '@mod'), quantity: 2, equipped: true },
      },
      {
        name: 'Potion of Healing',
        type: 'consumable',
        img: 'icons/consumables/potions/potion-bottle-corked-red.webp',
        system: { type: { value: 'potion' }, quantity: 2, uses: { max: '1', spent: 0 } },
      },
      {
        name: 'Rogue',
        type: 'class',
        img: 'icons/sundries/gaming/dice-runed-brown.webp',
        system: { levels: 4, hd: { denomination: 'd8', spent: 0 } },
      },
    ],
  },
  {
    key: 'goblin',
    name: 'Goblin',
    type: 'npc',
    folder: 'goblinoids',
    img: 'icons/creatures/goblin.webp',
    hp: 7,
    ac: 15,
    cr: 0.25,
    items: [scimitar],
  },
  {
    key: 'goblinArcher',
    name: 'Goblin Archer',
    type: 'npc',
    folder: 'goblinoids',
    img: 'icons/creatures/goblin-archer.webp',
    hp: 7,
    ac: 13,
    cr: 0.25,
    effects: [poisoned],
  },
  {
    key: 'hobgoblin',
    name: 'Hobgoblin',
    type: 'npc',
    folder: 'goblinoids',
    img: 'icons/creatures/hobgoblin.webp',
    hp: 11,
    ac: 18,
    cr: 0.5,
    items: [{ ...scimitar, name: 'Longsword' }],
  },
  {
    key: 'goblinKing',
    name: 'Greater Goblin King',
    type: 'npc',
    folder: 'goblinoids',
    img: 'icons/creatures/goblin-king.webp',
    hp: 45,
    ac: 17,
    cr: 3,
  },
  {
    key: 'bugbear',
    name: 'Bugbear Brute',
    type: 'npc',
    folder: 'goblinoids',
    img: 'icons/creatures/bugbear.webp',
    hp: 27,
    ac: 16,
    cr: 1,
  },
  {
    key: 'skeleton',
    name: 'Skeleton Guard',
    type: 'npc',
    folder: 'undead',
    img: 'icons/creatures/skeleton.webp',
    hp: 13,
    ac: 13,
    cr: 0.25,
  },
  {
    key: 'zombie',
    name: 'Zombie',
    type: 'npc',
    folder: 'undead',
    img: 'icons/creatures/zombie.webp',
    hp: 22,
    ac: 8,
    cr: 0.25,
  },
  {
    key: 'innkeeper',
    name: 'Innkeeper Bram',
    type: 'npc',
    img: 'icons/creatures/innkeeper.webp',
    defaultLevel: 1,
    hp: 9,
    ac: 10,
    cr: 0,
  },
  {
    key: 'captain',
    name: 'Captain Goodwin',
    type: 'npc',
    img: 'icons/creatures/captain.webp',
    defaultLevel: 2,
    hp: 52,
    ac: 17,
    cr: 3,
  },
];

export const SCENES: SeedScene[] = [
  {
    key: 'courtyard',
    name: 'Keep Courtyard',
    active: true,
    width: 3000,
    height: 2000,
    background: 'maps/keep-courtyard.webp',
    lights: 2,
    walls: 3,
    regions: [
      {
        name: 'Gatehouse',
        color: '#c0392b',
        shapes: [{ type: 'rectangle', x: 1400, y: 200, width: 400, height: 300, rotation: 0, hole: false }],
        behaviors: [
          {
            name: 'Creaking Gate',
            type: 'displayScrollingText',
            system: { events: ['tokenEnter'], text: 'The gate creaks.', visibility: 0, once: false },
          },
        ],
      },
    ],
    tokens: [
      { key: 'thorinToken', actor: 'thorin', x: 1000, y: 800, disposition: 1 },
      { key: 'lyraToken', actor: 'lyra', x: 1100, y: 800, disposition: 1 },
      { key: 'pipToken', actor: 'pip', x: 1200, y: 900, disposition: 1 },
      { key: 'goblinToken1', actor: 'goblin', x: 1800, y: 600, disposition: -1 },
      { key: 'goblinToken2', actor: 'goblin', x: 1900, y: 700, disposition: -1 },
      { key: 'archerToken', actor: 'goblinArcher', x: 2100, y: 500, disposition: -1 },
      { key: 'hobgoblinToken', actor: 'hobgoblin', x: 2000, y: 800, disposition: -1, hidden: true },
    ],
  },
  {
    key: 'crypt',
    name: 'Crypt of Whispers',
    folder: 'dungeons',
    width: 2400,
    height: 2400,
    background: 'maps/crypt.webp',
    walls: 4,
    tokens: [
      { key: 'skeletonToken', actor: 'skeleton', x: 600, y: 600, disposition: -1 },
      { key: 'zombieToken', actor: 'zombie', x: 900, y: 700, disposition: -1 },
    ],
  },
  {
    key: 'tavern',
    name: 'Tavern Interior',
    folder: 'town',
    width: 1600,
    height: 1200,
    background: 'maps/tavern.webp',
    lights: 1,
    tokens: [{ key: 'innkeeperToken', actor: 'innkeeper', x: 400, y: 300, disposition: 0 }],
  },
];

export const PLAYLISTS: SeedPlaylist[] = [
  {
    name: 'Tavern Songs',
    folder: 'ambience',
    mode: 0,
    sorting: 'm',
    description: 'Warm chatter for the Prancing Goat.',
    fade: null,
    sounds: [
      { name: 'Tavern Chatter', path: 'sounds/tavern.ogg', volume: 0.5, repeat: true },
      { name: 'Bardic Ballad', path: 'sounds/ballad.ogg', volume: 0.8, repeat: false },
      { name: 'Clinking Mugs', path: 'sounds/mugs.ogg', volume: 0.4, repeat: false },
    ],
  },
  {
    name: 'Dungeon Ambience',
    folder: 'ambience',
    mode: 2,
    sorting: 'a',
    description: '',
    fade: 1000,
    sounds: [
      { name: 'Dripping Water', path: 'sounds/dripping.ogg', volume: 0.3, repeat: true },
      { name: 'Distant Wind', path: 'sounds/wind.ogg', volume: 0.25, repeat: true },
    ],
  },
  {
    name: 'Battle Music',
    mode: 1,
    sorting: 'a',
    description: 'Drums and steel.',
    fade: null,
    sounds: [
      { name: 'Goblin War Drums', path: 'sounds/war-drums.ogg', volume: 0.7, repeat: false },
      { name: 'Clash of Steel', path: 'sounds/steel.ogg', volume: 0.6, repeat: false },
      { name: 'Victory Fanfare', path: 'sounds/fanfare.ogg', volume: 0.9, repeat: false },
    ],
  },
];

export const JOURNAL: SeedSimple[] = [
  { name: 'The Goblin Threat', folder: 'lore', defaultLevel: 2 },
  { name: 'Keep History', folder: 'lore', defaultLevel: 2 },
  { name: 'Rumour of the Crypt', folder: 'rumours', defaultLevel: 1 },
  { name: 'Session Notes' },
];

export const TABLES: SeedSimple[] = [
  { name: 'Goblin Encounters', folder: 'encounters', img: 'icons/svg/d20-grey.svg', extra: { formula: '1d6' } },
  { name: 'Treasure Hoard', folder: 'encounters', img: 'icons/svg/d20-grey.svg', extra: { formula: '1d100' } },
  { name: 'Weather', img: 'icons/svg/d20-grey.svg', defaultLevel: 2, extra: { formula: '1d8' } },
];

export const CARDS: SeedSimple[] = [
  { name: 'Deck of Many Things', folder: 'decks', img: 'icons/svg/card-joker.svg', extra: { type: 'deck' } },
  { name: 'Fortune Hand', img: 'icons/svg/card-hand.svg', defaultLevel: 2, extra: { type: 'hand' } },
];

export const MACROS: SeedSimple[] = [
  {
    id: 'twFM6F46BPxZbvTd',
    name: 'Roll Initiative',
    folder: 'gmTools',
    img: 'icons/svg/dice-target.svg',
    extra: { type: 'script', command: 'game.combat?.rollAll();' },
  },
  {
    name: 'Goblin Ambush',
    folder: 'gmTools',
    img: 'icons/svg/combat.svg',
    extra: { type: 'script', command: 'ui.notifications.warn("Ambush!");' },
  },
  { name: 'Toggle Darkness', img: 'icons/svg/sun.svg', extra: { type: 'chat', command: '/gmr 1d20' } },
];

/** A dnd5e SRD monster's source: hit points, armour class, challenge rating, creature type and ability scores. */
function monster(hp: number, ac: number, cr: number, type: string, scores: number[]): Record<string, unknown> {
  const abilities = Object.fromEntries(
    ['str', 'dex', 'con', 'int', 'wis', 'cha'].map((id, i) => [id, { value: scores[i] }]),
  );
  return {
    abilities,
    attributes: { hp: { value: hp, max: hp }, ac: { flat: ac, calc: 'natural', value: ac } },
    details: { cr, type: { value: type } },
  };
}

/** The packs the dnd5e system ships: small copies of `dnd5e.monsters` and `dnd5e.items`, and the SRD's spells. */
const DND5E_PACKS: SeedPack[] = [
  {
    collection: 'dnd5e.monsters',
    title: 'Monsters (SRD)',
    documentName: 'Actor',
    entries: [
      {
        id: 'srdMonsterKobold',
        name: 'Kobold',
        type: 'npc',
        img: 'systems/dnd5e/tokens/humanoid/Kobold.webp',
        system: monster(5, 12, 0.125, 'humanoid', [7, 15, 9, 8, 7, 8]),
      },
      {
        id: 'srdMonsterOrc000',
        name: 'Orc',
        type: 'npc',
        img: 'systems/dnd5e/tokens/humanoid/Orc.webp',
        system: monster(15, 13, 0.5, 'humanoid', [16, 12, 16, 7, 11, 10]),
      },
      {
        id: 'srdMonsterWolf00',
        name: 'Wolf',
        type: 'npc',
        img: 'systems/dnd5e/tokens/beast/Wolf.webp',
        system: monster(11, 13, 0.25, 'beast', [12, 15, 12, 3, 12, 6]),
      },
      {
        id: 'srdMonsterOgre00',
        name: 'Ogre',
        type: 'npc',
        img: 'systems/dnd5e/tokens/giant/Ogre.webp',
        system: monster(59, 11, 2, 'giant', [19, 8, 16, 5, 7, 7]),
      },
      {
        id: 'srdMonsterDragon',
        name: 'Adult Red Dragon',
        type: 'npc',
        img: 'systems/dnd5e/tokens/dragon/AdultRedDragon.webp',
        system: monster(256, 19, 17, 'dragon', [27, 10, 25, 16, 13, 21]),
      },
    ],
  },
  {
    collection: 'dnd5e.items',
    title: 'Items (SRD)',
    documentName: 'Item',
    entries: [
      {
        id: 'srdItemLongbow00',
        name: 'Longbow',
        type: 'weapon',
        img: 'icons/weapons/bows/longbow-recurve.webp',
        system: {
          type: { value: 'martialR', baseItem: 'longbow' },
          damage: damage(1, 8, 'piercing'),
          range: { value: 150, long: 600 },
          properties: ['amm', 'hvy', 'two'],
          weight: { value: 2 },
          price: { value: 50 },
        },
      },
      {
        id: 'srdItemChainMail',
        name: 'Chain Mail',
        type: 'equipment',
        img: 'icons/equipment/chest/breastplate-metal-scaled-grey.webp',
        system: {
          type: { value: 'heavy', baseItem: 'chainmail' },
          armor: { value: 16, dex: 0 },
          strength: 13,
          properties: ['stealthDisadvantage'],
          weight: { value: 55 },
          price: { value: 75 },
        },
      },
      {
        id: 'srdItemBagHoldin',
        name: 'Bag of Holding',
        type: 'container',
        img: 'icons/containers/bags/pack-leather-embossed-brown.webp',
        system: {
          capacity: { weight: { value: 500 } },
          weight: { value: 15 },
          price: { value: 4000 },
          rarity: 'uncommon',
        },
      },
      {
        id: 'srdItemPotionClb',
        name: 'Potion of Climbing',
        type: 'consumable',
        img: 'icons/consumables/potions/potion-bottle-corked-labeled-green.webp',
        system: {
          type: { value: 'potion' },
          uses: { max: '1', spent: 0, autoDestroy: true },
          weight: { value: 0.1 },
          price: { value: 180 },
          rarity: 'common',
        },
      },
    ],
  },
  { collection: 'dnd5e.spells', title: 'Spells (SRD)', documentName: 'Item', entries: SRD_SPELL_ENTRIES },
];

export const PACKS: SeedPack[] = [
  {
    collection: 'world.bestiary',
    title: 'Sandbox Bestiary',
    documentName: 'Actor',
    entries: [
      { name: 'Goblin Boss', type: 'npc', img: 'icons/creatures/goblin-boss.webp' },
      { name: 'Goblin Shaman', type: 'npc', img: 'icons/creatures/goblin-shaman.webp' },
      { name: 'Owlbear', type: 'npc', img: 'icons/creatures/owlbear.webp' },
      { name: 'Young Red Dragon', type: 'npc', img: 'icons/creatures/dragon-red.webp' },
      { name: 'Skeleton', type: 'npc', img: 'icons/creatures/skeleton.webp' },
    ],
  },
  {
    collection: 'world.armory',
    title: 'Sandbox Armory',
    documentName: 'Item',
    entries: [
      { name: 'Greataxe', type: 'weapon', img: 'icons/weapons/axes/axe-double.webp' },
      { name: 'Goblin Bane Dagger', type: 'weapon', img: 'icons/weapons/daggers/dagger-jeweled.webp' },
      { name: 'Potion of Greater Healing', type: 'consumable', img: 'icons/consumables/potions/potion-flask-red.webp' },
      { name: 'Spell Scroll: Fireball', type: 'consumable', img: 'icons/sundries/scrolls/scroll-runed-red.webp' },
    ],
  },
  {
    collection: 'world.chronicles',
    title: 'Keep Chronicles',
    documentName: 'JournalEntry',
    entries: [
      { name: 'Founding of the Keep', img: 'icons/sundries/books/book-embossed-gold.webp' },
      { name: 'Goblin Wars', img: 'icons/sundries/books/book-red.webp' },
    ],
  },
  ...DND5E_PACKS,
];

export const MODULES = [
  { id: 'foundry-rest-api', title: 'Foundry REST API', version: '3.4.1', active: true },
  { id: 'lib-wrapper', title: 'libWrapper', version: '1.13.2.0', active: true },
  { id: 'dice-so-nice', title: 'Dice So Nice!', version: '5.2.4', active: false },
];
