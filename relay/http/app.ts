import type { RequestHandler as StaticFiles, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { existsSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Route } from '../routing/route.ts';
import type { Fields } from '../routing/call.ts';
import { recordMiss, runCall, type CallInput } from '../routing/pipeline.ts';
import { presentedKey } from '../routing/access.ts';
import type { RateDecision } from '../routing/rate-limit.ts';
import type { RelayServices } from '../services.ts';
import { HttpError } from '../errors.ts';
import { Router, type RouteMatch } from './router.ts';
import { isLoopback } from '../gate/addresses.ts';
import { hostGate } from '../gate/request-gate.ts';
import { carriesApiKey, KEY_IN_URL_REFUSAL, noteKeyInUrl } from '../gate/key-in-url.ts';
import { bodyReaderFor, DEFAULT_UPLOAD_LIMIT_BYTES } from './body.ts';
import { httpCallContext, writeAnswer, writeError, writeJson } from './write-answer.ts';

export interface HttpOptions {
  /** The largest body an upload route takes. */
  uploadLimitBytes?: number;
  /** How often an event stream sends a keepalive comment. */
  keepaliveMs?: number;
  /** The settings UI's built files, served under /admin/; none without it. */
  settingsUiDir?: string;
  /** The MCP endpoint for AI assistants, answering /mcp (relay/mcp/). */
  mcp?: { path: string; handle(request: IncomingMessage, response: ServerResponse, query: string): void };
}

/**
 * The HTTP transport on node:http: the Host gate, CORS for callers' browsers, the settings UI's files, then every route
 * table entry through the routing kernel's one call pipeline, its answer or error written as JSON, HTML, bytes, a
 * redirect or an event stream. A route's body is read only once its caller is let in, and only if the route takes one.
 */
export function createRequestListener(
  routes: readonly Route[],
  services: RelayServices,
  options: HttpOptions = {},
): RequestListener {
  const router = buildRouter(routes, options.uploadLimitBytes);
  const refusal = hostGate(services);
  const adminPages = adminPagesOf(options.settingsUiDir);
  const fail = (response: ServerResponse) => (error: unknown) => writeError(response, error, services.log);
  const answer = (request: IncomingMessage, response: ServerResponse, path: string, query: string) => {
    let match: RouteMatch;
    try {
      match = routeOf(router, request, path, services);
    } catch (error) {
      fail(response)(error);
      return;
    }
    runCall(callInput(match, request, response, path, query), services)
      .then((result) => writeAnswer(response, result, options.keepaliveMs))
      .catch(fail(response));
  };
  return (request, response) => {
    const url = request.url ?? '/';
    if (carriesApiKey(url)) {
      noteKeyInUrl(url, request.method ?? 'GET', services);
      return writeJson(response, 401, { error: KEY_IN_URL_REFUSAL });
    }
    const hostRefusal = refusal(request);
    if (hostRefusal !== undefined) return writeJson(response, 421, { error: hostRefusal });
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    if (cors(request, response, path, services)) return;
    const query = mark < 0 ? '' : url.slice(mark + 1);
    if (path === options.mcp?.path) return options.mcp.handle(request, response, query);
    if (!isAdminPath(path)) return answer(request, response, path, query);
    adminPages(request, response, path).then(
      (served) => served || answer(request, response, path, query),
      fail(response),
    );
  };
}

/** Every route table entry behind one lookup, each with the body reader its calls use after the access check. */
export function buildRouter(routes: readonly Route[], uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES): Router {
  const router = new Router();
  for (const route of routes) router.add({ route, readBody: bodyReaderFor(route, uploadLimitBytes) });
  return router;
}

/** The route for the request; a wrong method or path (or path segment) is noted in the activity log when a key came with it. */
function routeOf(router: Router, request: IncomingMessage, path: string, services: RelayServices): RouteMatch {
  const method = request.method ?? 'GET';
  try {
    const match = router.find(method, path);
    if (match) return match;
    throw new HttpError(404, `Unknown endpoint: ${method} ${path}`);
  } catch (error) {
    recordMiss(presentedKey(request.headers), { method, path }, error, services);
    throw error;
  }
}

const NO_QUERY: Fields = Object.freeze({}) as Fields;

function callInput(
  { entry, pathParameters }: RouteMatch,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  queryText: string,
): CallInput {
  // Express's default ("simple") query parser is node:querystring: a repeated key is a list, `a[b]` a plain name.
  const query: Fields = queryText === '' ? NO_QUERY : parseQueryString(queryText);
  const { readBody } = entry;
  return {
    route: entry.route,
    call: httpCallContext(request),
    logged: { method: request.method ?? 'GET', path },
    presentedKey: presentedKey(request.headers),
    clientId: query.clientId,
    query,
    pathParameters,
    readBody: readBody && (() => readBody(request)),
    onRateLimit: (decision) => setRateLimitHeaders(response, decision),
    dryRun: request.headers['x-dry-run'],
  };
}

function setRateLimitHeaders(response: ServerResponse, decision: RateDecision): void {
  response.setHeader('RateLimit-Limit', decision.limit);
  response.setHeader('RateLimit-Remaining', decision.remaining);
  response.setHeader('RateLimit-Reset', decision.resetSeconds);
  if (!decision.allowed) response.setHeader('Retry-After', decision.retryAfterSeconds);
}

const ADMIN_PATHS = ['/admin', '/auth/api-keys'];
const EXPOSED_HEADERS =
  'Content-Disposition, Content-Type, X-Image-Width, X-Image-Height, X-Sheet-Source, X-Required-Scope, Retry-After, Allow, Mcp-Session-Id, WWW-Authenticate';
/** The module calls these from the Foundry page while pairing, whatever origins the GM allowed for API calls. */
const PAIRING_PATHS = ['/auth/pair', '/api/clients/', '/api/self-unpair', '/api/status'];
const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'Accept, Authorization, Content-Type, X-API-Key, X-Dry-Run, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};

/**
 * The Foundry page may call the pairing paths; other web pages only from the origins the GM allowed; the admin API
 * never. True when the request was a preflight, answered here.
 */
function cors(request: IncomingMessage, response: ServerResponse, path: string, services: RelayServices): boolean {
  if (startsWithAny(path, ADMIN_PATHS)) return false;
  const origin = allowedOrigin(path, request.headers.origin, services.settings.get().corsOrigins);
  if (origin === undefined) return false;
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (origin !== '*') response.setHeader('Vary', 'Origin');
  if (request.method !== 'OPTIONS') return false;
  response.writeHead(204, PREFLIGHT_HEADERS).end();
  return true;
}

/** The Access-Control-Allow-Origin for a request, or undefined when its page may not call the API. */
function allowedOrigin(path: string, origin: string | undefined, corsOrigins: readonly string[]): string | undefined {
  if (startsWithAny(path, PAIRING_PATHS) || corsOrigins.includes('*')) return '*';
  return origin !== undefined && corsOrigins.includes(origin) ? origin : undefined;
}

function startsWithAny(path: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) if (path.startsWith(prefix)) return true;
  return false;
}

