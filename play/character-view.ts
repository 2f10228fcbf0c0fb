// My character: everything a player looks at on their sheet during a game, one column a thumb can scroll.
import type { Character, Counter } from './dnd5e.ts';
import { h, icon, initials, meter, signed } from './dom.ts';

export function characterView(character: Character): HTMLElement {
  return h(
    'div',
    { class: 'stack', id: 'character' },
    heroCard(character),
    conditionsRow(character),
    abilitiesCard(character),
    skillsCard(character),
    countersCard('Spell slots', 'slots', character.slots),
    countersCard('Resources', 'resources', character.resources),
    inventoryCard(character),
  );
}

function heroCard(character: Character): HTMLElement {
  const { hp } = character;
  const temp = hp.temp > 0 ? h('span', { class: 'hp-temp', id: 'hp-temp' }, `+${hp.temp} temp`) : null;
  return h(
    'section',
    { class: 'card hero', 'aria-label': character.name },
    h(
      'div',
      { class: 'hero-head' },
      h('span', { class: 'portrait', 'aria-hidden': 'true' }, initials(character.name)),
      h(
        'div',
        { class: 'hero-name' },
        h('h1', { id: 'character-name' }, character.name),
        h('p', { class: 'muted' }, [character.classes, `Level ${character.level}`].filter(Boolean).join(' · ')),
      ),
    ),
    h(
      'div',
      { class: 'hp', 'aria-label': `Hit points ${hp.value} of ${hp.max}` },
      h(
        'div',
        { class: 'hp-line' },
        h('span', { class: 'label' }, 'HP'),
        h('span', { class: 'hp-value', id: 'hp-value' }, String(hp.value)),
        h('span', { class: 'hp-max' }, `/ ${hp.max}`),
        temp,
      ),
      meter(hp.value, hp.max),
    ),
    h(
      'div',
      { class: 'stat-row' },
      stat('AC', String(character.ac), 'ac', icon('shield')),
      stat('Speed', `${character.speed} ft`, 'speed'),
      stat('Proficiency', signed(character.proficiencyBonus), 'proficiency'),
    ),
    character.hp.value <= 0 && character.hp.max > 0 ? deathSaves(character) : null,
  );
}

function stat(label: string, value: string, id: string, mark?: SVGElement): HTMLElement {
  return h(
    'div',
    { class: 'stat', id: `stat-${id}` },
    h('span', { class: 'stat-value' }, mark ?? null, value),
    h('span', { class: 'label' }, label),
  );
}

function deathSaves(character: Character): HTMLElement {
  const { success, failure } = character.deathSaves;
  return h(
    'p',
    { class: 'death-saves' },
    `Death saves: ${success} ${success === 1 ? 'success' : 'successes'}, ${failure} ${failure === 1 ? 'failure' : 'failures'}`,
  );
}

function conditionsRow(character: Character): HTMLElement | null {
  const chips = [
    ...character.conditions.map((condition) => h('span', { class: 'chip chip-warning' }, condition)),
    character.concentration ? h('span', { class: 'chip' }, `Concentrating: ${character.concentration}`) : null,
    character.inspiration ? h('span', { class: 'chip chip-accent' }, 'Inspiration') : null,
    character.exhaustion > 0 ? h('span', { class: 'chip chip-warning' }, `Exhaustion ${character.exhaustion}`) : null,
  ].filter((chip) => chip !== null);
  if (chips.length === 0) return null;
  return h('div', { class: 'chips', id: 'conditions', 'aria-label': 'Conditions' }, ...chips);
}

function abilitiesCard(character: Character): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'abilities-title' },
    h('h2', { id: 'abilities-title' }, 'Abilities'),
    h(
      'div',
      { class: 'abilities', id: 'abilities' },
      ...character.abilities.map((ability) =>
        h(
          'div',
          { class: 'ability', 'data-ability': ability.id },
          h('span', { class: 'label' }, ability.id.toUpperCase()),
          h('span', { class: 'ability-mod' }, signed(ability.mod)),
          h('span', { class: 'ability-score' }, String(ability.score)),
          h(
            'span',
            { class: `ability-save${ability.proficient ? ' proficient' : ''}`, title: 'Saving throw' },
            `Save ${signed(ability.save)}`,
          ),
        ),
      ),
    ),
  );
}

const PROFICIENCY_MARKS: Record<number, string> = { 0.5: '◐', 1: '●', 2: '◆' };

function skillsCard(character: Character): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'skills-title' },
    h('h2', { id: 'skills-title' }, 'Skills'),
    h(
      'ul',
      { class: 'rows', id: 'skills' },
      ...character.skills.map((skill) =>
        h(
          'li',
          { class: 'row', 'data-skill': skill.id },
          h('span', { class: 'mark', 'aria-hidden': 'true' }, PROFICIENCY_MARKS[skill.proficiency] ?? '○'),
          h('span', { class: 'row-name' }, skill.name, h('span', { class: 'muted small' }, ` ${skill.ability}`)),
          h('span', { class: 'row-value' }, signed(skill.total)),
        ),
      ),
    ),
  );
}

function countersCard(title: string, id: string, counters: Counter[]): HTMLElement | null {
  if (counters.length === 0) return null;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    h(
      'ul',
      { class: 'rows', id },
      ...counters.map((counter) =>
        h(
          'li',
          { class: 'row' },
          h('span', { class: 'row-name' }, counter.name),
          counter.max !== undefined && counter.max <= 12 ? pips(counter.value, counter.max) : null,
          h(
            'span',
            { class: 'row-value' },
            counter.max === undefined ? `${counter.value} left` : `${counter.value}/${counter.max}`,
          ),
        ),
      ),
    ),
  );
}

function pips(value: number, max: number): HTMLElement {
  return h(
    'span',
    { class: 'pips', 'aria-hidden': 'true' },
    ...Array.from({ length: max }, (_, index) => h('span', { class: index < value ? 'pip pip-full' : 'pip' })),
  );
}

function inventoryCard(character: Character): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'inventory-title' },
    h('h2', { id: 'inventory-title' }, 'Inventory'),
    character.possessions.length === 0
      ? h('p', { class: 'muted' }, 'Nothing carried.')
      : h(
          'ul',
          { class: 'rows', id: 'inventory' },
          ...character.possessions.map((item) =>
            h(
              'li',
              { class: 'row' },
              h(
                'span',
                { class: 'row-name' },
                item.name,
                item.quantity !== 1 ? h('span', { class: 'muted' }, ` ×${item.quantity}`) : null,
              ),
              h(
                'span',
                { class: 'badges' },
                item.equipped ? h('span', { class: 'badge badge-accent' }, 'Equipped') : null,
                item.attuned ? h('span', { class: 'badge badge-success' }, 'Attuned') : null,
                item.needsAttunement && !item.attuned ? h('span', { class: 'badge' }, 'Needs attunement') : null,
              ),
            ),
          ),
        ),
    h(
      'div',
      { class: 'coins', id: 'currency', 'aria-label': 'Coins' },
      ...character.currency.map((coin) =>
        h('span', { class: `coin coin-${coin.name}` }, h('strong', {}, String(coin.value)), ` ${coin.name}`),
      ),
    ),
  );
}
