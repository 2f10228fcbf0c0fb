import type { WebSocket } from 'ws';
import {
  scopeOf,
  type Answer,
  type CallContext,
  type ImageAnswer,
  type Route,
  type StreamRoute,
} from '../routing/route.ts';
import type { EventStream } from '../events/event-stream.ts';
import { answerFor, HttpError, RetryLater, UNEXPECTED_ANSWER } from '../errors.ts';
import { recordMiss, runCall, type CallAnswer } from '../routing/pipeline.ts';
import type { Fields } from '../routing/call.ts';
import { CloseCode } from '../../contracts/world-protocol.ts';
import { STREAMS, type EventChannel } from '../../contracts/streams.ts';
import type { RelayServices } from '../services.ts';

const MAX_IN_FLIGHT = 100;

/** The routes /ws/api calls, taken once from the catalog the relay serves. */
export interface SocketRoutes {
  /**
   * Every keyed world route and local route by its operation. Overlay routes are not among them: their link opens them
   * over HTTP only.
   */
  operations: ReadonlyMap<string, Route>;
  /** Every keyed stream route by the channel a subscription names. */
  streams: ReadonlyMap<EventChannel, StreamRoute>;
  /** The message types the `connected` frame lists. */
  supportedTypes: readonly string[];
}

export function socketRoutesOf(routes: readonly Route[]): SocketRoutes {
  const operations = new Map(
    routes.flatMap((route) =>
      scopeOf(route) !== undefined && route.kind !== 'stream' && route.operation !== undefined
        ? [[route.operation, route] as const]
        : [],
    ),
  );
  const streams = new Map(
    routes
      .filter((route): route is StreamRoute => route.kind === 'stream' && scopeOf(route) !== undefined)
      .map((route) => [STREAMS[route.stream].channel as EventChannel, route]),
  );
  return { operations, streams, supportedTypes: ['ping', 'subscribe', 'unsubscribe', ...operations.keys()] };
}

/**
 * One caller's /ws/api socket: its key, its default world, its requests in flight and its subscriptions. Each message
 * is one call of the pipeline every transport shares (relay/routing/pipeline.ts); this turns frames into calls and
 * answers into frames, and nothing else.
 */
export class CallerSession {
  private readonly socket: WebSocket;
  private readonly apiKey: string;
  /** The id of the socket's API key, so changing or revoking the key can end the socket. */
  readonly keyId: string;
  private readonly defaultClientId: string | undefined;
  /** The upgrade request as a call context; a message's own fields stand in for its headers. */
  private readonly upgrade: CallContext;
  private readonly services: RelayServices;
  private readonly routes: SocketRoutes;
  /** Each open subscription's ending, by its channel (or, for a local route's events, its message type). */
  private readonly subscriptions = new Map<string, () => void>();
  private inFlight = 0;

  constructor(
    socket: WebSocket,
    key: { apiKey: string; keyId: string },
    defaultClientId: string | undefined,
    upgrade: CallContext,
    services: RelayServices,
    routes: SocketRoutes,
  ) {
    this.socket = socket;
    this.apiKey = key.apiKey;
    this.keyId = key.keyId;
    this.defaultClientId = defaultClientId;
    this.upgrade = upgrade;
    this.services = services;
    this.routes = routes;
  }

  send(message: object): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(text: string): void {
    const message = parseObject(text);
    // The reference relay's words, which its clients compare whole.
    if (!message) return this.refuse('/ws/api', undefined, new HttpError(400, 'Invalid JSON'));
    const { type, requestId } = message;
    if (typeof type !== 'string') return this.refuse('/ws/api', requestId, new HttpError(400, 'Missing "type" field'));
    if (type === 'ping') return this.send({ type: 'pong', requestId });
    if (type === 'unsubscribe') return this.unsubscribe(message);
    if (type === 'subscribe') return void this.subscribe(message);
    const route = this.routes.operations.get(type);
    if (!route) return this.refuse(type, requestId, new HttpError(400, `Unknown message type: "${type}"`));
    if (typeof requestId !== 'string' || requestId === '') {
      return this.refuse(
        type,
        undefined,
        new HttpError(400, 'Missing "requestId" field for request messages: replies are matched to it'),
        'error',
      );
    }
    if (this.inFlight >= MAX_IN_FLIGHT)
      return this.refuse(
        type,
        requestId,
        new HttpError(429, `At most ${MAX_IN_FLIGHT} requests may be in flight on one socket`),
      );
    void this.call(route, type, requestId, message);
  }

