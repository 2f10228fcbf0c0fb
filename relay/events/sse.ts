import type { ServerResponse } from 'node:http';
import type { EventHub } from './event-hub.ts';
import type { StreamFilter, StreamKind } from './streams.ts';

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
  const write = (text: string) => {
    if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else response.write(text);
  };
  const unsubscribe = hub.subscribe({
    clientId,
    kind,
    filter,
    ownerId,
    deliver: (event, payloadJson) => write(frame(event.name, payloadJson)),
    keepalive: () => write(': keepalive\n\n'),
    close: () => response.end(),
  });
  response.on('close', unsubscribe);
}

function frame(name: string, data: string): string {
  return `event: ${name}\ndata: ${data}\n\n`;
}
