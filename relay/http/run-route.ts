import type { Request, RequestHandler, Response } from 'express';
import { parameterSourceOf, type Caller, type LocalRoute, type ParameterSource, type Route, type StreamRoute, type WorldRoute } from '../routing/route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { openEventStream } from '../events/sse.ts';
import type { RelayServices } from '../services.ts';
import type { WorldReply } from '../world-link/pending-requests.ts';
import type { WorldConnection } from '../world-link/world-connection.ts';
import { answeredCall, callerNamed, refusedCall } from '../admin/activity.ts';
import { apiKeyOf, checkAccess } from './access.ts';
import type { BodyReader } from './body.ts';
import { HttpError } from '../errors.ts';
import { tooManyRequests } from '../routing/rate-limit.ts';
import { sendJsonText } from './respond.ts';
import { httpCallContext, writeAnswer } from './write-answer.ts';
import { callWorld, hasError, parseHeaders, parseParameters, prepareStream, requireScope, takeCaller, type Fields } from '../routing/call.ts';

const MAX_BODY_DEPTH = 64;

/**
 * The one handler behind every route table entry: check access, read the body (never before: a caller who may not
 * call the route cannot make the relay read, inflate or buffer anything), parse parameters, then answer as the entry
 * says. A call to a keyed route goes into the activity log, answered or refused, with the reason it was refused.
 */
export function handlerFor(route: Route, services: RelayServices, readBody: BodyReader): RequestHandler {
  const from = parameterSourceOf(route);
  const { access } = route;
  if (typeof access !== 'object') {
    return async (request, response) => {
      checkAccess(access, request, services);
      await answer(route, from, readBody, undefined, services, request, response);
    };
  }
  return async (request, response) => {
    const started = performance.now();
    let key: ApiKeyRecord | undefined;
    let worldRefusal: string | undefined;
    try {
      key = apiKeyOf(request, services);
      requireScope(key, access.scope);
      if (services.network.paused()) throw new HttpError(503, 'Tabletop Relay is paused; resume it from the tray menu');
      applyRateLimit(key, services, response);
      worldRefusal = await answer(route, from, readBody, key, services, request, response);
    } catch (error) {
      services.activity.record(refusedCall(callerNamed(key, request.headers['x-api-key']), request.method, request.path, error, started));
      throw error;
    }
    const caller = { keyName: key.name };
    services.activity.record(
      worldRefusal === undefined
        ? answeredCall(caller, request.method, request.path, response.statusCode, started)
        : refusedCall(caller, request.method, request.path, new HttpError(response.statusCode, worldRefusal), started),
    );
  };
}

/**
 * Notes a call that found no route (a wrong path or method) when it carries an API key: a tool's typo explains a button
 * that does nothing as much as a refusal does. Calls without a key (browsers, scanners) are not noted.
 */
export function recordMiss(request: Request, error: unknown, services: RelayServices): void {
  const presented = request.headers['x-api-key'];
  if (presented === undefined) return;
  const key = typeof presented === 'string' && presented !== '' ? services.keys.verify(presented) : undefined;
  services.activity.record(refusedCall(callerNamed(key, presented), request.method, request.path, error, performance.now()));
}

/** Reads the body and parameters and answers; resolves with the world's error when the world refused the call. */
async function answer(route: Route, from: ParameterSource, readBody: BodyReader, key: ApiKeyRecord | undefined, services: RelayServices, request: Request, response: Response): Promise<string | undefined> {
  await readBody(request, response);
  const raw = rawParameters(request, from);
  if (route.kind === 'local') {
    await answerLocally(route, parseParameters(route, raw), key, services, request, response);
    return undefined;
  }
  const caller = takeCaller(raw, request.query.clientId, key);
  const parameters = parseParameters(route, raw);
  if (route.kind === 'world') return answerFromWorld(route, parameters, caller, services, response);
  openStream(route, parameters, caller, services, response);
  return undefined;
}

/** Counts the call against its key; over the limit it is a 429 that says when to come back. */
function applyRateLimit(key: ApiKeyRecord, services: RelayServices, response: Response): void {
  const decision = services.rateLimiter.take(key.id);
  if (!decision) return;
  response.setHeader('RateLimit-Limit', decision.limit);
  response.setHeader('RateLimit-Remaining', decision.remaining);
  response.setHeader('RateLimit-Reset', decision.resetSeconds);
  if (decision.allowed) return;
  response.setHeader('Retry-After', decision.retryAfterSeconds);
  throw tooManyRequests(decision);
}

function rawParameters(request: Request, from: ParameterSource): Fields {
  const query = request.query as Fields;
  const path = request.params as Fields;
  if (from === 'query') return { ...query, ...path };
  const body = bodyOf(request);
  return from === 'body' ? { ...body, userId: body.userId ?? query.userId, ...path } : { ...query, ...body, ...path };
}

