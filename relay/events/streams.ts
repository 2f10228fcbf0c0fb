import type { WorldMessage } from '../../contracts/world-protocol.ts';
import type { StreamKind } from '../../contracts/streams.ts';
import { isUser, seenBy } from '../world-data/audience.ts';
import { fieldsOf } from '../objects.ts';

export interface StreamFilter {
  userId?: string;
  hooks?: string[];
  encounterId?: string;
  actorUuid?: string;
  sceneId?: string;
  speaker?: string;
  chatType?: number;
  whisperOnly?: boolean;
}

export interface StreamEvent {
  name: string;
  /** The event's data on the wire, shaped as the reference relay sends it. */
  payload: Record<string, unknown>;
  /** The event's own fields (the roll, the chat message, the hook call…), which the filters read. */
  fields: Record<string, unknown>;
}

type Fields = Record<string, unknown>;

function sameName(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/**
 * The event a stream of this kind sends for a pushed world message, named as the reference relay intended
 * (reference-relay-http-api.md §4.3); undefined when the message does not fit. Its data is what the reference relay
 * sends, since clients read it so: the world's message as it came (`{type, data}`) on every stream but the
 * encounters', which sends the inner payload.
 */
export function streamEventOf(kind: StreamKind, message: WorldMessage): StreamEvent | undefined {
  const data = fieldsOf(message.data);
  if (!data) return undefined;
  const passedOn = { type: message.type, data };
  switch (kind) {
    case 'roll':
      return { name: 'roll', payload: passedOn, fields: data };
    case 'chat': {
      const inner = fieldsOf(data.data);
      return inner && isEventName(data.eventType)
        ? { name: `chat-${data.eventType}`, payload: passedOn, fields: inner }
        : undefined;
    }
    case 'hooks':
      return isEventName(data.hook) ? { name: data.hook, payload: passedOn, fields: data } : undefined;
    case 'combat':
      return isEventName(data.eventType)
        ? { name: `combat-${data.eventType}`, payload: data, fields: data }
        : undefined;
    case 'actor':
    case 'scene':
      return isEventName(data.eventType)
        ? { name: `${kind}-${data.eventType}`, payload: passedOn, fields: data }
        : undefined;
  }
}

const EVENT_NAME = /^[^\x00-\x1f\x7f]{1,200}$/;

/** A name the world gives an event goes out as an SSE `event:` line: a line break in it would forge frames of its own. */
function isEventName(value: unknown): value is string {
  return typeof value === 'string' && EVENT_NAME.test(value);
}

/** Whether an event passes a stream's own filter. */
export function passesFilter(kind: StreamKind, event: StreamEvent, filter: StreamFilter): boolean {
  const fields = event.fields;
  switch (kind) {
    case 'roll':
      return !filter.userId || isUser(fields.user, filter.userId);
    case 'chat':
      return passesChatFilter(event, filter);
    case 'hooks':
      return !filter.hooks?.length || filter.hooks.some((hook) => sameName(fields.hook, hook));
    case 'combat':
      return !filter.encounterId || fields.encounterId === filter.encounterId;
    case 'actor':
      return !filter.actorUuid || fields.actorUuid === filter.actorUuid;
    case 'scene':
      return !filter.sceneId || fields.sceneId === filter.sceneId;
  }
}

function passesChatFilter(event: StreamEvent, filter: StreamFilter): boolean {
  if (event.name === 'chat-delete') return true;
  const message = event.fields;
  const whisper = Array.isArray(message.whisper) ? message.whisper : [];
  if (filter.whisperOnly && whisper.length === 0) return false;
  if (filter.chatType !== undefined && message.type !== filter.chatType) return false;
  if (filter.speaker && !spokenBy(message, filter.speaker)) return false;
  return !filter.userId || seenBy(message, filter.userId);
}

function spokenBy(message: Fields, speaker: string): boolean {
  const fields = fieldsOf(message.speaker);
  if (!fields) return false;
  return [fields.alias, fields.actor, fields.token].some((value) => value === speaker || sameName(value, speaker));
}
