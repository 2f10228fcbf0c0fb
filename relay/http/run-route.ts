import type { Request, RequestHandler, Response } from 'express';
import type { LocalRoute, ParameterSource, Route, StreamRoute, WorldRoute } from '../api/route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { openEventStream } from '../events/sse.ts';
import type { RelayServices } from '../services.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import { checkAccess } from './access.ts';
import { HttpError } from './errors.ts';
import { tooManyRequests } from './rate-limit.ts';
import { sendJson, sendJsonText } from './respond.ts';
import { callWorld, hasError, parseParameters, prepareStream, takeCaller, type Caller, type Fields } from './route-call.ts';

const MAX_BODY_DEPTH = 64;

/** The one handler behind every route table entry: check access, parse parameters, then answer as the entry says. */
export function handlerFor(route: Route, services: RelayServices): RequestHandler {
  const from: ParameterSource = route.from ?? (route.method === 'GET' ? 'query' : 'body+query');
  return async (request, response) => {
    const key = checkAccess(route.access, request, services);
    if (key) {
      recordActivity(key, request, response, services);
      if (services.network.paused()) throw new HttpError(503, 'Tabletop Relay is paused; resume it from the tray menu');
      applyRateLimit(key, services, response);
    }
    const raw = rawParameters(request, from);
    if (route.kind === 'local') {
      return answerLocally(route, parseParameters(route, raw), key, services, request, response);
    }
    const caller = takeCaller(raw, request.query.clientId, key);
    const parameters = parseParameters(route, raw);
    if (route.kind === 'world') return answerFromWorld(route, parameters, caller, services, response);
    return openStream(route, parameters, caller, services, response);
  };
}

/** Notes the call in the activity log once answered: the key's name and the path, never the key or the query. */
function recordActivity(key: ApiKeyRecord, request: Request, response: Response, services: RelayServices): void {
  const started = performance.now();
  response.once('finish', () => {
    services.activity.record({
      at: Date.now(),
      keyName: key.name,
      method: request.method,
      path: request.path,
      status: response.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  });
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

async function answerFromWorld(route: WorldRoute, parameters: Fields, caller: Caller, services: RelayServices, response: Response): Promise<void> {
  const own = await route.answerInRelay?.(parameters, caller, services);
  if (own) {
    response.writeHead(200, own.headers).end(own.bytes);
    return;
  }
  const { reply } = await callWorld(route, parameters, caller, services);
  if (route.reply === 'image' || (route.reply === 'file' && parameters.format !== 'base64')) {
    sendBytes(route, route.reply, reply, parameters, response);
    return;
  }
  sendJsonText(response, hasError(reply.message) ? 400 : 200, reply.text);
}

/** Decodes the data URL a world answers with (`imageData` or `fileData`, at the top or under `data`) into bytes. */
function sendBytes(route: WorldRoute, kind: 'image' | 'file', reply: WorldReply, parameters: Fields, response: Response): void {
  const { message } = reply;
  const nested = typeof message.data === 'object' && message.data !== null ? (message.data as Fields) : {};
  const field = kind === 'image' ? 'imageData' : 'fileData';
  const dataUrl = message[field] ?? nested[field];
  if (hasError(message) || message.success === false || typeof dataUrl !== 'string') {
    const error = typeof message.error === 'string' ? message.error : `The world sent no ${kind}`;
    throw new HttpError(400, error, { requestId: message.requestId });
  }
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  const mimeType = String(message.mimeType ?? nested.mimeType ?? (/^data:([^;,]+)/.exec(dataUrl)?.[1] ?? 'application/octet-stream'));
  const headers: Record<string, string> = { 'Content-Length': String(bytes.length) };
  if (kind === 'image') {
    headers['Content-Type'] = parameters.format === 'jpeg' ? 'image/jpeg' : parameters.format === 'png' ? 'image/png' : mimeType;
    headers['X-Image-Width'] = String(message.width ?? nested.width ?? '');
    headers['X-Image-Height'] = String(message.height ?? nested.height ?? '');
  } else {
    const filename = String(message.filename ?? nested.filename ?? 'download').replace(/["\\\r\n]/g, '_');
    headers['Content-Type'] = mimeType;
    headers['Content-Disposition'] = `attachment; filename="${filename}"`;
  }
  response.status(200).set({ ...headers, ...route.headers }).end(bytes);
}

function openStream(route: StreamRoute, parameters: Fields, caller: Caller, services: RelayServices, response: Response): void {
  const { clientId, filter, ownerId } = prepareStream(route, parameters, caller, services);
  openEventStream(services.events, response, clientId, route.stream, filter, ownerId);
}

async function answerLocally(route: LocalRoute, parameters: Fields, key: ApiKeyRecord | undefined, services: RelayServices, request: Request, response: Response): Promise<void> {
  const answer = await route.handle({ parameters, key, request, response, services });
  if (response.headersSent) return;
  sendJson(response, answer.status ?? 200, answer.body);
}

