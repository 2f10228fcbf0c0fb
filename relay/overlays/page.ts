// An overlay's page: the HTML OBS loads, carrying its configuration for overlay.js, and the options a URL may set.
import { z } from 'zod';
import {
  defaultOverlayOptions,
  OVERLAY_OPTION_LIMITS,
  OVERLAY_POSITIONS,
  OVERLAY_THEMES,
  OVERLAYS,
  type OverlayName,
  type OverlayOptions,
  type OverlayPageConfig,
} from '../../contracts/overlays.ts';
import { flag, number, oneOf, wholeNumber } from '../routing/parameters.ts';
import type { AnswerHeaders } from '../routing/route.ts';

const HEX_COLOUR = /^#?([0-9a-f]{6})$/i;

/** `#rrggbb`; the `#` may be left out, as it must be escaped (`%23`) in a URL. */
const colour = () =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .regex(HEX_COLOUR, { error: 'must be a colour as #rrggbb (or rrggbb)' })
    .transform((value) => `#${HEX_COLOUR.exec(value)![1]!.toLowerCase()}`);

/** The page's options (OverlayOptions), each defaulted; a bad one is a 400 that names it. */
export function pageParameters(overlay: OverlayName) {
  const defaults = defaultOverlayOptions(overlay);
  const limits = OVERLAY_OPTION_LIMITS;
  const options = {
    theme: oneOf(OVERLAY_THEMES).default(defaults.theme).describe('dark, light, or none (text only, no panels)'),
    accent: colour().default(defaults.accent).describe('Accent colour, #rrggbb'),
    fontSize: wholeNumber(limits.fontSize).default(defaults.fontSize).describe('Base font size in pixels at 1080p'),
    max: wholeNumber(limits.max).default(defaults.max).describe('The most items shown at once'),
    position: oneOf(OVERLAY_POSITIONS).default(defaults.position).describe('The corner the overlay sits in'),
    hold: number(limits.hold).default(defaults.hold).describe('Seconds an item stays before it fades out; 0 keeps it'),
  };
  if (overlay !== 'character-card') return z.object(options);
  return z.object({
    ...options,
    sheet: flag().default(false).describe("Show the character's sheet image instead of the card"),
  });
}

export type PageParameters = OverlayOptions & { sheet?: boolean };

/**
 * Nothing but the relay's own script and style sheet runs or loads; inline style attributes and the GM's custom CSS
 * (put in by overlay.js) may style it; images only from the relay or data URLs; no page may frame it but the
 * relay's own settings UI (the live preview).
 */
export const PAGE_HEADERS: AnswerHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'self'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** The URLs of an overlay the page reads, each carrying its link. */
export function overlayUrls(overlay: OverlayName, link: string) {
  const query = `?link=${encodeURIComponent(link)}`;
  return {
    stateUrl: `/overlays/${overlay}/state${query}`,
    eventsUrl: `/overlays/${overlay}/events${query}`,
    sheetUrl: `/overlays/${overlay}/sheet${query}`,
  };
}

export function pageConfig(
  overlay: OverlayName,
  parameters: PageParameters,
  link: string,
  customCss: string,
): OverlayPageConfig {
  const { sheet, ...options } = parameters;
  const { stateUrl, eventsUrl, sheetUrl } = overlayUrls(overlay, link);
  return { overlay, options, stateUrl, eventsUrl, customCss, ...(sheet ? { sheetUrl } : {}) };
}

export function overlayPage(config: OverlayPageConfig): string {
  const { overlay, options } = config;
  const classes = ['overlay', `overlay-${overlay}`, `theme-${options.theme}`, `position-${options.position}`];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${OVERLAYS[overlay].title} · Tabletop Relay</title>
<link rel="stylesheet" href="/overlays/assets/overlay.css">
<script type="application/json" id="overlay-config">${scriptSafeJson(config)}</script>
<script src="/overlays/assets/overlay.js" defer></script>
</head>
<body class="${classes.join(' ')}">
</body>
</html>
`;
}

/**
 * JSON that no value can end its `<script>` element with (`</script>`, `<!--`): every `<`, `>` and `&` is escaped,
 * and so are the line separators older parsers took for line ends. JSON.parse reads it back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
