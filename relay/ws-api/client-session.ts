import type { WebSocket } from 'ws';
import { answeredCall, callerNamed, refusedCall } from '../admin/activity.ts';
import { allRoutes } from '../routes.ts';
import type { StreamRoute, WorldRoute } from '../routing/route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { StreamKind } from '../events/streams.ts';
import { STREAM_CHANNEL } from '../events/streams.ts';
import { HttpError } from '../errors.ts';
import { tooManyRequests } from '../routing/rate-limit.ts';
import { callWorld, hasError, parseParameters, prepareStream, requireScope, takeCaller, type Fields } from '../routing/call.ts';
import { CloseCode, type EventChannel } from '../../contracts/world-protocol.ts';
import type { RelayServices } from '../services.ts';

const MAX_IN_FLIGHT = 100;

const WORLD_ROUTES = new Map(
  allRoutes.filter((route): route is WorldRoute => route.kind === 'world').map((route) => [route.operation, route]),
);
const STREAM_ROUTES = new Map(
  allRoutes.filter((route): route is StreamRoute => route.kind === 'stream').map((route) => [STREAM_CHANNEL[route.stream] as EventChannel, route]),
);
const EVENT_TYPE_OF_KIND: Record<StreamKind, string> = {
  roll: 'roll-event',
  chat: 'chat-event',
  hooks: 'hook-event',
  combat: 'combat-event',
  actor: 'actor-event',
  scene: 'scene-event',
};

export const SUPPORTED_TYPES = ['ping', 'subscribe', 'unsubscribe', ...WORLD_ROUTES.keys()];

/** One caller's /ws/api socket: its key, its default world, its requests in flight and its subscriptions. */
export class ClientSession {
  private readonly socket: WebSocket;
  private readonly apiKey: string;
  /** The id of the socket's API key, so changing or revoking the key can end the socket. */
  readonly keyId: string;
  private readonly defaultClientId: string | undefined;
  private readonly services: RelayServices;
  private readonly subscriptions = new Map<EventChannel, () => void>();
  private inFlight = 0;

  constructor(socket: WebSocket, key: { apiKey: string; keyId: string }, defaultClientId: string | undefined, services: RelayServices) {
    this.socket = socket;
    this.apiKey = key.apiKey;
    this.keyId = key.keyId;
    this.defaultClientId = defaultClientId;
    this.services = services;
  }

