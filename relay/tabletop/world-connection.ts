import type { WebSocket } from 'ws';
import type { PlayerListEntry, WorldMetadata } from '../../contracts/world-protocol.ts';
import type { EventChannel } from '../../contracts/streams.ts';

/** How the world authenticated: the 3.x connection token, or a 2.x module's API key in the URL. */
export type Handshake = 'token' | 'legacy-key';

/** One world connected over /relay. */
export class WorldConnection {
  readonly clientId: string;
  readonly metadata: WorldMetadata;
  readonly remoteAddress: string;
  /** The world's socket as `host:port` (`[host]:port` for IPv6), as the reference relay lists it on GET /clients. */
  readonly remoteEndpoint: string;
  readonly handshake: Handshake;
  /** Which connection token opened this socket, so revoking the token can close it. */
  readonly tokenId: string | undefined;
  readonly tokenName: string | undefined;
  /** Which `world:link` API key opened this socket (2.x), so revoking or changing the key can close it. */
  readonly keyId: string | undefined;
  /** Opened by a world keeper's page, which gives way to a GM's browser. */
  readonly standsIn: boolean;
  readonly connectedSince = new Date();
  /** Epoch ms of the last frame; a number, as it changes on every frame. */
  lastSeen = Date.now();
  players: PlayerListEntry[] = [];
  private readonly socket: WebSocket;

  constructor(options: {
    socket: WebSocket;
    clientId: string;
    metadata: WorldMetadata;
    remoteAddress: string;
    remotePort?: number;
    handshake: Handshake;
    tokenId?: string;
    tokenName?: string;
    keyId?: string;
    standsIn?: boolean;
  }) {
    this.socket = options.socket;
    this.clientId = options.clientId;
    this.metadata = options.metadata;
    this.remoteAddress = options.remoteAddress;
    this.remoteEndpoint = endpointOf(options.remoteAddress, options.remotePort);
    this.handshake = options.handshake;
    this.tokenId = options.tokenId;
    this.tokenName = options.tokenName;
    this.keyId = options.keyId;
    this.standsIn = options.standsIn === true;
  }

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  sendText(text: string): void {
    this.socket.send(text);
  }

  sendChannelCount(channel: EventChannel, count: number): void {
    if (this.open) this.send({ type: 'event-subscription-update', channel, count });
  }

  /** Whether the peer answers a protocol ping in time; browsers answer these themselves, even from a background tab. */
  answersPing(deadlineMs: number): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (alive: boolean): void => {
        clearTimeout(timer);
        this.socket.off('pong', answered);
        this.socket.off('close', gone);
        resolve(alive);
      };
      const answered = (): void => settle(true);
      const gone = (): void => settle(false);
      const timer = setTimeout(gone, deadlineMs);
      this.socket.on('pong', answered);
      this.socket.on('close', gone);
      this.socket.ping('liveness');
    });
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

function endpointOf(address: string, port: number | undefined): string {
  if (port === undefined) return address;
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
