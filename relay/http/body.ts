import express, { type Request, type RequestHandler, type Response } from 'express';
import { parameterSourceOf, type Route } from '../routing/route.ts';
import { parse as parseQueryString } from 'node:querystring';
import { HttpError } from '../errors.ts';

/** The largest body an upload route takes, unless the relay is started with another `bodyLimitBytes`. */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;
/** Every other route's parameters fit in far less; anyone may call a public route, so it gets less still. */
const KEYED_BODY_LIMIT_BYTES = 1024 * 1024;
const PUBLIC_BODY_LIMIT_BYTES = 64 * 1024;

/** Reads a route's body into `request.body`; called only once the caller has been let in. */
export type BodyReader = (request: Request, response: Response) => Promise<void>;

const noBody: BodyReader = async () => {};

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The body reader of one route: JSON, a form (`application/x-www-form-urlencoded`, what many tools send; never on
 * admin routes, where a form post is the cross-site attack) and raw bytes on upload routes, cut at the route's limit.
 * The limit counts the decompressed bytes of a gzip, deflate or br body, and reading stops there, so no small
 * compressed body can swell the relay. A body of another type is a 415 that names the types the route takes.
 */
export function bodyReaderFor(route: Route, uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES): BodyReader {
  const takesBody = parameterSourceOf(route) !== 'query';
  if (!takesBody) return noBody;
  const limit = bodyLimitOf(route, uploadLimitBytes);
  const takesForms = route.access !== 'admin';
  const takesRawBytes = route.kind === 'world' && route.rawBodyAsFileData === true;
  const parsers = [express.json({ limit, type: JSON_TYPES })];
  if (takesForms) parsers.push(express.text({ limit, type: FORM_TYPE }));
  if (takesRawBytes) parsers.push(express.raw({ type: () => true, limit }));
  const accepted = takesForms ? [...JSON_TYPES, FORM_TYPE] : JSON_TYPES;
  return async (request, response) => {
    if (!takesRawBytes && hasBody(request) && request.is(accepted) === false) throw unsupportedType(request, takesForms);
    try {
      for (const parser of parsers) await run(parser, request, response);
    } catch (error) {
      throw readFailure(error, route, limit);
    }
    if (takesForms && typeof request.body === 'string') request.body = parseForm(request.body);
  };
}

/**
 * A form's fields, read exactly as Express reads the query string (its default 'simple' query parser is
 * node:querystring): a repeated field is a list, and the route's schema coerces "20" and "true" as it does for the
 * query. Every field is kept (the query parser's default stops at 1000); the body limit bounds them.
 */
function parseForm(text: string): Record<string, unknown> {
  return parseQueryString(text, '&', '=', { maxKeys: 0 });
}

/** A request carries a body when it says it has bytes to come; `Content-Length: 0` with any type is no body. */
function hasBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function unsupportedType(request: Request, takesForms: boolean): HttpError {
  const sent = request.headers['content-type']?.split(';')[0]?.trim().slice(0, 100) || 'no Content-Type';
  const accepted = takesForms
    ? 'JSON (Content-Type: application/json) or a form (Content-Type: application/x-www-form-urlencoded)'
    : 'JSON (Content-Type: application/json)';
  return new HttpError(415, `The request body must be ${accepted}; this one was sent as ${sent}`);
}

function bodyLimitOf(route: Route, uploadLimitBytes: number): number {
  if (route.takesUploads === true) return uploadLimitBytes;
  return Math.min(route.access === 'public' ? PUBLIC_BODY_LIMIT_BYTES : KEYED_BODY_LIMIT_BYTES, uploadLimitBytes);
}

function run(parser: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    void parser(request, response, (error?: unknown) => (error === undefined ? resolve() : reject(error)));
  });
}

/** What went wrong reading the body, as the 4xx that tells the caller what to send instead; anything else as it is. */
function readFailure(error: unknown, route: Route, limit: number): unknown {
  const { type, status } = error as { type?: string; status?: number };
  switch (type) {
    case 'entity.too.large':
      return new HttpError(413, `Request body too large: the limit is ${sizeText(limit)} for ${route.method} ${route.path}, counted after decompression`);
    case 'entity.parse.failed':
      return new HttpError(400, 'The request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'The request body must be UTF-8, plain or compressed with gzip, deflate or br');
  }
  if (typeof status === 'number' && status >= 400 && status < 500) return new HttpError(status, 'The request body could not be read');
  return error;
}

function sizeText(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
