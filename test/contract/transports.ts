// The two ways a caller reaches the relay's API, behind one interface, so one suite of cases runs over both:
// `http` (a request per call, Server-Sent Events for streams) and `ws` (/ws/api: a frame per call, subscribe frames).
import { STREAMS } from '../../contracts/streams.ts';
import { allRoutes } from '../../relay/routes.ts';
import type { Route } from '../../relay/routing/route.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { EventStream } from '../harness/sse.ts';

export type TransportName = 'http' | 'ws';
export type Fields = Record<string, unknown>;

/** An image answer, whichever way it came: bytes over HTTP, a data URL in JSON over /ws/api. */
export interface ImageAnswer {
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
}

export interface CallAnswer {
  status: number;
  /** The JSON answer (over /ws/api without the frame's `status`); undefined for bytes. */
  body: any;
  image?: ImageAnswer;
  /** HTTP only. */
  headers?: Headers;
}

export interface StreamEvent {
  name: string;
  data: any;
}

export interface Subscription {
  /** 200 when the stream is open, else the refusal's status with its JSON in `body`. */
  status: number;
  body: any;
  events(): StreamEvent[];
  next(name: string, where?: (data: any) => boolean): Promise<StreamEvent>;
  close(): Promise<void>;
}

export interface Transport {
  name: TransportName;
  /**
   * Calls a route named as in the tables (`'POST /roll'`) with these parameters; `key` null sends none. Over HTTP
   * a GET takes them in the query, other methods in a JSON body; `{name}` in the path is filled from them. The
   * headers a route declares go as HTTP headers, and over /ws/api as message fields of the same name.
   */
  call(route: string, parameters?: Fields, key?: string | null, headers?: Record<string, string>): Promise<CallAnswer>;
  subscribe(route: string, filters?: Record<string, string>, key?: string): Promise<Subscription>;
  close(): void;
}

export function routeNamed(name: string): Route {
  const route = allRoutes.find((candidate) => `${candidate.method} ${candidate.path}` === name);
  if (!route) throw new Error(`no route ${name}`);
  return route;
}

/** The /ws/api message type that calls a route: a world route's operation, or the one a local route declares. */
export function operationOf(route: Route): string | undefined {
  return route.kind === 'stream' ? undefined : route.operation;
}

export function channelOf(route: Route): string | undefined {
  return route.kind === 'stream' ? STREAMS[route.stream].channel : undefined;
}

export function httpTransport(baseUrl: string, defaultKey: string): Transport {
  return {
    name: 'http',
    async call(name, parameters = {}, key = defaultKey, declared = {}) {
      const route = routeNamed(name);
      const { path, rest } = filledPath(route.path, parameters);
      const url = new URL(path, baseUrl);
      const headers: Record<string, string> = key === null ? { ...declared } : { ...declared, 'x-api-key': key };
      let body: string | undefined;
      if (route.method === 'GET') {
        for (const [field, value] of Object.entries(rest)) url.searchParams.set(field, String(value));
      } else {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(rest);
      }
      const response = await fetch(url, { method: route.method, headers, body });
      const bytes = Buffer.from(await response.arrayBuffer());
      const contentType = response.headers.get('content-type') ?? '';
      if (contentType.includes('json'))
        return { status: response.status, body: JSON.parse(bytes.toString()), headers: response.headers };
      if (!contentType.startsWith('image/'))
        return { status: response.status, body: bytes.toString(), headers: response.headers };
      const pixels = (header: string) => Number(response.headers.get(header));
      const image = { bytes, mimeType: contentType, width: pixels('x-image-width'), height: pixels('x-image-height') };
      return { status: response.status, body: undefined, image, headers: response.headers };
    },
    async subscribe(name, filters = {}, key = defaultKey) {
      const url = new URL(routeNamed(name).path, baseUrl);
      for (const [field, value] of Object.entries(filters)) url.searchParams.set(field, value);
      const stream = new EventStream(url.toString(), key);
      await stream.ready;
      const refusal = stream.named('http-error')[0];
      return {
        status: stream.status,
        body: refusal ? JSON.parse(refusal.data) : undefined,
        events: () => stream.events.filter((event) => event.name !== 'connected'),
        next: (event, where) => stream.next(event, { where }),
        close: async () => {
          stream.close();
          await stream.ended;
        },
      };
    },
    close() {},
  };
}

