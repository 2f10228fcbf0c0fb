// A dnd5e character as the page shows it, read from two of the API's answers as the player: GET
// /dnd5e/get-actor-details (what the system computes: modifiers, saves, skills, conditions, items) and GET /get (the
// actor's own data: coins, spell slots, death saves).

type Fields = Record<string, unknown>;

export const ABILITIES: readonly [string, string][] = [
  ['str', 'Strength'],
  ['dex', 'Dexterity'],
  ['con', 'Constitution'],
  ['int', 'Intelligence'],
  ['wis', 'Wisdom'],
  ['cha', 'Charisma'],
];

export const SKILLS: readonly [string, string][] = [
  ['acr', 'Acrobatics'],
  ['ani', 'Animal Handling'],
  ['arc', 'Arcana'],
  ['ath', 'Athletics'],
  ['dec', 'Deception'],
  ['his', 'History'],
  ['ins', 'Insight'],
  ['itm', 'Intimidation'],
  ['inv', 'Investigation'],
  ['med', 'Medicine'],
  ['nat', 'Nature'],
  ['prc', 'Perception'],
  ['prf', 'Performance'],
  ['per', 'Persuasion'],
  ['rel', 'Religion'],
  ['slt', 'Sleight of Hand'],
  ['ste', 'Stealth'],
  ['sur', 'Survival'],
];

/** The parts of get-actor-details the page asks for. */
export const DETAILS = 'stats,abilities,skills,conditions,items,spells,features,resources';

export interface Ability {
  id: string;
  name: string;
  score: number;
  mod: number;
  save: number;
  proficient: boolean;
}

export interface Skill {
  id: string;
  name: string;
  ability: string;
  total: number;
  /** 0, ½ (jack of all trades), 1 (proficient) or 2 (expertise). */
  proficiency: number;
  passive: number;
}

export interface Weapon {
  uuid: string;
  name: string;
  toHit: number;
  /** The damage formula, e.g. `1d8 + 3`; empty when the weapon deals none. */
  damage: string;
  equipped: boolean;
}

export interface Spell {
  uuid: string;
  name: string;
  level: number;
  prepared: boolean;
}

export interface Counter {
  name: string;
  value: number;
  max?: number;
}

export interface Possession {
  name: string;
  quantity: number;
  equipped: boolean;
  attuned: boolean;
  needsAttunement: boolean;
}

export interface Character {
  uuid: string;
  name: string;
  /** Class and levels, e.g. `Fighter 4`. */
  classes: string;
  level: number;
  proficiencyBonus: number;
  ac: number;
  speed: number;
  hp: { value: number; max: number; temp: number };
  inspiration: boolean;
  exhaustion: number;
  deathSaves: { success: number; failure: number };
  abilities: Ability[];
  skills: Skill[];
  conditions: string[];
  concentration?: string;
  slots: Counter[];
  resources: Counter[];
  possessions: Possession[];
  currency: Counter[];
  weapons: Weapon[];
  spells: Spell[];
}

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function list(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(fields) : [];
}

