import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode } from '../../contracts/world-protocol.ts';
import { EVENT_CHANNELS } from '../../contracts/streams.ts';
import type { RelayServices } from '../services.ts';
import { corsAllows, isRelayOrigin, refuseUpgrade } from '../gate/request-gate.ts';
import { raiseFrameLimit, UNAUTHENTICATED_FRAME_BYTES, type UnauthenticatedSockets } from '../gate/socket-limits.ts';
import { normalisedAddress } from '../gate/addresses.ts';
import { carriesApiKey, KEY_IN_URL_REFUSAL, noteKeyInUrl } from '../gate/key-in-url.ts';
import { httpCallContext } from '../http/write-answer.ts';
import type { CallContext, Route } from '../routing/route.ts';
import { presentedKey } from '../routing/access.ts';
import { CallerSession, parseObject, socketRoutesOf, type SocketRoutes } from './caller-session.ts';
import { refusedCall, type CallerName } from '../activity/activity-log.ts';
import { HttpError } from '../errors.ts';
import { largestBodyFor } from '../http/body.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';

const AUTH_TIMEOUT_MS = 10_000;
/** How many /ws/api sockets one API key may hold open: one carries every call and subscription a tool needs. */
export const MAX_SOCKETS_PER_KEY = 8;
const TOO_MANY_SOCKETS = `At most ${MAX_SOCKETS_PER_KEY} /ws/api sockets may be open with one API key: close one, or share one socket`;
/** "Try again later": the socket was refused for now, not for good. */
const TRY_AGAIN_LATER = 1013;

export interface CallerApiLimits {
  authTimeoutMs?: number;
  /** The largest upload body, and so the largest frame of a key that may upload (the relay's `bodyLimitBytes`). */
  uploadLimitBytes?: number;
  /** The places for sockets waiting to authenticate, shared with /relay. */
  unauthenticated: UnauthenticatedSockets;
}

/**
 * `/ws/api`: the same operations and event streams as HTTP over one socket, for callers that prefer it.
 * The key comes in the `x-api-key` header of the upgrade, or in a first frame `{type: "auth", token, clientId?}`.
 */
