import type { ServerResponse } from 'node:http';
import type { EventStream } from '../routing/route.ts';

/** A reader that has not read this much of what it was sent is too slow to keep. */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;
export const KEEPALIVE_INTERVAL_MS = 15_000;

const HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/**
 * Starts a Server-Sent Events stream on the response, for the world's event streams and the settings UI's feed alike:
 * no socket timeout, no Nagle delay, no proxy buffering, a comment every `keepaliveMs` so idle connections stay open,
 * and a reader that leaves more than MAX_UNREAD_BYTES unread is cut off. It lasts until the reader hangs up or `end`.
 */
export function openEventStream(response: ServerResponse, keepaliveMs = KEEPALIVE_INTERVAL_MS): EventStream {
  response.socket?.setTimeout(0);
  response.socket?.setNoDelay(true);
  response.writeHead(200, HEADERS);
  const write = (chunk: string | Buffer) => {
    if (response.destroyed) return;
    if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else response.write(chunk);
  };
  const keepalive = setInterval(() => write(': keepalive\n\n'), keepaliveMs);
  response.on('close', () => clearInterval(keepalive));
  return {
    send: (name, json) => write(encodedFrame(name, json)),
    comment: (text) => write(`: ${text}\n\n`),
    onClose: (listener) => response.on('close', listener),
    end: () => response.end(),
  };
}

// One push reaches every stream of its fan-out with the same name and the same JSON string, one after the other:
// the frame is encoded once for all of them.
let lastName = '';
let lastJson = '';
let lastFrame = Buffer.alloc(0);

function encodedFrame(name: string, json: string): Buffer {
  if (json !== lastJson || name !== lastName) {
    lastName = name;
    lastJson = json;
    lastFrame = Buffer.from(`event: ${name}\ndata: ${json}\n\n`);
  }
  return lastFrame;
}
