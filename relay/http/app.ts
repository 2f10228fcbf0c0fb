import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { answerFor, HttpError, RetryLater, UNEXPECTED_ANSWER, type ErrorAnswer } from '../errors.ts';
import { handlerFor, recordMiss } from './run-route.ts';
import { Router } from './router.ts';
import { sendJson } from './respond.ts';
import { isLoopback } from './addresses.ts';
import { hostGate } from './request-gate.ts';
import { bodyReaderFor, DEFAULT_UPLOAD_LIMIT_BYTES } from './body.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RelayLog } from '../log.ts';

const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));

/**
 * The Express application: CORS for callers' browsers, every route table entry, and JSON errors. Each route reads its
 * own body once the caller is let in; `uploadLimitBytes` caps the routes that take files.
 */
export function createApp(routes: readonly Route[], services: RelayServices, uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(hostGate(services));
  app.use(cors(services));
  app.use('/admin', adminPages());
  app.use(missesRecorded(buildRouter(routes, services, uploadLimitBytes).dispatch, services));
  app.use(unknownEndpoint(services));
  app.use(errorHandler(services.log));
  return app;
}

const ADMIN_PATHS = ['/admin', '/auth/api-keys'];
const EXPOSED_HEADERS = 'Content-Disposition, Content-Type, X-Image-Width, X-Image-Height, X-Sheet-Source';
/** The module calls these from the Foundry page while pairing, whatever origins the GM allowed for API calls. */
const PAIRING_PATHS = ['/auth/pair', '/api/clients/', '/api/self-unpair', '/api/status'];

/** The Access-Control-Allow-Origin for a request, or undefined when its page may not call the API. */
function allowedOrigin(path: string, origin: string | undefined, corsOrigins: readonly string[]): string | undefined {
  if (PAIRING_PATHS.some((prefix) => path.startsWith(prefix)) || corsOrigins.includes('*')) return '*';
  return origin !== undefined && corsOrigins.includes(origin) ? origin : undefined;
}

/** Every route table entry behind one dispatch, each with the body reader its handler calls after the access check. */
export function buildRouter(routes: readonly Route[], services: RelayServices, uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES): Router {
  const router = new Router();
  for (const route of routes) router.add(route, [handlerFor(route, services, bodyReaderFor(route, uploadLimitBytes))]);
  return router;
}

/** The Foundry page may call the pairing paths; other web pages only from the origins the GM allowed; the admin API never. */
function cors(services: RelayServices): RequestHandler {
  return (request, response, next) => {
    if (ADMIN_PATHS.some((prefix) => request.path.startsWith(prefix))) {
      next();
      return;
    }
    const origin = allowedOrigin(request.path, request.headers.origin, services.settings.get().corsOrigins);
    if (origin === undefined) {
      next();
      return;
    }
    answerCors(origin, request, response, next);
  };
}

function answerCors(origin: string, request: Request, response: Response, next: () => void): void {
  response.setHeader('Access-Control-Allow-Origin', origin);
  response.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (origin !== '*') response.vary('Origin');
  if (request.method !== 'OPTIONS') {
    next();
    return;
  }
  response
    .set({
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, X-API-Key',
      'Access-Control-Max-Age': '600',
    })
    .status(204)
    .end();
}

/** The settings UI's own policy (renderer/index.html), plus what a meta tag cannot say: no page may frame it. */
const ADMIN_PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** The settings UI's files, from the renderer build, for browsers on this computer only; never framed, no source maps. */
function adminPages(): RequestHandler {
  const files = express.static(RENDERER_DIR, { index: 'index.html', fallthrough: true });
  return (request, response, next) => {
    response.set(ADMIN_PAGE_HEADERS);
    if (request.method !== 'GET' || !isLoopback(request.socket.remoteAddress) || request.path.endsWith('.map')) {
      next();
      return;
    }
    if (request.path === '/' && !existsSync(RENDERER_DIR)) {
      throw new HttpError(404, 'The settings UI is not built yet: run npm run build:app');
    }
    files(request, response, next);
  };
}

/** The router, with a wrong method or path segment (thrown before any route runs) noted in the activity log. */
function missesRecorded(dispatch: RequestHandler, services: RelayServices): RequestHandler {
  return (request, response, next) => {
    try {
      dispatch(request, response, next);
    } catch (error) {
      recordMiss(request, error, services);
      throw error;
    }
  };
}

function unknownEndpoint(services: RelayServices): RequestHandler {
  return (request) => {
    const error = new HttpError(404, `Unknown endpoint: ${request.method} ${request.path}`);
    recordMiss(request, error, services);
    throw error;
  };
}

function errorHandler(log: RelayLog): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const { status, body } = describeError(error, log);
    if (error instanceof RetryLater) response.setHeader('Retry-After', error.retryAfterSeconds);
    sendJson(response, status, body);
  };
}

function describeError(error: unknown, log: RelayLog): ErrorAnswer {
  const answer = answerFor(error);
  if (answer) return answer;
  log.error('Unexpected error while answering a request:', error);
  return UNEXPECTED_ANSWER;
}
