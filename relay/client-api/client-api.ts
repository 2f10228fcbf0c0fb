import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, EVENT_CHANNELS } from '../protocol/messages.ts';
import type { RelayServices } from '../services.ts';
import { ClientSession, parseObject, SUPPORTED_TYPES } from './client-session.ts';

const AUTH_TIMEOUT_MS = 10_000;
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * `/ws/api`: the same operations and event streams as HTTP over one socket, for callers that prefer it.
 * The key comes in the `x-api-key` header of the upgrade, or in a first frame `{type: "auth", token, clientId?}`.
 */
export class ClientApi {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly services: RelayServices;
  private readonly sessions = new Set<ClientSession>();

  constructor(services: RelayServices) {
    this.services = services;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://relay.invalid');
    const headerKey = request.headers['x-api-key'];
    this.server.handleUpgrade(request, socket, head, (webSocket) => {
      webSocket.on('error', () => webSocket.terminate());
      const defaultClientId = url.searchParams.get('clientId') ?? undefined;
      if (typeof headerKey === 'string' && headerKey !== '') this.admit(webSocket, headerKey, defaultClientId);
      else this.awaitAuthFrame(webSocket, defaultClientId);
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

  private awaitAuthFrame(socket: WebSocket, defaultClientId: string | undefined): void {
    const timer = setTimeout(() => socket.close(CloseCode.noAuth, 'Authentication timeout'), AUTH_TIMEOUT_MS);
    socket.once('close', () => clearTimeout(timer));
    socket.once('message', (data) => {
      clearTimeout(timer);
      const frame = parseObject(data.toString());
      if (frame?.type !== 'auth' || typeof frame.token !== 'string' || frame.token === '') {
        socket.close(CloseCode.noAuth, 'Invalid auth message');
        return;
      }
      const clientId = typeof frame.clientId === 'string' && frame.clientId !== '' ? frame.clientId : defaultClientId;
      this.admit(socket, frame.token, clientId);
    });
  }

  private admit(socket: WebSocket, apiKey: string, clientId: string | undefined): void {
    const key = this.services.keys.verify(apiKey);
    if (!key) {
      socket.close(CloseCode.noAuth, 'Invalid API key');
      return;
    }
    const session = new ClientSession(socket, { apiKey, keyId: key.id }, clientId, this.services);
    this.sessions.add(session);
    socket.on('message', (data, isBinary) => {
      if (!isBinary) session.receive(data.toString());
    });
    socket.on('close', () => {
      this.sessions.delete(session);
      session.end();
    });
    session.send({ type: 'connected', clientId: clientId ?? null, supportedTypes: SUPPORTED_TYPES, eventChannels: EVENT_CHANNELS });
  }
}
