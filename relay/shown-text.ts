// The one rule for text that a stranger or a world puts in front of the GM (a tool's name, a world's title, a player's
// name, an invitation's label): it reads as what it is, on one line, in the settings UI, the tray menu and notifications.
// Text a caller sends in a request is refused when it breaks the rule (`isShownText`, a 400 that says so); text a world
// sends about itself is cleaned (`shownClean`): the GM typed it in Foundry, and the unmodified module cannot be told.

/**
 * Characters that do not show as themselves: controls (C0, and C1 with NEL), line and paragraph separators, format
 * characters (bidi marks, embeddings, overrides and isolates, zero-width spaces and joiners, the word joiner, the BOM,
 * tag characters, interlinear annotations) and lone surrogates.
 */
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const UNSHOWN_ALL = new RegExp(UNSHOWN.source, 'gu');
/** Tabs and line breaks: cleaned into a space so that the words on either side stay apart. */
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;

/** The most combining marks one character may carry: enough for any script's accents, not for a flood over the line. */
export const MAX_MARKS = 4;
const MARK_FLOOD = new RegExp(`\\p{M}{${MAX_MARKS + 1},}`, 'u');
const MARK_FLOOD_ALL = new RegExp(`(\\p{M}{${MAX_MARKS}})\\p{M}+`, 'gu');

export const UNSHOWN_TEXT_ERROR = `must be plain text on one line: no control characters, line breaks, invisible or text-direction characters, nor more than ${MAX_MARKS} accents on one character`;

/** Whether text shows as it reads. */
export function isShownText(text: string): boolean {
  return !UNSHOWN.test(text) && !MARK_FLOOD.test(text);
}

/** The text with what does not show as itself taken out, floods of accents cut, and at most `max` characters. */
export function shownClean(text: string, max: number): string {
  const cleaned = text
    .replace(SPACING, ' ')
    .replace(UNSHOWN_ALL, '')
    .replace(MARK_FLOOD_ALL, '$1')
    .replace(/\s{2,}/gu, ' ')
    .trim();
  const characters = [...cleaned];
  return characters.length <= max ? cleaned : characters.slice(0, max).join('').trimEnd();
}