export class CallerApi {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: UNAUTHENTICATED_FRAME_BYTES,
    perMessageDeflate: false,
  });
  private readonly services: RelayServices;
  /** The catalog's routes, for the frame limit of a key's largest body. */
  private readonly catalog: readonly Route[];
  private readonly routes: SocketRoutes;
  private readonly limits: CallerApiLimits & { authTimeoutMs: number };
  private readonly sessions = new Set<CallerSession>();

  constructor(services: RelayServices, routes: readonly Route[], limits: CallerApiLimits) {
    this.services = services;
    this.catalog = routes;
    this.routes = socketRoutesOf(routes);
    this.limits = { ...limits, authTimeoutMs: limits.authTimeoutMs ?? AUTH_TIMEOUT_MS };
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (carriesApiKey(request.url ?? '/')) {
      noteKeyInUrl(request.url ?? '/', 'WS', this.services);
      return refuseUpgrade(socket, 401, KEY_IN_URL_REFUSAL);
    }
    const url = new URL(request.url ?? '/', 'http://relay.invalid');
    const headerKey = presentedKey(request.headers);
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      !isRelayOrigin(origin, request, this.services) &&
      !corsAllows(this.services.settings.get().corsOrigins, origin)
    ) {
      const message = `A page from ${origin} may not open /ws/api: add its origin to the allowed origins in Tabletop Relay's settings (Access)`;
      return refuseUpgrade(socket, 403, message);
    }
    const keyInHeader = typeof headerKey === 'string' && headerKey !== '';
    if (keyInHeader && this.isFull(this.services.keys.verify(headerKey)?.id)) {
      return refuseUpgrade(socket, 429, TOO_MANY_SOCKETS);
    }
    const address = normalisedAddress(request.socket.remoteAddress);
    const crowded = keyInHeader ? undefined : this.limits.unauthenticated.refusal({ address, origin });
    if (crowded !== undefined) return refuseUpgrade(socket, 503, crowded);
    const upgrade: CallContext = { ...httpCallContext(request), transport: 'ws' };
    this.server.handleUpgrade(request, socket, head, (webSocket) => {
      webSocket.on('error', () => webSocket.terminate());
      const defaultClientId = url.searchParams.get('clientId') ?? undefined;
      if (keyInHeader) this.admit(webSocket, headerKey, defaultClientId, upgrade);
      else this.awaitAuthFrame(webSocket, defaultClientId, address, upgrade);
    });
  }

  /** Tells every socket opened with this API key why it ends, and closes it: the key was revoked, rotated or changed. */
  endSessionsOf(keyId: string, reason: string): void {
    for (const session of this.sessions) if (session.keyId === keyId) session.endForKeyChange(reason);
  }

  close(): void {
    for (const socket of this.server.clients) socket.terminate();
    this.server.close();
  }

  private awaitAuthFrame(
    socket: WebSocket,
    defaultClientId: string | undefined,
    address: string,
    upgrade: CallContext,
  ): void {
    const timer = setTimeout(() => socket.close(CloseCode.noAuth, 'Authentication timeout'), this.limits.authTimeoutMs);
    const release = this.limits.unauthenticated.hold(socket, address);
    socket.once('close', () => clearTimeout(timer));
    socket.once('message', (data) => {
      clearTimeout(timer);
      release();
      const frame = parseObject(data.toString());
      if (frame?.type !== 'auth' || typeof frame.token !== 'string' || frame.token === '') {
        this.refuse(socket, { keyName: null, keyProblem: 'missing' }, 'Invalid auth message');
        return;
      }
      const clientId = typeof frame.clientId === 'string' && frame.clientId !== '' ? frame.clientId : defaultClientId;
      this.admit(socket, frame.token, clientId, upgrade);
    });
  }

  /** Closes a socket that did not authenticate, and notes it in the activity log as a refused call. */
  private refuse(socket: WebSocket, caller: CallerName, reason: string): void {
    socket.close(CloseCode.noAuth, reason);
    this.services.activity.record(refusedCall(caller, 'WS', '/ws/api', new HttpError(401, reason), performance.now()));
  }

  private admit(socket: WebSocket, apiKey: string, clientId: string | undefined, upgrade: CallContext): void {
    const key = this.services.keys.verify(apiKey);
    if (!key) {
      this.refuse(socket, { keyName: null, keyProblem: 'unknown' }, 'Invalid API key');
      return;
    }
    if (this.isFull(key.id)) {
      socket.close(TRY_AGAIN_LATER, TOO_MANY_SOCKETS);
      this.services.activity.record(
        refusedCall({ keyName: key.name }, 'WS', '/ws/api', new HttpError(429, TOO_MANY_SOCKETS), performance.now()),
      );
      return;
    }
    raiseFrameLimit(socket, this.frameLimitOf(key));
    const session = new CallerSession(socket, { apiKey, keyId: key.id }, clientId, upgrade, this.services, this.routes);
    this.sessions.add(session);
    socket.on('message', (data, isBinary) => {
      if (!isBinary) session.receive(data.toString());
    });
    socket.on('close', () => {
      this.sessions.delete(session);
      session.end();
    });
    session.send({
      type: 'connected',
      clientId: clientId ?? null,
      supportedTypes: this.routes.supportedTypes,
      eventChannels: EVENT_CHANNELS,
    });
  }

  /** Whether this key holds as many sockets as one key may. */
  private isFull(keyId: string | undefined): boolean {
    let open = 0;
    for (const session of this.sessions) if (session.keyId === keyId) open += 1;
    return open >= MAX_SOCKETS_PER_KEY;
  }

  /** A frame may be as large as the largest HTTP body of the key: an upload's only with the upload scope. */
  private frameLimitOf(key: ApiKeyRecord): number {
    return largestBodyFor(key.scopes, this.catalog, this.limits.uploadLimitBytes);
  }
}