function bodyOf(request: Request): Fields {
  const body: unknown = request.body;
  if (body === undefined || body === null) return {};
  if (Buffer.isBuffer(body)) return body.length === 0 ? {} : { fileData: dataUrlOf(body, request.get('content-type')) };
  if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body must be a JSON object');
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) throw new HttpError(400, `The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  return body as Fields;
}

function dataUrlOf(bytes: Buffer, contentType: string | undefined): string {
  const mimeType = contentType?.split(';')[0]?.trim() || 'application/octet-stream';
  return `data:${mimeType};base64,${bytes.toString('base64')}`;
}

/** Walks the body without recursion, so no body can exhaust the stack here or later when it is sent on as JSON. */
function nestedDeeperThan(value: object, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Object.values(current as object)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Answers with what the world sent; resolves with the world's error when it refused the call. */
async function answerFromWorld(route: WorldRoute, parameters: Fields, caller: Caller, services: RelayServices, response: Response): Promise<string | undefined> {
  const own = await route.answerInRelay?.(parameters, caller, services);
  if (own) {
    response.writeHead(200, own.headers).end(own.bytes);
    return undefined;
  }
  const { world, reply } = await callWorld(route, parameters, caller, services);
  if (route.reply === 'image' || (route.reply === 'file' && parameters.format !== 'base64')) {
    sendBytes(route, route.reply, world, reply, parameters, response);
    return undefined;
  }
  const refused = hasError(reply.message);
  sendJsonText(response, refused ? 400 : 200, reply.text);
  if (!refused) return undefined;
  return typeof reply.message.error === 'string' ? reply.message.error : 'The world refused the call';
}

/** Decodes the data URL a world answers with (`imageData` or `fileData`, at the top or under `data`) into bytes. */
function sendBytes(route: WorldRoute, kind: 'image' | 'file', world: WorldConnection, reply: WorldReply, parameters: Fields, response: Response): void {
  const { message } = reply;
  const nested = typeof message.data === 'object' && message.data !== null ? (message.data as Fields) : {};
  const field = kind === 'image' ? 'imageData' : 'fileData';
  const dataUrl = message[field] ?? nested[field];
  if (hasError(message) || message.success === false || typeof dataUrl !== 'string') {
    const error = typeof message.error === 'string' ? message.error : `The world sent no ${kind}`;
    throw new HttpError(400, error, { requestId: message.requestId });
  }
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const mimeType = () => mediaType(world, message.mimeType ?? nested.mimeType ?? /^data:([^;,]*)/.exec(dataUrl)?.[1]);
  const headers: Record<string, string> = { 'Content-Length': String(bytes.length) };
  if (kind === 'image') {
    headers['Content-Type'] = parameters.format === 'jpeg' ? 'image/jpeg' : parameters.format === 'png' ? 'image/png' : mimeType();
    headers['X-Image-Width'] = pixelCount(world, 'width', message.width ?? nested.width);
    headers['X-Image-Height'] = pixelCount(world, 'height', message.height ?? nested.height);
  } else {
    headers['Content-Type'] = mimeType();
    headers['Content-Disposition'] = attachment(world, message.filename ?? nested.filename);
  }
  response.status(200).set({ ...headers, ...route.replyHeaders }).end(bytes);
}

// A world's answer is not trusted to be well formed: a value that cannot go into a header as it is would break
// the answer (or split it, with CR/LF), so it is a 502 that names the world, not a 500 of the relay's own.

const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+([ \t]*;[ \t]*[\w!#$&^.+-]+=([\w!#$&^.+-]+|"[\x20\x21\x23-\x5b\x5d-\x7e]*"))*$/;
/** Control characters split or break headers; a lone surrogate cannot be encoded in `filename*`. */
const UNSENDABLE_IN_NAME = /[\x00-\x1f\x7f]|\p{Cs}/u;

function mediaType(world: WorldConnection, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'application/octet-stream';
  if (typeof value !== 'string' || !MEDIA_TYPE.test(value)) throw worldSentBadHeader(world, 'mimeType', value);
  return value;
}

function pixelCount(world: WorldConnection, name: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const count = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw worldSentBadHeader(world, name, value);
  return String(count);
}

/** `attachment` with the file's name: ASCII as it is, other characters in `filename*` (RFC 6266) with an ASCII fallback. */
function attachment(world: WorldConnection, value: unknown): string {
  const filename = value === undefined || value === null || value === '' ? 'download' : value;
  if (typeof filename !== 'string' || UNSENDABLE_IN_NAME.test(filename)) throw worldSentBadHeader(world, 'filename', value);
  const fallback = filename.replace(/["\\]|[^\x20-\x7e]/g, '_');
  if (/^[\x20-\x7e]*$/.test(filename)) return `attachment; filename="${fallback}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function worldSentBadHeader(world: WorldConnection, field: string, value: unknown): HttpError {
  const name = world.metadata.customName ?? world.metadata.worldTitle ?? world.metadata.worldId ?? 'a world';
  return new HttpError(
    502,
    `The world "${name}" (${world.clientId}) answered with a ${field} that cannot be sent as an HTTP header: ${JSON.stringify(value).slice(0, 100)}; its module is faulty or hostile`,
    { clientId: world.clientId },
  );
}

function openStream(route: StreamRoute, parameters: Fields, caller: Caller, services: RelayServices, response: Response): void {
  const { clientId, filter, ownerId } = prepareStream(route, parameters, caller, services);
  openEventStream(services.events, response, clientId, route.stream, filter, ownerId);
}

async function answerLocally(route: LocalRoute, parameters: Fields, key: ApiKeyRecord | undefined, services: RelayServices, request: Request, response: Response): Promise<void> {
  const call = httpCallContext(request);
  const headers = parseHeaders(route, call.header);
  const answer = await route.handle({ parameters, headers, key, call, services, request, response });
  if (response.headersSent) return;
  writeAnswer(response, answer);
}

