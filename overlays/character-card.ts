// The character card: portrait, name, HP, AC and a few fields of one actor, redrawn on each change; or, when the link
// asks for it, the actor's sheet image, fetched again on each change and swapped in once loaded (no blank frame).
import type { CharacterCardView } from '../contracts/overlays.ts';
import { element, meter, safeImageUrl, text } from './dom.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0].toUpperCase())
    .join('');
}

function portrait(view: CharacterCardView, previous: HTMLImageElement | null): HTMLElement {
  const url = safeImageUrl(view.portrait);
  if (!url) return text('div', 'portrait portrait-initials', initials(view.name));
  if (previous && previous.src === url) return previous.parentElement as HTMLElement;
  const image = element('img', '');
  image.alt = '';
  image.src = url;
  return element('div', 'portrait', image);
}

function hitPoints(hp: NonNullable<CharacterCardView['hp']>): HTMLElement {
  const temp = hp.temp ? ` (+${hp.temp})` : '';
  return element(
    'div',
    'hp-line',
    text('span', 'stat-label', 'HP'),
    meter(hp.value, hp.max, 'meter hp'),
    text('span', 'hp-value', `${hp.value} / ${hp.max}${temp}`),
  );
}

function card(view: CharacterCardView, previous: HTMLImageElement | null): HTMLElement {
  const head = element('div', 'character-head', text('span', 'name', view.name));
  if (view.ac !== undefined) {
    head.append(element('span', 'armour', text('span', 'stat-label', 'AC'), text('span', 'armour-value', view.ac)));
  }
  const body = element('div', 'character-body', head);
  if (view.fields.length > 0) {
    const fields = view.fields.map((field) =>
      element('span', 'field', text('span', 'field-label', field.label), text('span', 'field-value', field.value)),
    );
    body.append(element('div', 'fields', ...fields));
  }
  if (view.hp) body.append(hitPoints(view.hp));
  return element('section', 'card character', element('span', 'accent-bar'), portrait(view, previous), body);
}

function sheetImage(root: HTMLElement, sheetUrl: string): OverlayView<CharacterCardView> {
  let loading: HTMLImageElement | undefined;
  return {
    show() {
      const next = element('img', 'sheet');
      next.alt = '';
      loading = next;
      next.onload = () => {
        if (loading === next) root.replaceChildren(next);
      };
      const url = new URL(sheetUrl, location.href);
      url.searchParams.set('shown', String(Date.now()));
      next.src = url.href;
    },
    add() {},
    clear() {
      loading = undefined;
      root.replaceChildren();
    },
  };
}

export function createCharacterCard({ root }: OverlaySetup, sheetUrl?: string): OverlayView<CharacterCardView> {
  if (sheetUrl) return sheetImage(root, sheetUrl);
  return {
    show(view) {
      const entering = root.childElementCount === 0;
      const next = card(view, root.querySelector('.portrait img'));
      if (entering) next.classList.add('entering');
      root.replaceChildren(next);
    },
    add() {},
    clear() {
      root.replaceChildren();
    },
  };
}