function filledPath(template: string, parameters: Fields): { path: string; rest: Fields } {
  const rest = { ...parameters };
  const path = template.replace(/\{(\w+)\}/g, (_match, field: string) => {
    const value = rest[field];
    delete rest[field];
    return encodeURIComponent(String(value ?? 'x'));
  });
  return { path, rest };
}

export function wsTransport(wsBase: string, defaultKey: string): Transport {
  const sockets = new Map<string, ApiSocket>();
  let nextRequestId = 0;

  /** A socket authenticated with this key, or the close that refused it. */
  async function socketFor(key: string | null): Promise<ApiSocket | { code: number; reason: string }> {
    const open = key === null ? undefined : sockets.get(key);
    if (open && open.socket.readyState === open.socket.OPEN) return open;
    const socket = await new ApiSocket(`${wsBase}/ws/api`).opened();
    socket.send(key === null ? { type: 'auth' } : { type: 'auth', token: key });
    const outcome = await Promise.race([
      socket.next((message) => message.type === 'connected').then(() => socket),
      socket.closed,
    ]);
    if (outcome === socket && key !== null) sockets.set(key, socket);
    return outcome;
  }

  return {
    name: 'ws',
    async call(name, parameters = {}, key = defaultKey, headers = {}) {
      const route = routeNamed(name);
      const socket = await socketFor(key);
      if (!(socket instanceof ApiSocket)) return { status: 401, body: { error: socket.reason } };
      const requestId = `contract-${++nextRequestId}`;
      const type = operationOf(route) ?? `no operation for ${name}`;
      socket.send({ type, requestId, ...headers, ...parameters });
      const { status = 200, ...body } = await socket.next((message) => message.requestId === requestId, 25_000);
      const image = imageIn(body);
      return image ? { status, body, image } : { status, body };
    },
    async subscribe(name, filters = {}, key = defaultKey) {
      const channel = channelOf(routeNamed(name));
      const socket = await socketFor(key);
      if (!(socket instanceof ApiSocket)) return refusedSubscription(401, { error: socket.reason });
      const requestId = `contract-${++nextRequestId}`;
      socket.send({ type: 'subscribe', channel, requestId, filters });
      const answer = await socket.next((message) => message.requestId === requestId);
      const { status = 200, ...body } = answer;
      if (body.type !== 'subscribed') return refusedSubscription(status, body);
      const isEvent = (message: any) =>
        typeof message.type === 'string' && message.type.endsWith('-event') && message.clientId === body.clientId;
      const events = () =>
        socket.received
          .slice(socket.received.indexOf(answer) + 1)
          .filter(isEvent)
          .map((message) => ({ name: message.event as string, data: message.data }));
      return {
        status,
        body,
        events,
        async next(event, where) {
          const first = socket.received.indexOf(answer);
          const matches = (message: any) =>
            isEvent(message) && message.event === event && (!where || where(message.data));
          const found = await socket.next((message) => socket.received.indexOf(message) > first && matches(message));
          return { name: found.event, data: found.data };
        },
        async close() {
          const closing = `contract-${++nextRequestId}`;
          socket.send({ type: 'unsubscribe', channel, requestId: closing });
          await socket.next((message) => message.requestId === closing && message.type === 'unsubscribed');
        },
      };
    },
    close() {
      for (const socket of sockets.values()) socket.close();
      sockets.clear();
    },
  };
}

function refusedSubscription(status: number, body: any): Subscription {
  return {
    status,
    body,
    events: () => [],
    next: () => Promise.reject(new Error(`the subscription was refused: ${status}`)),
    close: async () => {},
  };
}

/** The data URL a /ws/api image answer carries, decoded. */
function imageIn(body: Fields): ImageAnswer | undefined {
  if (typeof body.imageData !== 'string') return undefined;
  const dataUrl = body.imageData;
  return {
    bytes: Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'),
    mimeType: String(body.mimeType),
    width: Number(body.width),
    height: Number(body.height),
  };
}

export function transports(baseUrl: string, wsBase: string, key: string): Record<TransportName, Transport> {
  return { http: httpTransport(baseUrl, key), ws: wsTransport(wsBase, key) };
}
