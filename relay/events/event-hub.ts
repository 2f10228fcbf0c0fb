import type { WorldMessage } from '../../contracts/world-protocol.ts';
import { STREAM_KINDS, STREAMS, type StreamKind } from '../../contracts/streams.ts';
import { passesFilter, streamEventOf, type StreamEvent, type StreamFilter } from './streams.ts';

/** Someone listening to one kind of event of one world: an SSE stream or a /ws/api subscription. */
export interface Subscriber {
  clientId: string;
  kind: StreamKind;
  filter: StreamFilter;
  /** The API key holding the subscription, for the per-key cap. */
  ownerId: string;
  /** `payloadJson` is the event's payload already serialised, shared by every subscriber of one push. */
  deliver(event: StreamEvent, payloadJson: string): void;
  close(): void;
}

const KIND_OF_PUSH_TYPE = new Map<string, StreamKind>(STREAM_KINDS.map((kind) => [STREAMS[kind].pushType, kind]));

/**
 * Who listens to which world and kind of event, the fan-out of world pushes, and the subscriber count of each channel,
 * reported so the world only sends what someone listens to.
 */
export class EventHub {
  private readonly subscribers = new Map<string, Map<StreamKind, Set<Subscriber>>>();
  private readonly ownedCounts = new Map<string, number>();
  private readonly onCountChange: (clientId: string, kind: StreamKind, count: number) => void;

  constructor(onCountChange: (clientId: string, kind: StreamKind, count: number) => void) {
    this.onCountChange = onCountChange;
  }

  /** Adds a subscriber; the returned function removes it (calling it twice is harmless). */
  subscribe(subscriber: Subscriber): () => void {
    let kinds = this.subscribers.get(subscriber.clientId);
    if (!kinds) this.subscribers.set(subscriber.clientId, (kinds = new Map()));
    let set = kinds.get(subscriber.kind);
    if (!set) kinds.set(subscriber.kind, (set = new Set()));
    set.add(subscriber);
    this.ownedCounts.set(subscriber.ownerId, this.countOwnedBy(subscriber.ownerId) + 1);
    this.onCountChange(subscriber.clientId, subscriber.kind, set.size);
    return () => this.unsubscribe(subscriber);
  }

  count(clientId: string, kind: StreamKind): number {
    return this.subscribers.get(clientId)?.get(kind)?.size ?? 0;
  }

  countOwnedBy(ownerId: string): number {
    return this.ownedCounts.get(ownerId) ?? 0;
  }

  total(): number {
    let count = 0;
    for (const kinds of this.subscribers.values()) for (const set of kinds.values()) count += set.size;
    return count;
  }

  /** Hands a world's push to every subscriber of its kind whose filter it passes. */
  publish(clientId: string, message: WorldMessage): void {
    const kind = KIND_OF_PUSH_TYPE.get(message.type);
    const set = kind && this.subscribers.get(clientId)?.get(kind);
    if (!kind || !set?.size) return;
    const event = streamEventOf(kind, message);
    if (!event) return;
    let payloadJson: string | undefined;
    for (const subscriber of set) {
      if (!passesFilter(kind, event, subscriber.filter)) continue;
      payloadJson ??= JSON.stringify(event.payload);
      subscriber.deliver(event, payloadJson);
    }
  }

  /** Ends every stream held by this API key at once, e.g. when the key is revoked, rotated or changed. */
  closeOwnedBy(ownerId: string): void {
    for (const subscriber of [...this.all()]) {
      if (subscriber.ownerId !== ownerId) continue;
      this.unsubscribe(subscriber);
      subscriber.close();
    }
  }

  close(): void {
    for (const subscriber of [...this.all()]) subscriber.close();
  }

  private unsubscribe(subscriber: Subscriber): void {
    const set = this.subscribers.get(subscriber.clientId)?.get(subscriber.kind);
    if (!set?.delete(subscriber)) return;
    const owned = this.countOwnedBy(subscriber.ownerId) - 1;
    if (owned > 0) this.ownedCounts.set(subscriber.ownerId, owned);
    else this.ownedCounts.delete(subscriber.ownerId);
    this.onCountChange(subscriber.clientId, subscriber.kind, set.size);
  }

  private *all(): Generator<Subscriber> {
    for (const kinds of this.subscribers.values()) for (const set of kinds.values()) yield* set;
  }
}
