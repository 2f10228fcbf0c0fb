// Who sees a chat message, and so the roll it carries: the one rule for the chat and roll streams, the API's answers
// to a key bound to a player, and the OBS overlays.

type Fields = Record<string, unknown>;

function whisperOf(message: Fields): unknown[] {
  return Array.isArray(message.whisper) ? message.whisper : [];
}

/**
 * Whether a message shows to `recipient` (a user id, or undefined for nobody) by its whisper list alone: a public
 * message to everyone, a whispered one only to its recipients. An overlay, watched by a stream's audience, goes by this
 * alone: not merely its author, because a blind roll is whispered to the GMs by a player who must not see it and the
 * module does not say which rolls are blind.
 */
export function shownTo(message: Fields, recipient: string | undefined): boolean {
  const whisper = whisperOf(message);
  if (whisper.length === 0) return true;
  return recipient !== undefined && whisper.includes(recipient);
}

/**
 * Whether `user` (an id, or a name as keys may name their user) sees a message in Foundry: shown to them, or theirs.
 * *Limit:* a player's own blind roll counts as theirs, as the module does not mark blind rolls.
 */
export function seenBy(message: Fields, user: string): boolean {
  return shownTo(message, user) || isUser(message.author, user);
}

/** Whether `who` (a message's author, a roll's user: `{id, name}`) is `user`, named by id or by name. */
export function isUser(who: unknown, user: string): boolean {
  if (typeof who !== 'object' || who === null) return false;
  const { id, name } = who as Fields;
  return id === user || (typeof name === 'string' && name.toLowerCase() === user.toLowerCase());
}
