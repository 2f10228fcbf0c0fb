import type { Request, RequestHandler, Response } from 'express';
import { withoutUndefined } from '../objects.ts';
import { describeIssue } from '../api/parameters.ts';
import type { LocalRoute, ParameterSource, Route, StreamRoute, WorldRoute } from '../api/route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { RelayServices } from '../services.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import { checkAccess } from './access.ts';
import { HttpError } from './errors.ts';
import { resolveUserId, resolveWorld } from './world-resolution.ts';

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_BODY_DEPTH = 64;

type Fields = Record<string, unknown>;

/** The one handler behind every route table entry: check access, parse parameters, then answer as the entry says. */
export function handlerFor(route: Route, services: RelayServices): RequestHandler {
  const from: ParameterSource = route.from ?? (route.method === 'GET' ? 'query' : 'body+query');
  return async (request, response) => {
    const key = checkAccess(route.access, request, services);
    if (key) applyRateLimit(key, services, response);
    const raw = rawParameters(request, from);
    if (route.kind === 'local') {
      return answerLocally(route, parse(route, raw), key, services, request, response);
    }
    const caller = callerOf(raw, request, key);
    const parameters = parse(route, raw);
    if (route.kind === 'world') return answerFromWorld(route, parameters, caller, services, response);
    return openStream(route, parameters, caller, services, response);
  };
}

/** The parameters every tabletop route shares, taken out of the route's own: the world and the acting user. */
function callerOf(raw: Fields, request: Request, key: ApiKeyRecord | undefined): Caller {
  const clientId = takeText(raw, 'clientId', request.query.clientId);
  const userId = resolveUserId(takeText(raw, 'userId', raw.userId), key);
  return { clientId, userId, key };
}

/** Counts the call against its key; over the limit it is a 429 that says when to come back. */
function applyRateLimit(key: ApiKeyRecord, services: RelayServices, response: Response): void {
  const decision = services.rateLimiter.take(key.id);
  if (!decision) return;
  response.set({
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  });
  if (decision.allowed) return;
  response.set('Retry-After', String(decision.retryAfterSeconds));
  throw new HttpError(429, `Too many requests: this API key may make ${decision.limit} per minute; retry in ${decision.retryAfterSeconds} s`);
}

interface Caller {
  clientId: string | undefined;
  userId: string | undefined;
  key: ApiKeyRecord | undefined;
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

/** Removes a common parameter from the raw ones and checks it is a non-empty string. */
function takeText(raw: Fields, name: string, value: unknown): string | undefined {
  delete raw[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `'${name}' must be a string`);
  return value.trim() || undefined;
}

function parse(route: Route, raw: Fields): Fields {
  for (const name of Object.keys(raw)) if (raw[name] === '') delete raw[name];
  const result = route.parameters.safeParse(raw);
  if (!result.success) throw new HttpError(400, describeIssue(result.error.issues[0]!, raw));
  return result.data;
}

function timeoutOf(route: WorldRoute, services: RelayServices): number {
  return services.timeoutOverrideMs ?? route.timeoutMs ?? DEFAULT_TIMEOUT_MS;
}

async function answerFromWorld(route: WorldRoute, parameters: Fields, caller: Caller, services: RelayServices, response: Response): Promise<void> {
  const extraScope = route.alsoRequires?.(parameters);
  if (extraScope && caller.key && !caller.key.scopes.includes(extraScope)) {
    throw new HttpError(403, `API key lacks required scope: ${extraScope}`, { requiredScope: extraScope });
  }
  const world = resolveWorld(services.tabletop, caller.clientId, caller.key);
  const message = withoutUndefined(route.message ? route.message(parameters) : parameters);
  if (caller.userId !== undefined) message.userId = caller.userId;
  if (caller.key) message._scopes = caller.key.scopes;
  const reply = await services.tabletop.request(world, route.operation, message, timeoutOf(route, services));
  if (route.reply === 'image' || (route.reply === 'file' && parameters.format !== 'base64')) {
    sendBytes(route, route.reply, reply, parameters, response);
    return;
  }
  response.status(hasError(reply.message) ? 400 : 200).type('application/json').send(reply.text);
}

function hasError(message: Fields): boolean {
  return message.error !== undefined && message.error !== null && message.error !== false;
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
  const world = resolveWorld(services.tabletop, caller.clientId, caller.key);
  const ownerId = caller.key?.id ?? 'anonymous';
  const cap = services.settings.get().streamsPerKey;
  if (cap > 0 && services.events.countOwnedBy(ownerId) >= cap) {
    throw new HttpError(429, `This API key already holds ${cap} open event streams, the most it may; close one, or raise the limit in the settings`);
  }
  const filter = withoutUndefined({ ...route.filter(parameters), userId: caller.userId });
  services.events.open(response, world.clientId, route.stream, filter, ownerId);
}

async function answerLocally(route: LocalRoute, parameters: Fields, key: ApiKeyRecord | undefined, services: RelayServices, request: Request, response: Response): Promise<void> {
  const answer = await route.handle({ parameters, key, request, response, services });
  if (response.headersSent) return;
  response.status(answer.status ?? 200).json(answer.body);
}

