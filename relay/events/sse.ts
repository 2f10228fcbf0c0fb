import type { ServerResponse } from 'node:http';
import type { EventHub } from './event-hub.ts';
import type { StreamEvent, StreamFilter, StreamKind } from './streams.ts';

/** A subscriber that has not read this much of what it was sent is too slow to keep. */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/** Starts a Server-Sent Events stream on the response; it lasts until the caller hangs up or the relay stops. */
export function openEventStream(hub: EventHub, response: ServerResponse, clientId: string, kind: StreamKind, filter: StreamFilter, ownerId: string): void {
  response.socket?.setTimeout(0);
  response.socket?.setNoDelay(true);
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  const connected = kind === 'actor' ? { clientId, actorUuid: filter.actorUuid ?? '' } : { clientId };
  response.write(frame('connected', JSON.stringify(connected)));
  const write = (chunk: string | Buffer) => {
    if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else response.write(chunk);
  };
  const unsubscribe = hub.subscribe({
    clientId,
    kind,
    filter,
    ownerId,
    deliver: (event, payloadJson) => write(encodedFrame(event, payloadJson)),
    keepalive: () => write(': keepalive\n\n'),
    close: () => response.end(),
  });
  response.on('close', unsubscribe);
}

/** One push reaches every stream as the same event object, so its frame is encoded once for all of them. */
const encodedFrames = new WeakMap<StreamEvent, Buffer>();

function encodedFrame(event: StreamEvent, payloadJson: string): Buffer {
  let encoded = encodedFrames.get(event);
  if (!encoded) encodedFrames.set(event, (encoded = Buffer.from(frame(event.name, payloadJson))));
  return encoded;
}

function frame(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
