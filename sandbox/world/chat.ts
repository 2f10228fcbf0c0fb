// Chat messages: creating them as Foundry does and serializing them as the module does (module-operations.md §9).
import type { EvaluatedRoll } from '../dice.ts';
import type { WorldDocument } from './document.ts';
import type { Game } from './game.ts';
import type { PlainObject } from './objects.ts';

export interface ChatSpeaker {
  scene?: string | null;
  actor?: string | null;
  token?: string | null;
  alias?: string | null;
}

export interface NewChatMessage {
  authorId: string;
  content?: string;
  flavor?: string;
  speaker?: ChatSpeaker;
  whisper?: string[];
  rolls?: EvaluatedRoll[];
  /** The message's document `type`, as the module sets it from `chatType`: Foundry 13 takes a number as `style`. */
  type?: unknown;
}

/** A roll as stored on a message: what `message.rolls[i]` exposes to the module. */
export interface StoredRoll {
  class: 'Roll';
  formula: string;
  total: number;
  evaluated: true;
  dice: EvaluatedRoll['dice'];
}

export function createChatMessage(game: Game, message: NewChatMessage): WorldDocument {
  const rolls: StoredRoll[] = (message.rolls ?? []).map((roll) => ({
    class: 'Roll',
    formula: roll.formula,
    total: roll.total,
    evaluated: true,
    dice: roll.dice,
  }));
  return game.createDocument(
    'ChatMessage',
    {
      author: message.authorId,
      timestamp: game.now(),
      content: message.content ?? (rolls.length > 0 ? String(rolls[0]!.total) : ''),
      flavor: message.flavor ?? '',
      speaker: { scene: null, actor: null, token: null, alias: null, ...message.speaker },
      whisper: message.whisper ?? [],
      rolls,
      ...(message.type === undefined ? {} : { type: message.type }),
    },
    { userId: message.authorId },
  );
}

export function messageRolls(message: WorldDocument): StoredRoll[] {
  return (message.source.rolls as StoredRoll[] | undefined) ?? [];
}

function authorOf(game: Game, message: WorldDocument): { id: string; name: string } | null {
  const author = game.users.get(message.source.author as string);
  return author ? { id: author.id, name: author.name } : null;
}

/** Core rolls have no isCritical/isFumble (only system roll classes do), hence always false. */
function serializeRoll(roll: StoredRoll): PlainObject {
  return {
    formula: roll.formula,
    total: roll.total,
    isCritical: false,
    isFumble: false,
    dice: roll.dice.map((die) => ({
      faces: die.faces,
      results: die.results.map((r) => ({ result: r.result, active: r.active })),
    })),
  };
}

export function serializeChatMessage(game: Game, message: WorldDocument): PlainObject {
  const source = message.source;
  const rolls = messageRolls(message);
  return {
    id: message.id,
    uuid: message.uuid,
    content: source.content,
    speaker: source.speaker,
    timestamp: source.timestamp,
    whisper: source.whisper ?? [],
    type: source.type,
    author: authorOf(game, message),
    flavor: source.flavor || '',
    isRoll: rolls.length > 0,
    rolls: rolls.map(serializeRoll),
    flags: source.flags ?? {},
  };
}
