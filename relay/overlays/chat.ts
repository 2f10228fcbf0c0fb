// The chat ticker: messages said in chat (rolls go to the dice feed), as plain text.
import type { ChatLineView } from '../../contracts/overlays.ts';
import { textOf } from '../objects.ts';
import { speakerName, timeOf, type Fields } from './world.ts';

/** The longest line the ticker carries; a longer message is cut with an ellipsis. */
const MAX_TEXT = 500;

/** A chat message as a ticker line, or undefined for a roll or a message with no text. */
export function chatLineOf(message: Fields): ChatLineView | undefined {
  if (message.isRoll === true || typeof message.id !== 'string') return undefined;
  const text = plainText(textOf(message.content));
  if (text === '') return undefined;
  return { id: message.id, who: speakerName(message), text, at: timeOf(message) };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A message's HTML as the text a reader sees: scripts and styles dropped, tags removed, entities decoded, white space
 * collapsed. The result is text, not HTML: the page puts it in as text (a decoded `&lt;` is a literal `<`).
 */
export function plainText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|blockquote|tr)\s*>/gi, ' ')
    .replace(/<[^>]*>?/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => decoded(name) ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1).trimEnd()}…` : text;
}

function decoded(name: string): string | undefined {
  if (name[0] !== '#') {
    const named = name.toLowerCase();
    return Object.hasOwn(ENTITIES, named) ? ENTITIES[named] : undefined;
  }
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
}
