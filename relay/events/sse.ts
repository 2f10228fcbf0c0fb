import type { ServerResponse } from 'node:http';
import type { EventStream } from './event-stream.ts';

/** A reader that has not read this much of what it was sent is too slow to keep. */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;
export const KEEPALIVE_INTERVAL_MS = 15_000;

const HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** An event as it goes on the wire: the SSE frame, and the same frame as one HTTP/1.1 chunk. */
interface Frame {
  plain: Buffer;
  chunked: Buffer;
}

/**
 * Starts a Server-Sent Events stream on the response, for the world's event streams and the settings UI's feed alike:
 * no socket timeout, no Nagle delay, no proxy buffering, a comment every `keepaliveMs` so idle connections stay open,
 * and a reader that leaves more than MAX_UNREAD_BYTES unread is cut off. It lasts until the reader hangs up or `end`.
 */
export function openEventStream(response: ServerResponse, keepaliveMs = KEEPALIVE_INTERVAL_MS): EventStream {
  response.socket?.setTimeout(0);
  response.socket?.setNoDelay(true);
  response.writeHead(200, HEADERS);
  response.flushHeaders();
  const write = frameWriter(response);
  const keepalive = setInterval(() => write(KEEPALIVE), keepaliveMs);
  response.on('close', () => clearInterval(keepalive));
  return {
    send: (name, json) => write(encodedFrame(name, json)),
    comment: (text) => write(frameOf(`: ${text}\n\n`)),
    onClose: (listener) => response.on('close', listener),
    end: () => response.end(),
  };
}

/**
 * Once the headers are on the socket, each frame goes straight to it, already framed as a chunk when the response is
 * chunked: one socket write per event instead of the response's four (chunk size, CRLF, data, CRLF) gathered per tick,
 * which is most of the cost of a fan-out to a thousand streams. A response still queued behind an earlier one on its
 * connection has no socket yet and writes through the response.
 */
function frameWriter(response: ServerResponse): (frame: Frame) => void {
  const socket = response.socket;
  if (!socket) {
    return (frame) => {
      if (response.destroyed) return;
      if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
      else response.write(frame.plain);
    };
  }
  const chunked = response.chunkedEncoding;
  return (frame) => {
    if (response.destroyed || socket.destroyed) return;
    if (socket.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else socket.write(chunked ? frame.chunked : frame.plain);
  };
}

function frameOf(text: string): Frame {
  const plain = Buffer.from(text);
  return { plain, chunked: Buffer.concat([Buffer.from(`${plain.length.toString(16)}\r\n`), plain, CRLF]) };
}

const CRLF = Buffer.from('\r\n');
const KEEPALIVE = frameOf(': keepalive\n\n');

// One push reaches every stream of its fan-out with the same name and the same JSON string, one after the other:
// the frame is encoded once for all of them.
let lastName = '';
let lastJson = '';
let lastFrame = frameOf('event: \ndata: \n\n');

function encodedFrame(name: string, json: string): Frame {
  if (json !== lastJson || name !== lastName) {
    lastName = name;
    lastJson = json;
    lastFrame = frameOf(`event: ${name}\ndata: ${json}\n\n`);
  }
  return lastFrame;
}
