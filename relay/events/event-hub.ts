import type { ServerResponse } from 'node:http';
import type { WorldMessage } from '../protocol/messages.ts';
import { PUSH_TYPE_OF_CHANNEL } from '../protocol/messages.ts';
import { STREAM_CHANNEL, passesFilter, streamEventOf, type StreamFilter, type StreamKind } from './streams.ts';

const KEEPALIVE_INTERVAL_MS = 15_000;
/** A subscriber that has not read this much of what it was sent is too slow to keep. */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

interface Stream {
  response: ServerResponse;
  clientId: string;
  kind: StreamKind;
  filter: StreamFilter;
  ownerId: string;
}

const KIND_OF_PUSH_TYPE = new Map<string, StreamKind>(
  (Object.entries(STREAM_CHANNEL) as [StreamKind, keyof typeof PUSH_TYPE_OF_CHANNEL][]).map(([kind, channel]) => [
    PUSH_TYPE_OF_CHANNEL[channel],
    kind,
  ]),
);

/**
 * Server-Sent Event streams: who listens to which world and kind, fan-out of world pushes, keepalive comments,
 * and the subscriber count of each channel, reported so the world only sends what someone listens to.
 */
export class EventHub {
  private readonly streams = new Map<string, Map<StreamKind, Set<Stream>>>();
  private readonly ownedCounts = new Map<string, number>();
  private readonly keepalive: NodeJS.Timeout;
  private readonly onCountChange: (clientId: string, kind: StreamKind, count: number) => void;

  constructor(onCountChange: (clientId: string, kind: StreamKind, count: number) => void, keepaliveIntervalMs = KEEPALIVE_INTERVAL_MS) {
    this.onCountChange = onCountChange;
    this.keepalive = setInterval(() => this.sendKeepalive(), keepaliveIntervalMs);
    this.keepalive.unref();
  }

  /** Starts a stream on the response; it lasts until the caller hangs up or the relay stops. */
  open(response: ServerResponse, clientId: string, kind: StreamKind, filter: StreamFilter, ownerId: string): void {
    response.socket?.setTimeout(0);
    response.socket?.setNoDelay(true);
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    const stream: Stream = { response, clientId, kind, filter, ownerId };
    const connected = kind === 'actor' ? { clientId, actorUuid: filter.actorUuid ?? '' } : { clientId };
    response.write(frame('connected', JSON.stringify(connected)));
    this.add(stream);
    response.on('close', () => this.remove(stream));
  }

  count(clientId: string, kind: StreamKind): number {
    return this.streams.get(clientId)?.get(kind)?.size ?? 0;
  }

  countOwnedBy(ownerId: string): number {
    return this.ownedCounts.get(ownerId) ?? 0;
  }

  total(): number {
    let count = 0;
    for (const kinds of this.streams.values()) for (const streams of kinds.values()) count += streams.size;
    return count;
  }

  /** Sends a world's push to every stream of its kind whose filter it passes. */
  publish(clientId: string, message: WorldMessage): void {
    const kind = KIND_OF_PUSH_TYPE.get(message.type);
    const streams = kind && this.streams.get(clientId)?.get(kind);
    if (!kind || !streams?.size) return;
    const event = streamEventOf(kind, message);
    if (!event) return;
    let text: string | undefined;
    for (const stream of streams) {
      if (!passesFilter(kind, event, stream.filter)) continue;
      text ??= frame(event.name, JSON.stringify(event.payload));
      this.write(stream, text);
    }
  }

  close(): void {
    clearInterval(this.keepalive);
    for (const stream of [...this.all()]) stream.response.end();
  }

  private add(stream: Stream): void {
    let kinds = this.streams.get(stream.clientId);
    if (!kinds) this.streams.set(stream.clientId, (kinds = new Map()));
    let streams = kinds.get(stream.kind);
    if (!streams) kinds.set(stream.kind, (streams = new Set()));
    streams.add(stream);
    this.ownedCounts.set(stream.ownerId, this.countOwnedBy(stream.ownerId) + 1);
    this.onCountChange(stream.clientId, stream.kind, streams.size);
  }

  private remove(stream: Stream): void {
    const streams = this.streams.get(stream.clientId)?.get(stream.kind);
    if (!streams?.delete(stream)) return;
    const owned = this.countOwnedBy(stream.ownerId) - 1;
    if (owned > 0) this.ownedCounts.set(stream.ownerId, owned);
    else this.ownedCounts.delete(stream.ownerId);
    this.onCountChange(stream.clientId, stream.kind, streams.size);
  }

  private write(stream: Stream, text: string): void {
    if (stream.response.writableLength > MAX_UNREAD_BYTES) {
      stream.response.destroy();
      return;
    }
    stream.response.write(text);
  }

  private sendKeepalive(): void {
    for (const stream of this.all()) this.write(stream, ': keepalive\n\n');
  }

  private *all(): Generator<Stream> {
    for (const kinds of this.streams.values()) for (const streams of kinds.values()) yield* streams;
  }
}

function frame(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
