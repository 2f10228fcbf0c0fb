import type { WorldMessage } from '../../contracts/world-protocol.ts';
import { fieldsOf } from '../objects.ts';
import { STREAMS } from '../../contracts/streams.ts';

// One roll, one id. The module answers POST /roll with a made-up `manual_<ms>_<rand>` id and records that entry in its
// recent rolls, while the chat message the roll was posted as reaches the roll stream (and the recent rolls, once more)
// under the message's id (module-operations.md §3.1, §3.3). The relay pairs the two: a `roll-data` push that arrived
// while the roll request was pending, with the same total and dice, is that roll's chat message, and its id is used
// for the roll everywhere: in the POST /roll answer, in /lastroll and /rolls (the second entry dropped) and in events.

/** The module's recent-rolls buffer holds 20 entries: older pairings cannot be asked about. */
const REMEMBERED_PER_WORLD = 20;

type Fields = Record<string, unknown>;

interface RollPush {
  receivedAt: number;
  messageId: string;
  fingerprint: string;
}

function fingerprint(total: unknown, dice: unknown): string {
  return JSON.stringify([total, dice]);
}

function remember<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > REMEMBERED_PER_WORLD) list.shift();
}

export class RollIds {
  readonly #pushes = new Map<string, RollPush[]>();
  /** Per world: a manual id and the chat message id of the same roll. */
  readonly #messageIdOf = new Map<string, Map<string, string>>();

  notePush(clientId: string, message: WorldMessage): void {
    if (message.type !== STREAMS.roll.pushType) return;
    const roll = fieldsOf(message.data);
    if (!roll || typeof roll.id !== 'string') return;
    let pushes = this.#pushes.get(clientId);
    if (!pushes) this.#pushes.set(clientId, (pushes = []));
    remember(pushes, {
      receivedAt: performance.now(),
      messageId: roll.id,
      fingerprint: fingerprint(roll.rollTotal, roll.dice),
    });
  }

  /**
   * The `roll` answer with the chat message's id, when exactly one roll push of the same dice came while it was pending
   * (`sentAt`: `performance.now()` when the request left).
   */
  reviseRollResult(clientId: string, message: Fields, sentAt: number): Fields {
    const data = fieldsOf(message.data);
    const roll = fieldsOf(data?.roll);
    if (!data || !roll || data.chatMessageCreated !== true || typeof data.id !== 'string') return message;
    const wanted = fingerprint(roll.total, roll.dice);
    const matches = (this.#pushes.get(clientId) ?? []).filter(
      (push) => push.receivedAt >= sentAt && push.fingerprint === wanted,
    );
    if (matches.length !== 1) return message;
    const messageId = matches[0]!.messageId;
    this.#pair(clientId, data.id, messageId);
    return { ...message, data: { ...data, id: messageId, messageId } };
  }

  /** `last-roll`'s entry under the id the roll has everywhere. */
  reviseLastRoll(clientId: string, message: Fields): Fields {
    const entry = fieldsOf(message.data);
    const revised = entry && this.#reviseEntry(clientId, entry);
    return revised && revised !== entry ? { ...message, data: revised } : message;
  }

  /** `rolls`' entries under the ids the rolls have everywhere, each roll once, at most `limit`. */
  reviseRolls(clientId: string, message: Fields, limit: number): Fields {
    if (!Array.isArray(message.data)) return message;
    const seen = new Set<unknown>();
    const entries = message.data
      .map((entry) => {
        const fields = fieldsOf(entry);
        return fields ? this.#reviseEntry(clientId, fields) : entry;
      })
      .filter((entry) => {
        const id = fieldsOf(entry)?.id;
        if (typeof id !== 'string') return true;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      })
      .slice(0, limit);
    // Unchanged, the world's own text goes out as it came, without serialising the list again.
    const unchanged =
      entries.length === message.data.length &&
      entries.every((entry, index) => entry === (message.data as unknown[])[index]);
    return unchanged ? message : { ...message, data: entries };
  }

  /**
   * The id of the chat message a recent-rolls entry was posted as, when the relay knows one: a roll made in the world
   * carries its message's; a POST /roll the relay paired with its message has that message's.
   */
  messageIdOf(clientId: string, entry: Fields): string | undefined {
    const { messageId } = this.#reviseEntry(clientId, entry);
    return typeof messageId === 'string' ? messageId : undefined;
  }

  #reviseEntry(clientId: string, entry: Fields): Fields {
    const messageId = typeof entry.id === 'string' ? this.#messageIdOf.get(clientId)?.get(entry.id) : undefined;
    return messageId ? { ...entry, id: messageId, messageId } : entry;
  }

  #pair(clientId: string, manualId: string, messageId: string): void {
    let pairs = this.#messageIdOf.get(clientId);
    if (!pairs) this.#messageIdOf.set(clientId, (pairs = new Map()));
    pairs.set(manualId, messageId);
    if (pairs.size > REMEMBERED_PER_WORLD) pairs.delete(pairs.keys().next().value!);
  }
}
