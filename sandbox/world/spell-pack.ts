// The sandbox's `dnd5e.spells` pack: each SRD 5.1 spell of srd-spells.ts as a dnd5e spell item, with the fields
// clients read (level, school, properties, activation, range, duration, a description) and a made-up id.
import type { SeedPackEntry } from './seed-content.ts';
import { SRD_SPELLS } from './srd-spells.ts';

const COMPONENTS: Record<string, string> = { V: 'vocal', S: 'somatic', M: 'material' };

/** An icon of Foundry's core set for each school. */
const SCHOOL_ICONS: Record<string, string> = {
  abj: 'icons/magic/defensive/shield-barrier-blue.webp',
  con: 'icons/magic/symbols/rune-sigil-black-pink.webp',
  div: 'icons/magic/perception/eye-ringed-glow-yellow.webp',
  enc: 'icons/magic/control/debuff-chains-purple.webp',
  evo: 'icons/magic/fire/projectile-fireball-orange.webp',
  ill: 'icons/magic/light/projectiles-trio-pink.webp',
  nec: 'icons/magic/unholy/strike-body-life-soul-purple.webp',
  trs: 'icons/magic/control/buff-flight-wings-blue.webp',
};

const TIME_UNITS: Record<string, string> = {
  round: 'round',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
};

/** "1 action", "1 bonus action", "1 reaction", "10 minutes", "24 hours" as dnd5e's `activation`. */
function activationOf(castingTime: string): Record<string, unknown> {
  const [count, ...words] = castingTime.split(' ');
  const kind = words.join(' ').replace(/s$/, '');
  const type = kind === 'bonus action' ? 'bonus' : (TIME_UNITS[kind] ?? kind);
  return { type, value: Number(count), condition: '' };
}

/** "Self", "Touch", "Sight", "Unlimited", "Special", "60 feet", "1 mile", "Self (15-foot cone)" as dnd5e's `range`. */
function rangeOf(range: string): Record<string, unknown> {
  const distance = /^(\d+) (feet|miles?)$/.exec(range);
  if (distance) return { value: Number(distance[1]), units: distance[2] === 'feet' ? 'ft' : 'mi', special: '' };
  const area = /^Self \((.+)\)$/.exec(range)?.[1];
  if (area) return { value: null, units: 'self', special: area };
  const units: Record<string, string> = { Self: 'self', Touch: 'touch', Unlimited: 'any', Special: 'spec' };
  return { value: null, units: units[range] ?? 'spec', special: units[range] ? '' : range };
}

/** "Instantaneous", "Until dispelled", "Special", "1 minute", "Concentration, up to 10 minutes" as dnd5e's `duration`. */
function durationOf(duration: string): Record<string, unknown> {
  if (duration === 'Instantaneous') return { value: '', units: 'inst' };
  if (duration.startsWith('Until dispelled')) return { value: '', units: 'perm' };
  if (duration === 'Special') return { value: '', units: 'spec' };
  const [count, unit] = duration.replace(/^(Concentration, )?[Uu]p to /, '').split(' ');
  return { value: count, units: TIME_UNITS[unit!.replace(/s$/, '')] ?? 'spec' };
}

/** A made-up 16-character document id, the same for a name every time. */
function idOf(name: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let hash = 0x811c9dc5;
  let id = 'srdSpell';
  for (let round = 0; id.length < 16; round++) {
    for (const char of `${round}${name}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    id += alphabet[hash % alphabet.length];
  }
  return id;
}

function spellOf(line: string): SeedPackEntry {
  const [name, level, school, components, ritual, castingTime, range, duration, summary] = line.split('|') as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const properties = components.split(',').map((component) => COMPONENTS[component]!);
  if (ritual === 'R') properties.push('ritual');
  if (duration.startsWith('Concentration')) properties.push('concentration');
  return {
    id: idOf(name),
    name,
    type: 'spell',
    img: SCHOOL_ICONS[school]!,
    system: {
      description: { value: `<p>${summary}</p>`, chat: '' },
      source: { book: 'SRD 5.1', page: '', custom: '', license: 'CC-BY-4.0' },
      level: Number(level),
      school,
      properties,
      activation: activationOf(castingTime),
      range: rangeOf(range),
      duration: durationOf(duration),
    },
  };
}

export const SRD_SPELL_ENTRIES: SeedPackEntry[] = SRD_SPELLS.trim().split('\n').map(spellOf);
