// What every overlay's view is made from: the world of the link, asked as the link's user, and the rule that keeps a
// whisper off a stream's screen unless the link sees as one of its recipients (`shownTo`).
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import type { OverlayLinkRecord } from '../auth/overlay-links.ts';
import { fieldsOf, listOf, numberOf, textOf } from '../objects.ts';
import { shownTo } from '../world-data/audience.ts';
import type { WorldOperation } from '../../contracts/operations.ts';

/** What a view is built for: the link's world, the user it sees as, and the GM's choices stored with it. */
export type OverlayViewer = Pick<OverlayLinkRecord, 'id' | 'clientId' | 'userId' | 'actorUuid' | 'hpBars'>;

export type Fields = Record<string, unknown>;

const WORLD_TIMEOUT_MS = 10_000;

/** Sends one operation to the link's world as the link's user; a world away is a 503, a refusal a 400 with its words. */
export async function askWorld(
  services: RelayServices,
  viewer: OverlayViewer,
  operation: WorldOperation,
  fields: Fields = {},
): Promise<Fields> {
  const world = services.tabletop.world(viewer.clientId);
  if (!world)
    throw new HttpError(503, 'The world of this overlay is not connected; the overlay shows again once it is');
  const message: Fields = viewer.userId ? { ...fields, userId: viewer.userId } : { ...fields };
  const timeoutMs = services.timeoutOverrideMs ?? WORLD_TIMEOUT_MS;
  const reply = (await services.tabletop.request(world, operation, message, timeoutMs)).message as Fields;
  if (typeof reply.error === 'string' && reply.error !== '') throw new HttpError(400, reply.error);
  return reply;
}

/**
 * The user id whispers must list for the link's user to see them: a link may name its user by id or by name (as the
 * world resolves it), while a message's whisper lists ids only. Read from the world's player list.
 */
export function recipientOf(services: RelayServices, viewer: OverlayViewer): string | undefined {
  const wanted = viewer.userId;
  if (!wanted) return undefined;
  const players = services.tabletop.world(viewer.clientId)?.players ?? [];
  const user =
    players.find((player) => player.id === wanted) ??
    players.find((player) => player.name.toLowerCase() === wanted.toLowerCase());
  return user?.id ?? wanted;
}

/** The name a message goes under: the speaker's alias, else its author's name. */
export function speakerName(message: Fields): string {
  return textOf(fieldsOf(message.speaker)?.alias) || textOf(fieldsOf(message.author)?.name);
}

/** A message's time in epoch ms; now when the world gave none. */
export function timeOf(message: Fields): number {
  return numberOf(message.timestamp) ?? Date.now();
}

/** How many recent messages a feed's view looks through, and the most items it holds. */
export const RECENT_MESSAGES = 100;
export const FEED_ITEMS = 20;

/**
 * The newest messages of the chat log the link may show that `itemOf` makes an item of, oldest first (the order a
 * feed shows them in, new items from the stream coming after).
 */
export async function recentItems<T>(
  services: RelayServices,
  viewer: OverlayViewer,
  itemOf: (message: Fields) => T | undefined,
): Promise<T[]> {
  const reply = await askWorld(services, viewer, 'chat-messages', { limit: RECENT_MESSAGES, offset: 0 });
  const recipient = recipientOf(services, viewer);
  const items: T[] = [];
  for (const message of oldestFirst(listOf(fieldsOf(reply.data)?.messages)).reverse()) {
    if (items.length === FEED_ITEMS) break;
    const item = shownTo(message, recipient) ? itemOf(message) : undefined;
    if (item !== undefined) items.push(item);
  }
  return items.reverse();
}

/**
 * Messages oldest first. The world lists them newest first by timestamp, and messages of the same millisecond in the
 * order they were made, so those keep the world's order.
 */
export function oldestFirst(messages: Fields[]): Fields[] {
  return messages
    .map((message, index) => ({ message, index }))
    .sort((a, b) => timeOf(a.message) - timeOf(b.message) || a.index - b.index)
    .map(({ message }) => message);
}
