import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AnswerHeaders, CallContext } from '../routing/route.ts';
import type { CallAnswer } from '../routing/pipeline.ts';
import { answerFor, HttpError, UNEXPECTED_ANSWER } from '../errors.ts';
import { openEventStream } from '../events/sse.ts';
import type { RelayLog } from '../log.ts';
import { normalisedAddress } from '../gate/addresses.ts';
import { hasBody } from './body.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

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

/** Writes a call's answer with Node's own response methods; `keepaliveMs` paces an event stream's comments. */
export function writeAnswer(response: ServerResponse, answer: CallAnswer, keepaliveMs?: number): void {
  switch (answer.kind) {
    case 'world-json':
      writeText(response, answer.status, JSON_TYPE, answer.text);
      return;
    case undefined:
    case 'json':
      setHeaders(response, answer.headers);
      writeText(response, answer.status ?? 200, JSON_TYPE, JSON.stringify(answer.body));
      return;
    case 'html':
      setHeaders(response, answer.headers);
      writeText(response, answer.status ?? 200, HTML_TYPE, answer.html);
      return;
    case 'bytes':
      setHeaders(response, answer.headers);
      writeBytes(response, answer.status ?? 200, answer.bytes);
      return;
    case 'image':
      response.setHeader('Content-Type', answer.mimeType);
      response.setHeader('X-Image-Width', answer.width === undefined ? '' : String(answer.width));
      response.setHeader('X-Image-Height', answer.height === undefined ? '' : String(answer.height));
      setHeaders(response, answer.headers);
      writeBytes(response, answer.status ?? 200, answer.bytes);
      return;
    case 'redirect':
      setHeaders(response, answer.headers);
      response.setHeader('Location', answer.location);
      writeBytes(response, answer.status ?? 302, new Uint8Array());
      return;
    case 'events':
      answer.open(openEventStream(response, keepaliveMs));
  }
}

/**
 * Writes an error as its `{error}` JSON answer, with the error's headers (Retry-After, X-Required-Scope…). An error
 * the relay did not expect is logged and answered with a 500 that tells nothing of it; after the answer began, the
 * connection ends.
 */
export function writeError(response: ServerResponse, error: unknown, log: RelayLog): void {
  let answer = answerFor(error);
  if (!answer) {
    log.error('Unexpected error while answering a request:', error);
    answer = UNEXPECTED_ANSWER;
  }
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof HttpError) setHeaders(response, error.headers);
  // A refused caller's body is not worth reading to its end: the connection closes instead.
  if (hasBody(response.req) && !response.req.complete) response.setHeader('Connection', 'close');
  writeJson(response, answer.status, answer.body);
}

export function writeJson(response: ServerResponse, status: number, body: unknown): void {
  writeText(response, status, JSON_TYPE, JSON.stringify(body));
}

function setHeaders(response: ServerResponse, headers: AnswerHeaders | undefined): void {
  if (headers === undefined) return;
  for (const name in headers) response.setHeader(name, headers[name]!);
}

// Node sets Content-Length itself when the whole body goes out with `end` before any header was sent.

function writeText(response: ServerResponse, status: number, contentType: string, text: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', contentType);
  response.end(text);
}

function writeBytes(response: ServerResponse, status: number, bytes: Uint8Array): void {
  response.statusCode = status;
  response.end(bytes);
}
