// Every image the plugin shows, drawn as SVG: the manifest's icons (written into the plugin folder by the build) and
// the keys' live images (sent as data URLs). Keys are 72 × 72 (144 × 144 on high-DPI decks; SVG scales).
import { healthBand, type HealthBand } from '../client/index.ts';

const BACKGROUND = '#1b1d2a';
const INK = '#ffffff';
const MUTED = '#8b90a3';
const GREEN = '#22c55e';
const AMBER = '#f59e0b';
const RED = '#e5383b';
const INDIGO = '#5b54f0';

/** A d20 seen face-on, the app's mark, in a 32-unit box. */
const D20 = '<path d="M16 2.2 28.2 9.1v13.8L16 29.8 3.8 22.9V9.1z"/><path d="M16 9.6 23.2 21.4H8.8z"/>';

/** Each action's glyph, drawn with strokes in a 32-unit box. */
export const GLYPHS = {
  roll: D20,
  'next-turn': '<path d="M6 16h18M17 8l8 8-8 8"/>',
  'previous-turn': '<path d="M26 16H8M15 8l-8 8 8 8"/>',
  hp: '<path d="M16 27S4 19.5 4 11.5A6 6 0 0 1 16 8a6 6 0 0 1 12 3.5C28 19.5 16 27 16 27z"/>',
  playlist: '<path d="M12 24V7l14-3v17"/><circle cx="8.5" cy="24" r="3.5"/><circle cx="22.5" cy="21" r="3.5"/>',
  'playlist-next': '<path d="M6 7l12 9-12 9zM24 7v18"/>',
  'playlist-volume': '<path d="M5 12h5l7-6v20l-7-6H5z"/><path d="M21 11a6 6 0 0 1 0 10M24.5 7.5a11 11 0 0 1 0 17"/>',
  macro: '<path d="M11 8l-7 8 7 8M21 8l7 8-7 8M18 6l-4 20"/>',
  status: '<circle cx="16" cy="16" r="11"/><path d="M16 9v7l5 3"/>',
} as const;
export type GlyphName = keyof typeof GLYPHS;

function escaped(text: string): string {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A monochrome white icon (action list, category), as the manifest asks for. */
export function iconSvg(glyph: string, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><g fill="none" stroke="${INK}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">${glyph}</g></svg>`;
}

/** A key: the glyph on the deck's dark tile, an accent colour, and room below for the title. */
export function keySvg(glyph: string, accent = INDIGO, size = 72): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 72 72"><rect width="72" height="72" fill="${BACKGROUND}"/><rect x="0" y="66" width="72" height="6" fill="${accent}"/><g transform="translate(20 10) scale(1)" fill="none" stroke="${accent}" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round">${glyph}</g></svg>`;
}

/** An SVG as a data URL, the form setImage takes. */
export function dataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

function lines(texts: string[], colour: string, firstY: number, size: number): string {
  return texts
    .map(
      (text, index) =>
        `<text x="36" y="${firstY + index * (size + 3)}" font-family="Helvetica, Arial, sans-serif" font-size="${size}" font-weight="600" fill="${colour}" text-anchor="middle">${escaped(text)}</text>`,
    )
    .join('');
}

/** The image every key shows while the relay does not answer. */
export const OFFLINE_IMAGE = dataUrl(
  `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72"><rect width="72" height="72" fill="#2a2b33"/><g transform="translate(24 8) scale(0.75)" fill="none" stroke="${MUTED}" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round">${D20}<path d="M2 2l28 28"/></g>${lines(['Relay', 'offline'], MUTED, 48, 11)}</svg>`,
);

/**
 * The image every key shows while the GM has yet to approve the plugin's key request: the code to check at the top,
 * above the key's title ("Approve in Tabletop Relay").
 */
export function approvalImage(code: string): string {
  return dataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72"><rect width="72" height="72" fill="${BACKGROUND}"/><rect x="2" y="2" width="68" height="68" rx="8" fill="none" stroke="${AMBER}" stroke-width="2"/>${lines([code], AMBER, 18, 12)}</svg>`,
  );
}

export type StatusLook = 'connected' | 'no-world' | 'relay-off' | 'no-key';

const STATUS_COLOURS: Record<StatusLook, string> = {
  connected: GREEN,
  'no-world': MUTED,
  'relay-off': RED,
  'no-key': AMBER,
};

/** The status key: a green dot while the world is connected, grey without a world, red while the relay is off. */
export function statusImage(look: StatusLook): string {
  const colour = STATUS_COLOURS[look];
  return dataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72"><rect width="72" height="72" fill="${BACKGROUND}"/><circle cx="36" cy="28" r="15" fill="${colour}"/><circle cx="36" cy="28" r="15" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="3"/></svg>`,
  );
}

const BAND_COLOURS: Record<HealthBand, string> = { healthy: GREEN, bloodied: AMBER, down: RED };
const BAND_WORDS: Record<HealthBand, string> = { healthy: 'Healthy', bloodied: 'Bloodied', down: 'Down' };

/** The bar's colour: green above half, amber down to a quarter, red below, as the ratio of value to max. */
export function hpColour(value: number, max: number): string {
  const ratio = max > 0 ? value / max : 0;
  if (ratio > 0.5) return GREEN;
  if (ratio > 0.25) return AMBER;
  return RED;
}

/**
 * An actor's hit points as a bar coloured by their ratio, with the numbers; on the players' deck, only the band
 * (healthy, bloodied, down) in its colour.
 */
export function hpImage(name: string, value: number, max: number, playersDeck: boolean): string {
  const ratio = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  const band = healthBand(value, max);
  const colour = playersDeck ? BAND_COLOURS[band] : hpColour(value, max);
  const width = playersDeck ? 60 : Math.round(60 * ratio);
  const figure = playersDeck ? BAND_WORDS[band] : `${value}/${max}`;
  return dataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72"><rect width="72" height="72" fill="${BACKGROUND}"/>${lines([name.slice(0, 11)], MUTED, 16, 10)}<rect x="6" y="26" width="60" height="16" rx="4" fill="#33364a"/><rect x="6" y="26" width="${width}" height="16" rx="4" fill="${colour}"/>${lines([figure], INK, 62, playersDeck ? 13 : 15)}</svg>`,
  );
}

/** A key's image with a glyph, as data URL (the playlist's playing state is green). */
export function glyphImage(glyph: GlyphName, accent?: string): string {
  return dataUrl(keySvg(GLYPHS[glyph], accent));
}

export const COLOURS = { GREEN, AMBER, RED, INDIGO, MUTED } as const;
