import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Answer, AnswerHeaders, CallContext, EventStream } from '../routing/route.ts';
import { normalisedAddress } from './addresses.ts';
import { sendJsonText } from './respond.ts';

/** A subscriber that has not read this much of what it was sent is too slow to keep. */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;

/** The call as an HTTP request tells it, without the request itself. */
export function httpCallContext(request: IncomingMessage): CallContext {
  const protocol = (request.socket as TLSSocket).encrypted ? 'https' : 'http';
  return {
    transport: 'http',
    remoteAddress: normalisedAddress(request.socket.remoteAddress),
    relayOrigin: `${protocol}://${request.headers.host ?? 'localhost'}`,
    header: (name) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Writes a local route's answer with Node's own response methods. */
export function writeAnswer(response: ServerResponse, answer: Answer): void {
  switch (answer.kind) {
    case undefined:
    case 'json':
      setHeaders(response, answer.headers);
      sendJsonText(response, answer.status ?? 200, JSON.stringify(answer.body));
      return;
    case 'html':
      setHeaders(response, answer.headers);
      writeBody(response, answer.status ?? 200, 'text/html; charset=utf-8', Buffer.from(answer.html));
      return;
    case 'bytes':
      setHeaders(response, answer.headers);
      writeBody(response, answer.status ?? 200, undefined, answer.bytes);
      return;
    case 'redirect':
      setHeaders(response, answer.headers);
      response.setHeader('Location', answer.location);
      writeBody(response, answer.status ?? 302, undefined, new Uint8Array());
      return;
    case 'events':
      answer.open(openEvents(response));
  }
}

function setHeaders(response: ServerResponse, headers: AnswerHeaders | undefined): void {
  for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
}

function writeBody(response: ServerResponse, status: number, contentType: string | undefined, bytes: Uint8Array): void {
  response.statusCode = status;
  if (contentType !== undefined) response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Length', bytes.byteLength);
  response.end(bytes);
}

/**
 * Starts a Server-Sent Events stream: no socket timeout, no Nagle delay, no proxy buffering, a comment every 15 s so
 * idle connections stay open, and a caller that leaves more than MAX_UNREAD_BYTES unread is cut off.
 */
function openEvents(response: ServerResponse): EventStream {
  response.socket?.setTimeout(0);
  response.socket?.setNoDelay(true);
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  const write = (chunk: string) => {
    if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    else response.write(chunk);
  };
  const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
  response.on('close', () => clearInterval(keepalive));
  return {
    send: (name, json) => write(`event: ${name}\ndata: ${json}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    onClose: (listener) => response.on('close', listener),
    end: () => response.end(),
  };
}