  /** Ends the subscriptions when the socket closes. */
  end(): void {
    for (const unsubscribe of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  /** Says why in a last frame, ends the subscriptions at once and closes the socket with 4002. */
  endForKeyChange(reason: string): void {
    this.send({ type: 'error', status: 401, error: reason });
    this.end();
    this.socket.close(CloseCode.noAuth, reason);
  }

  private async call(route: Route, type: string, requestId: string, message: Fields): Promise<void> {
    this.inFlight += 1;
    try {
      const answer = await this.run(route, type, isDownload(route) ? { format: 'base64', ...message } : message);
      if (answer.kind === 'events') return answer.open(this.localEventStream(type, requestId));
      this.send({ ...frameOf(answer, route), type: `${type}-result`, requestId });
    } catch (error) {
      this.sendFailure(`${type}-result`, requestId, error);
    } finally {
      this.inFlight -= 1;
    }
  }

  /** A subscription is the stream route's call: its filters are the parameters, its events go out as frames. */
  private async subscribe(message: Fields): Promise<void> {
    const { channel, requestId } = message;
    const route = this.routes.streams.get(channel as EventChannel);
    if (!route) {
      const error = new HttpError(
        400,
        `Invalid channel: ${JSON.stringify(channel)}. Supported: ${[...this.routes.streams.keys()].join(', ')}`,
      );
      return this.refuse('subscribe', requestId, error);
    }
    const filters = typeof message.filters === 'object' && message.filters !== null ? (message.filters as Fields) : {};
    try {
      const answer = await this.run(route, `subscribe ${channel as string}`, {
        ...filters,
        clientId: message.clientId,
      });
      if (answer.kind !== 'events') throw new Error(`the stream route ${route.path} answered with ${answer.kind}`);
      answer.open(this.eventStream(route, channel as EventChannel, requestId));
    } catch (error) {
      this.sendFailure('error', requestId, error);
    }
  }

  /**
   * The pipeline's event stream as frames: `connected` becomes `subscribed`, then one frame per event, with the
   * reference relay's fields (`type`, `data`, and `hook` on the hooks channel) plus the event's name and world.
   */
  private eventStream(route: StreamRoute, channel: EventChannel, requestId: unknown): EventStream {
    const eventType = JSON.stringify(STREAMS[route.stream].frameType);
    const namesHook = route.stream === 'hooks';
    let clientIdJson = 'null';
    return {
      send: (name, json) => {
        if (name === 'connected') {
          const { clientId } = JSON.parse(json) as { clientId: string };
          clientIdJson = JSON.stringify(clientId);
          this.send({ type: 'subscribed', channel, clientId, requestId });
          return;
        }
        if (this.socket.readyState !== this.socket.OPEN) return;
        const nameJson = JSON.stringify(name);
        const hook = namesHook ? `"hook":${nameJson},` : '';
        this.socket.send(`{"type":${eventType},${hook}"event":${nameJson},"clientId":${clientIdJson},"data":${json}}`);
      },
      comment: () => {},
      onClose: (unsubscribe) => {
        if (this.socket.readyState !== this.socket.OPEN) return unsubscribe();
        this.subscriptions.get(channel)?.();
        this.subscriptions.set(channel, unsubscribe);
      },
      end: () => this.socket.close(1001, 'The relay is stopping'),
    };
  }

  /**
   * The events of a local route that answers with a stream (GET /play/events), called by its message type: `connected`
   * becomes the `<type>-result`, each event a `<type>-event` frame; `unsubscribe` with the type as its channel, or
   * calling it again, ends it, and its own end is told as `unsubscribed`.
   */
  private localEventStream(type: string, requestId: string): EventStream {
    const eventType = JSON.stringify(`${type}-event`);
    let ending: (() => void) | undefined;
    return {
      send: (name, json) => {
        if (name === 'connected') return this.send({ ...parseObject(json), type: `${type}-result`, requestId });
        if (this.socket.readyState !== this.socket.OPEN) return;
        this.socket.send(`{"type":${eventType},"event":${JSON.stringify(name)},"data":${json}}`);
      },
      comment: () => {},
      onClose: (unsubscribe) => {
        if (this.socket.readyState !== this.socket.OPEN) return unsubscribe();
        this.subscriptions.get(type)?.();
        this.subscriptions.set(type, (ending = unsubscribe));
      },
      end: () => {
        if (ending === undefined || this.subscriptions.get(type) !== ending) return;
        this.subscriptions.delete(type);
        this.send({ type: 'unsubscribed', channel: type, removed: 1 });
      },
    };
  }

  /** Ends the subscription to a channel, or to every channel when none is named; ending none is not an error. */
  private unsubscribe(message: Fields): void {
    const { channel, requestId } = message;
    const all = typeof channel !== 'string' || channel === '';
    const channels = all ? [...this.subscriptions.keys()] : [channel];
    let removed = 0;
    for (const name of channels) {
      const unsubscribe = this.subscriptions.get(name);
      if (!unsubscribe) continue;
      unsubscribe();
      this.subscriptions.delete(name);
      removed += 1;
    }
    this.send({ type: 'unsubscribed', channel: all ? 'all' : channel, removed, requestId });
  }

  /** One call of the pipeline: the message's fields are the parameters and, for the routes that declare some, its headers. */
  private async run(route: Route, logged: string, message: Fields): Promise<CallAnswer> {
    // An explicit clientId stays among the fields too: GET /clients reads it as a parameter, as over HTTP's query.
    const { type: _type, requestId: _requestId, dryRun, ...fields } = message;
    const { clientId } = fields;
    const header = (name: string) => (typeof fields[name] === 'string' ? fields[name] : this.upgrade.header(name));
    try {
      return await runCall(
        {
          route,
          call: { ...this.upgrade, header },
          logged: { method: 'WS', path: logged },
          presentedKey: this.apiKey,
          clientId: clientId ?? this.defaultClientId,
          query: fields,
          readBody: async () => fields,
          dryRun,
        },
        this.services,
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 401) this.socket.close(CloseCode.noAuth, 'API key revoked');
      throw error;
    }
  }

  /** A message that calls no route: told so, and noted as a refused call of this key. */
  private refuse(
    logged: string,
    requestId: unknown,
    error: HttpError,
    type = this.routes.operations.has(logged) ? `${logged}-result` : 'error',
  ): void {
    this.send({ type, requestId, status: error.status, ...error.toBody() });
    recordMiss(this.apiKey, { method: 'WS', path: logged }, error, this.services);
  }

  private sendFailure(type: string, requestId: unknown, error: unknown): void {
    const answer = answerFor(error);
    if (!answer) this.services.log.error('Unexpected error on /ws/api:', error);
    const { status, body } = answer ?? UNEXPECTED_ANSWER;
    // A frame has no headers: when to come back travels as a field (HTTP's Retry-After).
    const retry = error instanceof RetryLater ? { retryAfter: error.retryAfterSeconds } : undefined;
    this.send({ type, requestId, status, ...body, ...retry });
  }
}

/**
 * An answer as the fields of its frame: JSON as it is (the world's with the world's clientId), a status only when it
 * is not 200, and bytes as a data URL, since every frame is JSON.
 */
function frameOf(answer: CallAnswer, route: Route): Fields {
  switch (answer.kind) {
    case 'world-json':
      return withStatus({ ...answer.message, clientId: answer.clientId }, answer.status);
    case undefined:
    case 'json':
      return withStatus(isObject(answer.body) ? answer.body : { data: answer.body }, answer.status);
    case 'bytes':
      return withStatus(fileFrame(answer), answer.status);
    case 'image':
      return withStatus(imageFrame(answer), answer.status);
    default:
      // Keyed routes answer with JSON, bytes or (streams, through subscribe) events; HTML and redirects are the browser's.
      throw new Error(`${route.method} ${route.path} answered a /ws/api call with ${answer.kind}`);
  }
}

/** A download comes as the world's JSON (a data URL and the file's name) unless the caller asks for another format. */
function isDownload(route: Route): boolean {
  return route.kind === 'world' && route.reply === 'file';
}

function withStatus(fields: Fields, status: number | undefined): Fields {
  return status === undefined || status === 200 ? fields : { ...fields, status };
}

/** A file as `{fileData, mimeType}`: the world's own JSON fields. */
function fileFrame(answer: Extract<Answer, { kind: 'bytes' }>): Fields {
  const type = answer.headers['Content-Type'];
  const mimeType = (Array.isArray(type) ? type.join(', ') : type) ?? 'application/octet-stream';
  return { fileData: dataUrlOf(answer.bytes, mimeType), mimeType };
}

/** An image as `{imageData, mimeType, width, height}`: the world's own JSON fields; a size the world did not say is 0. */
function imageFrame(answer: ImageAnswer): Fields {
  const { bytes, mimeType, width = 0, height = 0 } = answer;
  return { imageData: dataUrlOf(bytes, mimeType), mimeType, width, height };
}

function dataUrlOf(bytes: Uint8Array, mimeType: string): string {
  return `data:${mimeType};base64,${Buffer.from(bytes).toString('base64')}`;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