  send(message: object): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(text: string): void {
    const started = performance.now();
    const message = parseObject(text);
    if (!message) return this.refuseFrame(undefined, 'Invalid JSON: each message is one JSON object', started);
    const { type, requestId } = message;
    if (typeof type !== 'string') return this.refuseFrame(requestId, 'Missing "type" field', started);
    if (type === 'ping') return this.send({ type: 'pong', requestId });
    void this.handle(type, requestId, message, started);
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

  /** Answers one message and notes it in the activity log like an HTTP call: the type for a path, refusals with their reason. */
  private async handle(type: string, requestId: unknown, message: Fields, started: number): Promise<void> {
    let key: ApiKeyRecord | undefined;
    let worldRefusal: string | undefined;
    try {
      key = this.currentKey();
      worldRefusal = await this.dispatch(type, message, key);
    } catch (error) {
      this.sendFailure(type, requestId, error);
      this.services.activity.record(refusedCall(callerNamed(key, this.apiKey), 'WS', type, error, started));
      return;
    }
    const caller = { keyName: key.name };
    this.services.activity.record(
      worldRefusal === undefined ? answeredCall(caller, 'WS', type, 200, started) : refusedCall(caller, 'WS', type, new HttpError(400, worldRefusal), started),
    );
  }

  /** A frame that is no message at all: told so, and noted as a refused call of this key. */
  private refuseFrame(requestId: unknown, reason: string, started: number): void {
    const error = new HttpError(400, reason);
    this.send({ type: 'error', requestId, status: error.status, error: reason });
    const key = this.services.keys.verify(this.apiKey);
    this.services.activity.record(refusedCall(callerNamed(key, this.apiKey), 'WS', '/ws/api', error, started));
  }

  /** Resolves with the world's error when the world refused the call. */
  private async dispatch(type: string, message: Fields, key: ApiKeyRecord): Promise<string | undefined> {
    if (type === 'subscribe') {
      this.subscribe(message, key);
      return undefined;
    }
    if (type === 'unsubscribe') {
      this.unsubscribe(message);
      return undefined;
    }
    const route = WORLD_ROUTES.get(type);
    if (!route) throw new HttpError(400, `Unknown message type: "${type}"`);
    if (typeof message.requestId !== 'string' || message.requestId === '') throw new HttpError(400, 'Missing "requestId" field: replies are matched to it');
    return this.call(route, message, key);
  }

  private async call(route: WorldRoute, message: Fields, key: ApiKeyRecord): Promise<string | undefined> {
    requireScope(key, scopeOf(route));
    this.countRequest(key);
    if (this.inFlight >= MAX_IN_FLIGHT) throw new HttpError(429, `At most ${MAX_IN_FLIGHT} requests may be in flight on one socket`);
    const { type: _type, requestId, clientId, ...raw } = message;
    const caller = takeCaller(raw, clientId ?? this.defaultClientId, key);
    const parameters = parseParameters(route, raw);
    this.inFlight += 1;
    try {
      const { world, reply } = await callWorld(route, parameters, caller, this.services);
      this.send({ ...reply.message, type: `${route.operation}-result`, requestId, clientId: world.clientId });
      if (!hasError(reply.message)) return undefined;
      return typeof reply.message.error === 'string' ? reply.message.error : 'The world refused the call';
    } finally {
      this.inFlight -= 1;
    }
  }

  private subscribe(message: Fields, key: ApiKeyRecord): void {
    const { channel, requestId } = message;
    const route = STREAM_ROUTES.get(channel as EventChannel);
    if (!route) throw new HttpError(400, `Unknown channel: ${JSON.stringify(channel)}; channels are ${[...STREAM_ROUTES.keys()].join(', ')}`);
    requireScope(key, scopeOf(route));
    const filters = parseObject(JSON.stringify(message.filters ?? {})) ?? {};
    const caller = takeCaller(filters, message.clientId ?? this.defaultClientId, key);
    const parameters = parseParameters(route, filters);
    this.subscriptions.get(channel as EventChannel)?.();
    const { clientId, filter, ownerId } = prepareStream(route, parameters, caller, this.services);
    const eventType = EVENT_TYPE_OF_KIND[route.stream];
    const unsubscribe = this.services.events.subscribe({
      clientId,
      kind: route.stream,
      filter,
      ownerId,
      deliver: (event, payloadJson) => {
        if (this.socket.readyState !== this.socket.OPEN) return;
        this.socket.send(`{"type":${JSON.stringify(eventType)},"event":${JSON.stringify(event.name)},"clientId":${JSON.stringify(clientId)},"data":${payloadJson}}`);
      },
      close: () => this.socket.close(1001, 'The relay is stopping'),
    });
    this.subscriptions.set(channel as EventChannel, unsubscribe);
    this.send({ type: 'subscribed', channel, clientId, requestId });
  }

  private unsubscribe(message: Fields): void {
    const channel = message.channel as EventChannel;
    const unsubscribe = this.subscriptions.get(channel);
    if (!unsubscribe) throw new HttpError(400, `Not subscribed to ${JSON.stringify(message.channel)}`);
    unsubscribe();
    this.subscriptions.delete(channel);
    this.send({ type: 'unsubscribed', channel, requestId: message.requestId });
  }

  /** The key is looked up on every message, so revoking it stops the socket's calls at once. */
  private currentKey(): ApiKeyRecord {
    const key = this.services.keys.verify(this.apiKey);
    if (!key) {
      this.socket.close(CloseCode.noAuth, 'API key revoked');
      throw new HttpError(401, 'Invalid API key');
    }
    return key;
  }

  private countRequest(key: ApiKeyRecord): void {
    const decision = this.services.rateLimiter.take(key.id);
    if (decision && !decision.allowed) throw tooManyRequests(decision);
  }

  private sendFailure(type: string, requestId: unknown, error: unknown): void {
    const isOperation = WORLD_ROUTES.has(type);
    if (error instanceof HttpError) {
      this.send({ type: isOperation ? `${type}-result` : 'error', requestId, status: error.status, ...error.toBody() });
      return;
    }
    this.services.log.error('Unexpected error on /ws/api:', error);
    this.send({ type: isOperation ? `${type}-result` : 'error', requestId, status: 500, error: 'The relay failed to answer this request' });
  }
}

export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function scopeOf(route: WorldRoute | StreamRoute) {
  if (typeof route.access !== 'object') throw new Error(`route ${route.path} has no scope`);
  return route.access.scope;
}
