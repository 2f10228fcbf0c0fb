// dnd5e's source data per actor and item type (its data models' initial values, the field names of dnd5e 4.x/5.x
// that the module and clients read), and what the system sets on tokens and prototype tokens. Only data.
import type { PlainObject } from './objects.ts';

export const ABILITY_IDS = ['str', 'dex', 'con', 'int', 'wis', 'cha'];

export const SKILL_ABILITIES: Record<string, string> = {
  acr: 'dex',
  ani: 'wis',
  arc: 'int',
  ath: 'str',
  dec: 'cha',
  his: 'int',
  ins: 'wis',
  itm: 'cha',
  inv: 'int',
  med: 'wis',
  nat: 'int',
  prc: 'wis',
  prf: 'cha',
  per: 'cha',
  rel: 'int',
  slt: 'dex',
  ste: 'dex',
  sur: 'wis',
};

const abilities = Object.fromEntries(
  ABILITY_IDS.map((id) => [id, { value: 10, proficient: 0, max: null, bonuses: { check: '', save: '' } }]),
);
const skills = Object.fromEntries(
  Object.entries(SKILL_ABILITIES).map(([id, ability]) => [
    id,
    { value: 0, ability, bonuses: { check: '', passive: '' } },
  ]),
);
const spells = Object.fromEntries(
  [...Array.from({ length: 9 }, (_, i) => `spell${i + 1}`), 'pact'].map((slot) => [slot, { value: 0, override: null }]),
);
const traitSet = { value: [], custom: '' };
const attackBonus = { attack: '', damage: '' };

const CREATURE: PlainObject = {
  abilities,
  attributes: {
    ac: { flat: null, calc: 'default', formula: '' },
    init: { ability: '', bonus: '' },
    movement: { burrow: null, climb: null, fly: null, swim: null, walk: 30, units: null, hover: false },
    senses: { darkvision: null, blindsight: null, tremorsense: null, truesight: null, units: null, special: '' },
    spellcasting: '',
    exhaustion: 0,
    death: { success: 0, failure: 0 },
    concentration: { ability: '', roll: { min: null, max: null, mode: 0 }, bonuses: { save: '' }, limit: 1 },
  },
  traits: { size: 'med', di: traitSet, dr: traitSet, dv: traitSet, ci: traitSet, languages: traitSet },
  currency: { pp: 0, gp: 0, ep: 0, sp: 0, cp: 0 },
  skills,
  spells,
  bonuses: {
    mwak: attackBonus,
    rwak: attackBonus,
    msak: attackBonus,
    rsak: attackBonus,
    abilities: { check: '', save: '', skill: '' },
    spell: { dc: '' },
  },
};

const resource = { value: null, max: null, sr: false, lr: false, label: '' };

const CHARACTER: PlainObject = {
  ...CREATURE,
  attributes: {
    ...(CREATURE.attributes as PlainObject),
    hp: { value: null, max: null, temp: null, tempmax: null, bonuses: { level: '', overall: '' } },
    inspiration: false,
  },
  details: {
    biography: { value: '', public: '' },
    alignment: '',
    race: null,
    background: null,
    originalClass: '',
    xp: { value: 0 },
    appearance: '',
    trait: '',
    ideal: '',
    bond: '',
    flaw: '',
    gender: '',
    eyes: '',
    height: '',
    faith: '',
    hair: '',
    skin: '',
    age: '',
    weight: '',
  },
  resources: { primary: resource, secondary: resource, tertiary: resource },
};

const NPC: PlainObject = {
  ...CREATURE,
  attributes: {
    ...(CREATURE.attributes as PlainObject),
    hp: { value: 10, max: 10, temp: null, tempmax: null, formula: '' },
    spellcasting: 'int',
  },
  details: {
    biography: { value: '', public: '' },
    alignment: '',
    cr: 1,
    type: { value: '', subtype: '', swarm: '', custom: '' },
    environment: '',
    spellLevel: 0,
  },
  resources: { legact: { value: 0, max: 0 }, legres: { value: 0, max: 0 }, lair: { value: false, initiative: null } },
};

const DESCRIBED = {
  description: { value: '', chat: '' },
  identifier: '',
  source: { book: '', page: '', custom: '', license: '' },
};
const USES = { max: '', spent: 0, recovery: [] };
const PHYSICAL = {
  ...DESCRIBED,
  quantity: 1,
  weight: { value: 0, units: 'lb' },
  price: { value: 0, denomination: 'gp' },
  rarity: '',
  identified: true,
  container: null,
};
const EQUIPPABLE = { equipped: false, attunement: '', attuned: false };
const DAMAGE_PART = {
  number: null,
  denomination: null,
  bonus: '',
  types: [],
  custom: { enabled: false, formula: '' },
  scaling: { mode: '', number: null, formula: '' },
};

