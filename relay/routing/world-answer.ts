import type { Answer, AnswerHeaders, WorldRoute } from './route.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { HttpError } from '../errors.ts';
import type { Fields } from './call.ts';
import { hasError } from '../tabletop/world-ask.ts';

/** The world's JSON answer as it came, already serialised: written as it is, never parsed and serialised again. */
export interface WorldJsonAnswer {
  kind: 'world-json';
  /** 200, or 400 when the world refused the call. */
  status: number;
  text: string;
  message: WorldReply['message'];
  clientId: string;
}

/** The world's answer: an image, bytes for a file (unless the caller asked for `format=base64`), JSON otherwise. */
export function worldAnswer(
  route: WorldRoute,
  world: WorldConnection,
  reply: WorldReply,
  parameters: Fields,
): Answer | WorldJsonAnswer {
  if (route.reply === 'image' || (route.reply === 'file' && parameters.format !== 'base64')) {
    return bytesAnswer(route, route.reply, world, reply, parameters);
  }
  refuseKnownModuleFailure(route, reply.message);
  return {
    kind: 'world-json',
    status: hasError(reply.message) ? 400 : 200,
    text: reply.text,
    message: reply.message,
    clientId: world.clientId,
  };
}

/** A refusal the route knows as the module's own failure, answered in words that say why and what to do instead. */
function refuseKnownModuleFailure(route: WorldRoute, message: WorldReply['message']): void {
  if (!hasError(message)) return;
  const worldError = String(message.error);
  const failure = route.moduleFailures?.find((candidate) => candidate.error.test(worldError));
  if (failure) {
    throw new HttpError(failure.status, `${failure.explanation} (the world answered: ${worldError})`, {
      requestId: message.requestId,
    });
  }
}

/** Decodes the data URL a world answers with (`imageData` or `fileData`, at the top or under `data`) into bytes. */
function bytesAnswer(
  route: WorldRoute,
  kind: 'image' | 'file',
  world: WorldConnection,
  reply: WorldReply,
  parameters: Fields,
): Answer {
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
  if (kind === 'image') {
    return {
      kind: 'image',
      bytes,
      mimeType: parameters.format === 'jpeg' ? 'image/jpeg' : parameters.format === 'png' ? 'image/png' : mimeType(),
      width: pixelCount(world, 'width', message.width ?? nested.width),
      height: pixelCount(world, 'height', message.height ?? nested.height),
      headers: { ...route.replyHeaders },
    };
  }
  const headers: AnswerHeaders = {
    'Content-Type': mimeType(),
    'Content-Disposition': attachment(world, message.filename ?? nested.filename),
  };
  return { kind: 'bytes', bytes, headers: { ...headers, ...route.replyHeaders } };
}

// A world's answer is not trusted to be well formed: a value that cannot go into a header as it is would break
// the answer (or split it, with CR/LF), so it is a 502 that names the world, not a 500 of the relay's own.

const MEDIA_TYPE =
  /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+([ \t]*;[ \t]*[\w!#$&^.+-]+=([\w!#$&^.+-]+|"[\x20\x21\x23-\x5b\x5d-\x7e]*"))*$/;
/** Control characters split or break headers; a lone surrogate cannot be encoded in `filename*`. */
const UNSENDABLE_IN_NAME = /[\x00-\x1f\x7f]|\p{Cs}/u;

function mediaType(world: WorldConnection, value: unknown): string {
  if (value === undefined || value === null || value === '') return 'application/octet-stream';
  if (typeof value !== 'string' || !MEDIA_TYPE.test(value)) throw worldSentBadHeader(world, 'mimeType', value);
  return value;
}

function pixelCount(world: WorldConnection, name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const count = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
    throw worldSentBadHeader(world, name, value);
  return count;
}

/** `attachment` with the file's name: ASCII as it is, other characters in `filename*` (RFC 6266) with an ASCII fallback. */
function attachment(world: WorldConnection, value: unknown): string {
  const filename = value === undefined || value === null || value === '' ? 'download' : value;
  if (typeof filename !== 'string' || UNSENDABLE_IN_NAME.test(filename))
    throw worldSentBadHeader(world, 'filename', value);
  const fallback = filename.replace(/["\\]|[^\x20-\x7e]/g, '_');
  if (/^[\x20-\x7e]*$/.test(filename)) return `attachment; filename="${fallback}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
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
