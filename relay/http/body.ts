import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString, unescape } from 'node:querystring';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { parameterSourceOf, scopeOf, type Route } from '../routing/route.ts';
import type { Fields } from '../routing/call.ts';
import { HttpError } from '../errors.ts';

/** The largest body an upload route takes, unless the relay is started with another `bodyLimitBytes`. */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;
/** Every other route's parameters fit in far less; anyone may call a public route, so it gets less still. */
const KEYED_BODY_LIMIT_BYTES = 1024 * 1024;
const PUBLIC_BODY_LIMIT_BYTES = 64 * 1024;
const MAX_BODY_DEPTH = 64;
/**
 * A body must keep coming: it has this long, plus a second for every MIN_BODY_BYTES_PER_SECOND that arrived, so a slow
 * but steady upload of any size gets through while a trickle cannot hold a connection for long.
 */
const BODY_GRACE_MS = 10_000;
const MIN_BODY_BYTES_PER_SECOND = 32 * 1024;

/** Reads a route's body into its fields; called only once the caller has been let in. */
export type BodyReader = (request: IncomingMessage) => Promise<Fields>;

const FORM_TYPE = 'application/x-www-form-urlencoded';
const JSON_SUFFIX_TYPE = /^application\/[\w!#$&^.+-]+\+json$/;

/**
 * The body reader of one route, or undefined for a route that reads no body: JSON, a form
 * (`application/x-www-form-urlencoded`, what many tools send; never on admin routes, where a form post is the
 * cross-site attack) and raw bytes on upload routes, cut at the route's limit. The limit counts the decompressed bytes
 * of a gzip, deflate or br body, and reading stops there, so no small compressed body can swell the relay. A body of
 * another type is a 415 that names the types the route takes.
 */
export function bodyReaderFor(route: Route, uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES): BodyReader | undefined {
  if (parameterSourceOf(route) === 'query') return undefined;
  const limit = bodyLimitOf(route, uploadLimitBytes);
  const takesForms = route.access !== 'admin';
  const takesRawBytes = route.kind === 'world' && route.rawBodyAsFileData === true;
  const formulaFields = route.formulaFields ?? [];
  const tooLarge = () =>
    new HttpError(
      413,
      `Request body too large: the limit is ${sizeText(limit)} for ${route.method} ${route.path}, counted after decompression`,
    );
  return async (request) => {
    if (!hasBody(request)) return {};
    const contentType = request.headers['content-type'];
    const mediaType = contentType?.split(';')[0]!.trim().toLowerCase() ?? '';
    const isJson = mediaType === 'application/json' || JSON_SUFFIX_TYPE.test(mediaType);
    const isForm = takesForms && mediaType === FORM_TYPE;
    if (!isJson && !isForm && !takesRawBytes) throw unsupportedType(mediaType, takesForms);
    if (isJson && !charsetOf(contentType).startsWith('utf-')) throw UNSUPPORTED_ENCODING;
    const bytes = await readBytes(request, limit, tooLarge);
    if (isJson) return jsonFields(decode(bytes, charsetOf(contentType)));
    if (isForm) return formFields(decode(bytes, charsetOf(contentType)), formulaFields);
    return bytes.length === 0
      ? {}
      : { fileData: `data:${mediaType || 'application/octet-stream'};base64,${bytes.toString('base64')}` };
  };
}

/** A form's fields, read as the query string is; a dice formula's among them as `formulaOf` reads it. */
function formFields(text: string, formulaFields: readonly string[]): Fields {
  const fields: Fields = parseQueryString(text, '&', '=', { maxKeys: 0 });
  if (formulaFields.length === 0) return fields;
  for (const pair of text.split('&')) {
    const [rawName = '', ...rawValue] = pair.split('=');
    const name = unescape(rawName.replaceAll('+', ' '));
    // A repeated field is a list, which the formula's schema refuses as it is.
    if (formulaFields.includes(name) && typeof fields[name] === 'string') fields[name] = formulaOf(rawValue.join('='));
  }
  return fields;
}

/**
 * A dice formula from a form. A GM types `formula=1d20+5` into a Stream Deck plugin's body, and by the form's rules that
 * `+` is a space: "1d20 5", which no world can roll. So a `+` between two terms (a number, a die, a closing bracket on
 * its left; a number, a die, `@` or an opening bracket on its right), outside flavour text in `[…]`, is a plus sign.
 * Anywhere else it is the space forms make of it, so what an encoder sends reads as it meant: `1d20+-+2` is "1d20 - 2",
 * `2d6%5Bfire+damage%5D` "2d6[fire damage]", and `%2B` is a plus sign everywhere.
 */
function formulaOf(rawValue: string): string {
  const [first = '', ...rest] = rawValue.split('+').map((piece) => unescape(piece));
  let formula = first;
  for (const piece of rest) formula += (joinsTerms(formula, piece) ? '+' : ' ') + piece;
  return formula;
}

const TERM_END = /[\p{L}\p{N})\]}]$/u;
const TERM_START = /^[\p{L}\p{N}(@{]/u;

function joinsTerms(before: string, after: string): boolean {
  const inFlavour = before.lastIndexOf('[') > before.lastIndexOf(']');
  return !inFlavour && TERM_END.test(before.trimEnd()) && TERM_START.test(after.trimStart());
}

/** A request carries a body when it says it has bytes to come; `Content-Length: 0` with any type is no body. */
export function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

function unsupportedType(mediaType: string, takesForms: boolean): HttpError {
  const sent = mediaType.slice(0, 100) || 'no Content-Type';
  const accepted = takesForms
    ? 'JSON (Content-Type: application/json) or a form (Content-Type: application/x-www-form-urlencoded)'
    : 'JSON (Content-Type: application/json)';
  return new HttpError(415, `The request body must be ${accepted}; this one was sent as ${sent}`);
}

const UNSUPPORTED_ENCODING = new HttpError(
  415,
  'The request body must be UTF-8, plain or compressed with gzip, deflate or br',
);

function charsetOf(contentType: string | undefined): string {
  const match = contentType === undefined ? null : /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  return match ? match[1]!.toLowerCase() : 'utf-8';
}

function decode(bytes: Buffer, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf8') return bytes.toString('utf8');
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    throw UNSUPPORTED_ENCODING;
  }
}

/** A JSON object's fields; like Express's JSON reader, only an object or array counts as JSON here, and no bytes as none. */
function jsonFields(text: string): Fields {
  if (text.length === 0) return {};
  let body: unknown;
  try {
    const start = firstNonBlank(text);
    if (start !== '{' && start !== '[') throw new SyntaxError();
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'The request body must be a JSON object');
  // Each level of nesting takes an opening and a closing bracket: a short body cannot be too deep.
  if (text.length > 2 * MAX_BODY_DEPTH && nestedDeeperThan(body, MAX_BODY_DEPTH))
    throw new HttpError(400, `The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  return body as Fields;
}

function firstNonBlank(text: string): string | undefined {
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character !== ' ' && character !== '\n' && character !== '\r' && character !== '\t') return character;
  }
  return undefined;
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

function decompressorOf(encoding: string): (Readable & NodeJS.WritableStream) | undefined {
  switch (encoding) {
    case 'gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
  }
  return undefined;
}

/**
 * Most bodies come with their headers: one that is here whole, plain and within the limit, is taken at once rather
 * than through the stream's events (resumed, the request still ends as a read one does).
 */
function bytesAtHand(request: IncomingMessage, limit: number): Buffer | undefined {
  const declared = Number(request.headers['content-length'] ?? 0);
  const plain = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase() === 'identity';
  if (!plain || declared === 0 || declared > limit || request.readableLength !== declared) return undefined;
  const bytes = request.read(declared) as Buffer;
  request.resume();
  return bytes;
}

/**
 * The body's bytes, decompressed, up to `limit`. Past the limit (or on a broken stream) the rest of the request is
 * read and dropped, so the caller still gets the answer that says why.
 */
function readBytes(request: IncomingMessage, limit: number, tooLarge: () => HttpError): Promise<Buffer> {
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decompressor = encoding === 'identity' ? undefined : decompressorOf(encoding);
  if (encoding !== 'identity' && !decompressor) return Promise.reject(UNSUPPORTED_ENCODING);
  const declared =
    request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
  if (!decompressor && declared !== undefined && declared > limit) {
    request.resume();
    return Promise.reject(tooLarge());
  }
  const atHand = bytesAtHand(request, limit);
  if (atHand) return Promise.resolve(atHand);
  const source: Readable = decompressor ? request.pipe(decompressor) : request;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const started = performance.now();
    const keepPace = () => {
      const due = started + BODY_GRACE_MS + (length / MIN_BODY_BYTES_PER_SECOND) * 1000 - performance.now();
      if (due > 0) pace = setTimeout(keepPace, due).unref();
      else fail(TOO_SLOW);
    };
    let pace = setTimeout(keepPace, BODY_GRACE_MS).unref();
    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      clearTimeout(pace);
      source.off('data', onData);
      if (decompressor) {
        request.unpipe(decompressor);
        decompressor.destroy();
      }
      request.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) fail(tooLarge());
      else chunks.push(chunk);
    };
    source.on('data', onData);
    source.once('error', () =>
      fail(
        decompressor
          ? new HttpError(400, 'The request body could not be decompressed')
          : new HttpError(400, 'The request body could not be read'),
      ),
    );
    request.once('close', () => {
      if (!request.complete) fail(new HttpError(400, 'The request was aborted before its body arrived'));
    });
    source.once('end', () => {
      if (settled) return;
      if (!decompressor && declared !== undefined && declared !== length)
        return fail(new HttpError(400, 'The request body could not be read'));
      settled = true;
      clearTimeout(pace);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length));
    });
  });
}

/**
 * The largest body a key with these scopes may send to any of these routes: an upload route's limit only with that
 * route's scope. /ws/api sizes an authenticated socket's frames by it, since one frame may call any route.
 */
export function largestBodyFor(
  scopes: readonly string[],
  routes: readonly Route[],
  uploadLimitBytes = DEFAULT_UPLOAD_LIMIT_BYTES,
): number {
  const uploads = routes.some((route) => route.takesUploads === true && scopes.includes(scopeOf(route) ?? ''));
  return uploads ? uploadLimitBytes : Math.min(KEYED_BODY_LIMIT_BYTES, uploadLimitBytes);
}

/**
 * A JSON body of any shape (an MCP message, or a batch of them) up to `limit` bytes after decompression, read at the
 * same pace and nesting limits as a route's body; undefined when there is none.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  if (!hasBody(request)) return undefined;
  const tooLarge = () => new HttpError(413, `Request body too large: the limit is ${sizeText(limit)}`);
  return anyJson((await readBytes(request, limit, tooLarge)).toString('utf8'));
}

/** The JSON body, when the whole of it has arrived: no wait for it at all. */
export function jsonBodyAtHand(request: IncomingMessage, limit: number): { body: unknown } | undefined {
  const bytes = bytesAtHand(request, limit);
  return bytes === undefined ? undefined : { body: anyJson(bytes.toString('utf8')) };
}

function anyJson(text: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
  if (typeof body === 'object' && body !== null && nestedDeeperThan(body, MAX_BODY_DEPTH))
    throw new HttpError(400, `The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
  return body;
}

const TOO_SLOW = new HttpError(
  408,
  `The request body came too slowly: after ${BODY_GRACE_MS / 1000} s it must arrive at ${MIN_BODY_BYTES_PER_SECOND / 1024} KiB/s or faster`,
);

function bodyLimitOf(route: Route, uploadLimitBytes: number): number {
  if (route.takesUploads === true) return uploadLimitBytes;
  return Math.min(route.access === 'public' ? PUBLIC_BODY_LIMIT_BYTES : KEYED_BODY_LIMIT_BYTES, uploadLimitBytes);
}

function sizeText(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