function isAdminPath(path: string): boolean {
  return path.startsWith('/admin') && (path.length === 6 || path[6] === '/');
}

/**
 * The settings UI's own policy (renderer/index.html), plus what a meta tag cannot say: no page may frame it. It frames
 * only the relay's own pages (the Overlays page's live preview).
 */
const ADMIN_PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

type AdminPages = (request: IncomingMessage, response: ServerResponse, path: string) => Promise<boolean>;

/**
 * The settings UI's files, from the renderer build, for browsers on this computer only; never framed, no source maps.
 * Everything under /admin carries the page headers; resolves true when a file answered the request.
 */
function adminPagesOf(settingsUiDir: string | undefined): AdminPages {
  // Express serves these files alone, loaded on the first page asked for: the API's path never runs it.
  let files: Promise<StaticFiles> | undefined;
  const filesOf = (dir: string) =>
    (files ??= import('express').then(({ default: express }) =>
      express.static(dir, { index: 'index.html', fallthrough: true }),
    ));
  return async (request, response, path) => {
    for (const [name, value] of Object.entries(ADMIN_PAGE_HEADERS)) response.setHeader(name, value);
    if (request.method !== 'GET' || !isLoopback(request.socket.remoteAddress) || path.endsWith('.map')) return false;
    const filePath = path.slice('/admin'.length) || '/';
    if (filePath === '/' && (settingsUiDir === undefined || !existsSync(settingsUiDir))) {
      throw new HttpError(404, 'The settings UI is not built yet: run npm run build:app');
    }
    if (settingsUiDir === undefined) return false;
    return serveFile(await filesOf(settingsUiDir), request, response, filePath);
  };
}

/** Runs the static file server on the path below /admin, as a mounted Express middleware would see it. */
function serveFile(
  files: StaticFiles,
  request: IncomingMessage,
  response: ServerResponse,
  filePath: string,
): Promise<boolean> {
  const originalUrl = request.url ?? '/';
  const mark = originalUrl.indexOf('?');
  const mounted = Object.assign(request, { originalUrl, url: filePath + (mark < 0 ? '' : originalUrl.slice(mark)) });
  return new Promise((resolve, reject) => {
    const served = () => resolve(true);
    const next = (error?: unknown) => {
      request.url = originalUrl;
      response.off('finish', served);
      if (error) reject(error);
      else resolve(false);
    };
    response.once('finish', served);
    void files(mounted as unknown as ExpressRequest, response as unknown as ExpressResponse, next);
  });
}
