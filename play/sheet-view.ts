// A character of a game system other than dnd5e: its name and hit points where the system keeps them where most do,
// and its sheet as an image (GET /sheet), as Foundry draws it for the player.
import { h, initials, meter } from './dom.ts';

export interface OtherSystemSheet {
  actor: Record<string, unknown>;
  /** A blob: URL of the sheet's image. */
  imageUrl?: string;
  /** Why there is no image. */
  problem?: string;
}

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** Hit points as most systems keep them: under system.attributes.hp, or system.hp. */
function hitPointsOf(actor: Fields): { value: number; max: number } | undefined {
  const system = fields(actor.system);
  const hp = fields(fields(system?.attributes)?.hp) ?? fields(system?.hp);
  const value = hp?.value;
  const max = hp?.max;
  return typeof value === 'number' && typeof max === 'number' ? { value, max } : undefined;
}

export function sheetView(sheet: OtherSystemSheet | undefined, refresh: () => void): HTMLElement {
  if (!sheet) return h('p', { class: 'loading' }, 'Loading your character…');
  const name = typeof sheet.actor.name === 'string' ? sheet.actor.name : '';
  const hp = hitPointsOf(sheet.actor);
  return h(
    'div',
    { class: 'stack', id: 'character' },
    h(
      'section',
      { class: 'card hero' },
      h(
        'div',
        { class: 'hero-head' },
        h('span', { class: 'portrait', 'aria-hidden': 'true' }, initials(name)),
        h('div', { class: 'hero-name' }, h('h1', { id: 'character-name' }, name)),
      ),
      hp
        ? h(
            'div',
            { class: 'hp' },
            h(
              'div',
              { class: 'hp-line' },
              h('span', { class: 'label' }, 'HP'),
              h('span', { class: 'hp-value', id: 'hp-value' }, String(hp.value)),
              h('span', { class: 'hp-max' }, `/ ${hp.max}`),
            ),
            meter(hp.value, hp.max),
          )
        : null,
    ),
    h(
      'section',
      { class: 'card sheet' },
      sheet.imageUrl
        ? h('img', { class: 'sheet-image', id: 'sheet-image', src: sheet.imageUrl, alt: `${name}'s sheet` })
        : h('p', { class: 'muted' }, `No image of the sheet: ${sheet.problem ?? 'the world could not draw it'}`),
      h('button', { type: 'button', class: 'button button-secondary', onclick: refresh }, 'Refresh'),
    ),
  );
}
