// Roll: the character's checks, saves, skills, attacks and spells, and any formula, each one tap; how it is posted
// (the roll mode) and advantage sit on top, where a thumb finds them.
import { ROLL_MODES, type RollMode } from '../contracts/play.ts';
import type { Character } from './dnd5e.ts';
import { h, signed } from './dom.ts';
import { ROLL_MODE_NAMES, type Advantage, type CheckKind } from './rolls.ts';

export type RollRequest =
  | { kind: CheckKind; id: string; label: string }
  | { kind: 'formula'; formula: string; label: string }
  | { kind: 'cast'; uuid: string; label: string };

export interface RollChoices {
  mode: RollMode;
  advantage: Advantage;
}

const DICE = [4, 6, 8, 10, 12, 20, 100];
const ADVANTAGES: [Advantage, string][] = [
  ['normal', 'Normal'],
  ['advantage', 'Advantage'],
  ['disadvantage', 'Disadvantage'],
];

export function rollView(
  character: Character | undefined,
  choices: RollChoices,
  onChoice: (change: Partial<RollChoices>) => void,
  onRoll: (request: RollRequest) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'stack', id: 'roll' },
    h(
      'section',
      { class: 'card controls', 'aria-label': 'How to roll' },
      segmented(
        'roll-mode',
        'Roll mode',
        ROLL_MODES.map((mode) => [mode, ROLL_MODE_NAMES[mode]]),
        choices.mode,
        (mode) => onChoice({ mode }),
      ),
      character
        ? segmented('advantage', 'Advantage', ADVANTAGES, choices.advantage, (advantage) => onChoice({ advantage }))
        : null,
    ),
    character
      ? checksCard(
          'Skills',
          'skill',
          character.skills.map((skill) => [skill.id, skill.name, skill.total]),
          onRoll,
        )
      : null,
    character
      ? checksCard(
          'Saving throws',
          'save',
          character.abilities.map((ability) => [ability.id, ability.name, ability.save]),
          onRoll,
        )
      : null,
    character
      ? checksCard(
          'Ability checks',
          'check',
          character.abilities.map((ability) => [ability.id, ability.name, ability.mod]),
          onRoll,
        )
      : null,
    character ? attacksCard(character, onRoll) : null,
    character ? spellsCard(character, onRoll) : null,
    freeRollCard(onRoll),
  );
}

/** A choice of one among a few, marked where it is chosen: the rest of the tab stays as it is. */
function segmented<T extends string>(
  id: string,
  label: string,
  options: [T, string][],
  chosen: T,
  choose: (value: T) => void,
): HTMLElement {
  const group = h('div', { class: 'segmented', id, role: 'radiogroup', 'aria-label': label });
  for (const [value, name] of options) {
    const button = h(
      'button',
      { type: 'button', role: 'radio', 'aria-checked': String(value === chosen), 'data-value': value },
      name,
    );
    button.addEventListener('click', () => {
      for (const other of group.children) other.setAttribute('aria-checked', String(other === button));
      choose(value);
    });
    group.append(button);
  }
  return group;
}

function checksCard(
  title: string,
  kind: CheckKind,
  checks: [string, string, number][],
  onRoll: (request: RollRequest) => void,
): HTMLElement {
  const what = kind === 'skill' ? 'check' : kind === 'save' ? 'saving throw' : 'check';
  return h(
    'section',
    { class: 'card', 'aria-label': title },
    h('h2', {}, title),
    h(
      'div',
      { class: `roll-grid roll-grid-${kind}`, id: `roll-${kind}` },
      ...checks.map(([id, name, bonus]) =>
        h(
          'button',
          {
            type: 'button',
            class: 'roll-button',
            'data-roll': `${kind}:${id}`,
            onclick: () => onRoll({ kind, id, label: `${name} ${what}` }),
          },
          h('span', { class: 'roll-name' }, name),
          h('span', { class: 'roll-bonus' }, signed(bonus)),
        ),
      ),
    ),
  );
}

function attacksCard(character: Character, onRoll: (request: RollRequest) => void): HTMLElement | null {
  if (character.weapons.length === 0) return null;
  return h(
    'section',
    { class: 'card', 'aria-label': 'Attacks' },
    h('h2', {}, 'Attacks'),
    h(
      'ul',
      { class: 'rows', id: 'attacks' },
      ...character.weapons.map((weapon) =>
        h(
          'li',
          { class: 'row row-actions' },
          h('span', { class: 'row-name' }, weapon.name),
          h(
            'button',
            {
              type: 'button',
              class: 'pill-button',
              onclick: () =>
                onRoll({ kind: 'formula', formula: `1d20 + ${weapon.toHit}`, label: `${weapon.name}: attack` }),
            },
            `Hit ${signed(weapon.toHit)}`,
          ),
          weapon.damage
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'pill-button',
                  onclick: () => onRoll({ kind: 'formula', formula: weapon.damage, label: `${weapon.name}: damage` }),
                },
                weapon.damage,
              )
            : null,
        ),
      ),
    ),
  );
}

function spellsCard(character: Character, onRoll: (request: RollRequest) => void): HTMLElement | null {
  const spells = character.spells.filter((spell) => spell.prepared);
  if (spells.length === 0) return null;
  return h(
    'section',
    { class: 'card', 'aria-label': 'Spells' },
    h('h2', {}, 'Spells'),
    h('p', { class: 'muted small' }, 'The world posts a spell’s card as the system does.'),
    h(
      'ul',
      { class: 'rows', id: 'spells' },
      ...spells.map((spell) =>
        h(
          'li',
          { class: 'row row-actions' },
          h(
            'span',
            { class: 'row-name' },
            spell.name,
            h('span', { class: 'muted small' }, spell.level === 0 ? ' cantrip' : ` level ${spell.level}`),
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'pill-button',
              onclick: () => onRoll({ kind: 'cast', uuid: spell.uuid, label: spell.name }),
            },
            'Cast',
          ),
        ),
      ),
    ),
  );
}

function freeRollCard(onRoll: (request: RollRequest) => void): HTMLElement {
  const input = h('input', {
    class: 'input',
    id: 'formula',
    name: 'formula',
    inputmode: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    placeholder: '1d20 + 5',
    'aria-label': 'Dice formula',
    maxlength: 200,
  });
  const form = h(
    'form',
    { class: 'formula-row' },
    input,
    h('button', { type: 'submit', class: 'button', id: 'roll-formula' }, 'Roll'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const formula = input.value.trim();
    if (formula) onRoll({ kind: 'formula', formula, label: formula });
  });
  return h(
    'section',
    { class: 'card', 'aria-label': 'Free roll' },
    h('h2', {}, 'Free roll'),
    h(
      'div',
      { class: 'dice-row' },
      ...DICE.map((faces) =>
        h(
          'button',
          {
            type: 'button',
            class: 'die-button',
            'data-die': faces,
            onclick: () => onRoll({ kind: 'formula', formula: `1d${faces}`, label: `d${faces}` }),
          },
          `d${faces}`,
        ),
      ),
    ),
    form,
  );
}