const ITEMS: Record<string, PlainObject> = {
  weapon: {
    ...PHYSICAL,
    ...EQUIPPABLE,
    type: { value: '', baseItem: '' },
    damage: { base: DAMAGE_PART, versatile: DAMAGE_PART },
    range: { value: null, long: null, reach: null, units: 'ft' },
    properties: [],
    proficient: null,
    magicalBonus: null,
    mastery: '',
    uses: USES,
    activities: {},
  },
  equipment: {
    ...PHYSICAL,
    ...EQUIPPABLE,
    type: { value: '', baseItem: '' },
    armor: { value: null, magicalBonus: null, dex: null },
    strength: null,
    properties: [],
    proficient: null,
    uses: USES,
    activities: {},
  },
  consumable: {
    ...PHYSICAL,
    ...EQUIPPABLE,
    type: { value: '', subtype: '' },
    damage: { base: DAMAGE_PART, replace: false },
    properties: [],
    magicalBonus: null,
    uses: { ...USES, autoDestroy: false },
    activities: {},
  },
  tool: {
    ...PHYSICAL,
    ...EQUIPPABLE,
    type: { value: '', baseItem: '' },
    ability: '',
    bonus: '',
    proficient: null,
    properties: [],
    uses: USES,
    activities: {},
  },
  loot: { ...PHYSICAL, type: { value: '', subtype: '' }, properties: [] },
  container: {
    ...PHYSICAL,
    ...EQUIPPABLE,
    capacity: { count: null, volume: { value: null, units: 'cubicFoot' }, weight: { value: null, units: 'lb' } },
    currency: { pp: 0, gp: 0, ep: 0, sp: 0, cp: 0 },
    properties: [],
  },
  spell: {
    ...DESCRIBED,
    level: 1,
    school: '',
    properties: [],
    materials: { value: '', consumed: false, cost: 0, supply: 0 },
    preparation: { mode: 'prepared', prepared: false },
    activation: { type: 'action', value: null, condition: '' },
    duration: { value: '', units: 'inst' },
    range: { value: null, units: '', special: '' },
    target: {
      affects: { count: '', type: '', choice: false, special: '' },
      template: { count: '', contiguous: false, type: '', size: '', units: 'ft' },
    },
    sourceClass: '',
    ability: '',
    uses: USES,
    activities: {},
  },
  feat: {
    ...DESCRIBED,
    type: { value: '', subtype: '' },
    requirements: '',
    properties: [],
    uses: USES,
    activities: {},
    prerequisites: { level: null, repeatable: false },
    advancement: [],
  },
  class: {
    ...DESCRIBED,
    levels: 1,
    primaryAbility: { value: [], all: true },
    hd: { denomination: 'd6', spent: 0, additional: '' },
    spellcasting: { progression: 'none', ability: '' },
    advancement: [],
    startingEquipment: [],
    wealth: '',
  },
  subclass: { ...DESCRIBED, classIdentifier: '', spellcasting: { progression: 'none', ability: '' }, advancement: [] },
  background: { ...DESCRIBED, advancement: [], startingEquipment: [], wealth: '' },
  race: { ...DESCRIBED, type: { value: 'humanoid', subtype: '', swarm: '', custom: '' }, advancement: [] },
};

/** dnd5e's primary token attribute: the first bar of every token shows hit points. */
const HIT_POINT_BAR = { bar1: { attribute: 'attributes.hp' } };

/** Per document type: `'*'` for every subtype, then the subtype's own defaults. */
export const DND5E_DEFAULTS: Record<string, Record<string, PlainObject>> = {
  Actor: {
    '*': { prototypeToken: HIT_POINT_BAR },
    // Actor5e#_preCreate: player characters are linked, friendly and see.
    character: { system: CHARACTER, prototypeToken: { actorLink: true, disposition: 1, sight: { enabled: true } } },
    npc: { system: NPC },
  },
  Item: Object.fromEntries(Object.entries(ITEMS).map(([type, system]) => [type, { system }])),
  Token: { '*': HIT_POINT_BAR },
  Scene: { '*': { grid: { distance: 5, units: 'ft' } } },
};
