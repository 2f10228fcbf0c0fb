// The player page's pieces of page (bonuses, meters), built with the shared element builder.
import { h } from '../web/dom.ts';

export { append, h, replaceChildren } from '../web/dom.ts';

/** `+3`, `−1`, `+0`: a bonus as a sheet prints it, with a true minus sign. */
export function signed(value: number): string {
  return value < 0 ? `−${-value}` : `+${value}`;
}

/** A bar filled to `value / max`; its colour follows how full it is. */
export function meter(value: number, max: number): HTMLElement {
  const ratio = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  const fill = h('span', { class: 'meter-fill' });
  fill.style.width = `${(ratio * 100).toFixed(1)}%`;
  const level = ratio > 0.5 ? 'healthy' : ratio > 0.25 ? 'hurt' : 'critical';
  return h('span', { class: `meter meter-${level}`, role: 'presentation' }, fill);
}

/** The first letters of a name's first two words: what stands for a portrait. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
}

/** Text made safe inside the HTML of a chat message the page posts. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const ICONS: Record<string, string> = {
  character: '<circle cx="12" cy="8" r="4"/><path d="M4 21a8 8 0 0 1 16 0"/>',
  dice: '<path d="M12 2.5 20.5 7.4v9.2L12 21.5 3.5 16.6V7.4z"/><path d="M12 7.5 16.3 15H7.7z"/>',
  table: '<path d="M4 5h16M4 12h16M4 19h10"/>',
  menu: '<circle cx="12" cy="5" r="1.4"/><circle cx="12" cy="12" r="1.4"/><circle cx="12" cy="19" r="1.4"/>',
  shield: '<path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6z"/>',
  whisper: '<path d="M4 5h16v11H9l-5 4z"/><path d="M9 10.5h6"/>',
  music: '<path d="M9 18V5.5l11-2.5v13"/><circle cx="6" cy="18" r="3"/><circle cx="17" cy="16" r="3"/>',
  close: '<path d="m6 6 12 12M18 6 6 18"/>',
};

export function icon(name: keyof typeof ICONS & string): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.innerHTML = ICONS[name] ?? '';
  return svg;
}