function number(value: unknown, otherwise = 0): number {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : otherwise;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The character from get-actor-details' `data` and the actor GET /get answers with. */
export function characterOf(details: Fields, actor: Fields): Character {
  const stats = fields(details.stats);
  const system = fields(actor.system);
  const abilities = abilitiesOf(fields(details.abilities));
  const features = list(details.features);
  const items = list(details.items);
  const hp = fields(stats.hp);
  const death = fields(fields(system.attributes).death);
  const uuid = text(stats.uuid) || text(details.uuid);
  const concentration = fields(details.concentration);
  return {
    uuid,
    name: text(stats.name) || text(actor.name),
    classes: features
      .filter((feature) => feature.type === 'class')
      .map((feature) => `${text(feature.name)} ${number(fields(feature.system).levels)}`)
      .join(' / '),
    level: number(stats.level),
    proficiencyBonus: number(stats.profBonus),
    ac: number(stats.ac, 10),
    speed: number(stats.speed),
    hp: { value: number(hp.value), max: number(hp.max), temp: number(hp.temp) },
    inspiration: stats.inspiration === true,
    exhaustion: number(stats.exhaustion),
    deathSaves: { success: number(death.success), failure: number(death.failure) },
    abilities,
    skills: skillsOf(fields(details.skills)),
    conditions: list(details.conditions).map(conditionName),
    ...(concentration.active === true ? { concentration: text(concentration.name) || 'Concentrating' } : {}),
    slots: slotsOf(fields(system.spells)),
    resources: [...featureUses(features), ...systemResources(fields(details.resources))],
    possessions: items.map(possessionOf),
    currency: currencyOf(fields(system.currency)),
    weapons: items
      .filter((item) => item.type === 'weapon')
      .map((item) => weaponOf(item, uuid, abilities, number(stats.profBonus)))
      .sort((a, b) => Number(b.equipped) - Number(a.equipped)),
    spells: list(details.spells)
      .map((spell) => spellOf(spell, uuid))
      .sort((a, b) => a.level - b.level || a.name.localeCompare(b.name)),
  };
}

function abilitiesOf(abilities: Fields): Ability[] {
  return ABILITIES.map(([id, name]) => {
    const ability = fields(abilities[id]);
    return {
      id,
      name,
      score: number(ability.value, 10),
      mod: number(ability.mod),
      save: number(ability.save),
      proficient: number(ability.proficient) > 0,
    };
  });
}

function skillsOf(skills: Fields): Skill[] {
  return SKILLS.map(([id, name]) => {
    const skill = fields(skills[id]);
    return {
      id,
      name,
      ability: text(skill.ability),
      total: number(skill.total),
      proficiency: number(skill.value),
      passive: number(skill.passive, 10),
    };
  });
}

/** A status's name; one the world sends as a translation key (`DND5E.ConPoisoned`) reads as its id. */
function conditionName(condition: Fields): string {
  const name = text(condition.name);
  if (name !== '' && !/^[\w-]+(\.[\w-]+)+$/.test(name)) return name;
  const id = text(condition.id);
  return id.charAt(0).toUpperCase() + id.slice(1);
}

const SLOT_NAMES: [string, string][] = [
  ...Array.from({ length: 9 }, (_, index): [string, string] => [`spell${index + 1}`, `Level ${index + 1}`]),
  ['pact', 'Pact'],
];

/** Spell slots left of each level, against its most when the world says it (dnd5e's derived max, or the override). */
function slotsOf(spells: Fields): Counter[] {
  return SLOT_NAMES.flatMap(([id, name]) => {
    const slot = fields(spells[id]);
    const value = number(slot.value);
    const max = number(slot.max, number(slot.override));
    if (max > 0) return [{ name, value, max }];
    return value > 0 ? [{ name, value }] : [];
  });
}

function featureUses(features: Fields[]): Counter[] {
  return features.flatMap((feature) => {
    const uses = fields(fields(feature.system).uses);
    const max = number(uses.max);
    return max > 0 ? [{ name: text(feature.name), value: Math.max(0, max - number(uses.spent)), max }] : [];
  });
}

function systemResources(resources: Fields): Counter[] {
  return Object.values(resources).flatMap((value) => {
    const resource = fields(value);
    const max = number(resource.max);
    return max > 0 ? [{ name: text(resource.label) || 'Resource', value: number(resource.value), max }] : [];
  });
}

function possessionOf(item: Fields): Possession {
  const system = fields(item.system);
  const attunement = system.attunement;
  return {
    name: text(item.name),
    quantity: number(system.quantity, 1),
    equipped: system.equipped === true,
    attuned: system.attuned === true,
    needsAttunement: attunement === 'required' || attunement === 1,
  };
}

function currencyOf(currency: Fields): Counter[] {
  return ['pp', 'gp', 'ep', 'sp', 'cp'].map((denomination) => ({
    name: denomination,
    value: number(currency[denomination]),
  }));
}

/** An item's UUID on its actor, as dnd5e's routes take it. */
function itemUuid(item: Fields, actorUuid: string): string {
  return `${actorUuid}.Item.${text(item._id) || text(item.id)}`;
}

/**
 * To hit: the weapon's ability (Dexterity for a ranged weapon, the better of Strength and Dexterity for a finesse one,
 * Strength otherwise), the proficiency bonus unless the sheet says the character is not proficient, and any magic.
 */
function weaponOf(item: Fields, actorUuid: string, abilities: Ability[], proficiencyBonus: number): Weapon {
  const system = fields(item.system);
  const mod = (id: string) => abilities.find((ability) => ability.id === id)?.mod ?? 0;
  const properties = Array.isArray(system.properties) ? system.properties : [];
  const ranged = /R$/.test(text(fields(system.type).value));
  const abilityMod = properties.includes('fin') ? Math.max(mod('str'), mod('dex')) : mod(ranged ? 'dex' : 'str');
  const magic = number(system.magicalBonus);
  const proficient = system.proficient === 0 ? 0 : proficiencyBonus;
  return {
    uuid: itemUuid(item, actorUuid),
    name: text(item.name),
    toHit: abilityMod + proficient + magic,
    damage: damageOf(fields(fields(system.damage).base), abilityMod, magic),
    equipped: system.equipped === true,
  };
}

/** The weapon's dice, plus the ability modifier where its bonus says `@mod`, plus any magic. */
function damageOf(base: Fields, abilityMod: number, magic: number): string {
  const count = number(base.number);
  const faces = number(base.denomination);
  if (count <= 0 || faces <= 0) return '';
  const total = (text(base.bonus).includes('@mod') ? abilityMod : 0) + magic;
  return total === 0 ? `${count}d${faces}` : `${count}d${faces} ${total < 0 ? '-' : '+'} ${Math.abs(total)}`;
}

function spellOf(spell: Fields, actorUuid: string): Spell {
  const system = fields(spell.system);
  const preparation = fields(system.preparation);
  const level = number(system.level);
  return {
    uuid: itemUuid(spell, actorUuid),
    name: text(spell.name),
    level,
    prepared: level === 0 || preparation.mode === 'always' || preparation.prepared === true || system.prepared === 1,
  };
}
