// The world's side of /relay, as the module's WebSocketManager runs it (module-protocol.md §2, §3.7).
// Uses the global WebSocket, so it runs in Node 22+ and in browsers alike.
import { WORLD_METADATA_KEYS, type WorldMessage, type WorldRequest } from '../contracts/world-protocol.ts';
import { EVENT_CHANNELS, type EventChannel } from '../contracts/streams.ts';
import type { SandboxWorld } from './sandbox-world.ts';

export interface SandboxLink {
  readonly clientId: string;
  readonly connected: boolean;
  /** Settles when the link is closed for good (after close(), a permanent close code, or without reconnect). */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  relayUrl: string;
  clientId: string;
  token: string;
  pingIntervalMs?: number;
  reconnect?: boolean;
  reconnectBaseDelayMs?: number;
  reconnectMaxAttempts?: number;
  /** How long to wait after a 4004 (another GM's browser holds the world) before trying again; the module waits 30 s. */
  deferredRetryMs?: number;
  /**
   * Called when the relay refuses the token for good (1008, 4001 or 4002): the module then clears this browser's token
   * and opens its Connection dialog, so the GM pairs again (module-protocol.md §2.3).
   */
  onTokenRefused?: (code: number, reason: string) => void;
}

export interface LegacyConnectOptions {
  relayUrl: string;
  apiKey: string;
  clientId?: string;
  pingIntervalMs?: number;
}

/** Carries the close code when the relay refuses the connection. */
export class RelayConnectionError extends Error {
  readonly code: number;
  readonly reason: string;

  constructor(code: number, reason: string) {
    super(`Relay closed the connection (${code}${reason ? `: ${reason}` : ''})`);
    this.code = code;
    this.reason = reason;
  }
}

/** Close codes after which the module stops trying (module-protocol.md §2.3); 4004 defers instead. */
const PERMANENT_CLOSE_CODES = new Set([1000, 1008, 4001, 4002]);
/** Of those, the ones that say the token is no good: the module forgets it and asks the GM to pair again. */
const TOKEN_REFUSED_CLOSE_CODES = new Set([1008, 4001, 4002]);
const DUPLICATE_CONNECTION = 4004;
const DEFERRED_RETRY_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;

export function relaySocketUrl(relayUrl: string): string {
  return `${relayUrl.replace(/\/relay\/?$/, '').replace(/\/+$/, '')}/relay`;
}

function withQuery(base: string, parameters: [string, string | undefined][]): string {
  const url = new URL(base);
  for (const [name, value] of parameters) if (value !== undefined && value !== '') url.searchParams.set(name, value);
  return url.toString();
}

function metadataParameters(world: SandboxWorld): [string, string | undefined][] {
  return WORLD_METADATA_KEYS.map((key) => [key, world.metadata[key]]);
}

interface ReconnectPolicy {
  enabled: boolean;
  baseDelayMs: number;
  maxAttempts: number;
  deferredDelayMs: number;
}

interface Handshake {
  url: string;
  /** The first frame, if the handshake has one. */
  authFrame: WorldMessage | null;
  sendPlayerList: boolean;
  onTokenRefused?: (code: number, reason: string) => void;
}

class RelaySession implements SandboxLink {
  readonly clientId: string;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #world: SandboxWorld;
  readonly #handshake: Handshake;
  readonly #pingIntervalMs: number;
  readonly #reconnect: ReconnectPolicy;
  #socket: WebSocket | null = null;
  #state: 'connecting' | 'authenticating' | 'connected' | 'closed' = 'connecting';
  #stopped = false;
  #attempts = 0;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #pingTimer: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: () => void;
  #settleClosed!: (value: { code: number; reason: string }) => void;
  #firstConnection: { resolve: () => void; reject: (error: Error) => void } | null = null;

  constructor(
    world: SandboxWorld,
    clientId: string,
    handshake: Handshake,
    pingIntervalMs: number,
    reconnect: ReconnectPolicy,
  ) {
    this.#world = world;
    this.clientId = clientId;
    this.#handshake = handshake;
    this.#pingIntervalMs = pingIntervalMs;
    this.#reconnect = reconnect;
    this.closed = new Promise((resolve) => {
      this.#settleClosed = resolve;
    });
    this.#unsubscribe = world.onPush((message) => {
      if (this.connected) this.#send(message);
    });
  }

  get connected(): boolean {
    return this.#state === 'connected';
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#firstConnection = { resolve, reject };
      this.#open();
    });
  }

  async close(): Promise<void> {
    this.#stopped = true;
    this.#clearTimers();
    const socket = this.#socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(1000, 'Disconnecting');
    else this.#finish(1000, 'Disconnecting');
    await this.closed;
  }

  #open(): void {
    this.#state = 'connecting';
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.#handshake.url);
    } catch (error) {
      this.#onClose(1006, error instanceof Error ? error.message : String(error));
      return;
    }
    this.#socket = socket;
    const timeout = this.#later(CONNECT_TIMEOUT_MS, () => {
      if (socket.readyState === WebSocket.CONNECTING) socket.close();
    });
    socket.addEventListener('open', () => {
      clearTimeout(timeout);
      if (this.#handshake.authFrame) {
        this.#state = 'authenticating';
        this.#send(this.#handshake.authFrame);
      } else {
        this.#onAuthenticated();
      }
    });
    socket.addEventListener('message', (event) => this.#onFrame(String(event.data)));
    socket.addEventListener('close', (event) => {
      clearTimeout(timeout);
      if (this.#socket === socket) this.#onClose(event.code, event.reason);
    });
    socket.addEventListener('error', () => {});
  }

  #onFrame(text: string): void {
    let message: WorldRequest;
    try {
      message = JSON.parse(text) as WorldRequest;
    } catch {
      return;
    }
    if (this.#state === 'authenticating') {
      if (message.type === 'auth-success') this.#onAuthenticated();
      return;
    }
    if (message.type === 'event-subscription-update') {
      const channel = message.channel as EventChannel;
      if (EVENT_CHANNELS.includes(channel)) this.#world.setChannel(channel, Number(message.count) > 0);
      return;
    }
    if (message.type === 'pong' || message.type === 'ping' || message.type === 'auth-success') return;
    // Requests run concurrently, as the module never awaits a handler before taking the next frame.
    void this.#world.handle(message).then(
      (reply) => {
        if (reply && this.connected) this.#send(reply);
      },
      () => {},
    );
  }

  #onAuthenticated(): void {
    this.#state = 'connected';
    this.#attempts = 0;
    this.#send({ type: 'ping' });
    const users = this.#world.playerList();
    if (this.#handshake.sendPlayerList && users.length > 0) this.#send({ type: 'player-list', users });
    this.#pingTimer = setInterval(() => this.#send({ type: 'ping' }), this.#pingIntervalMs);
    (this.#pingTimer as { unref?: () => void }).unref?.();
    this.#firstConnection?.resolve();
    this.#firstConnection = null;
  }

  #onClose(code: number, reason: string): void {
    this.#state = 'closed';
    if (this.#pingTimer !== null) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
    if (this.#firstConnection && !this.#reconnect.enabled) {
      this.#firstConnection.reject(new RelayConnectionError(code, reason));
      this.#firstConnection = null;
    }
    const delay = this.#retryDelay(code);
    if (delay === null) {
      if (!this.#stopped && TOKEN_REFUSED_CLOSE_CODES.has(code)) this.#handshake.onTokenRefused?.(code, reason);
      this.#firstConnection?.reject(new RelayConnectionError(code, reason));
      this.#firstConnection = null;
      this.#finish(code, reason);
      return;
    }
    this.#later(delay, () => this.#open());
  }

  /** The module's back-off: min(30 s, base × 2^(n−1)); 4004 waits for the other GM's browser to let go. */
  #retryDelay(code: number): number | null {
    if (this.#stopped || !this.#reconnect.enabled || PERMANENT_CLOSE_CODES.has(code)) return null;
    if (code === DUPLICATE_CONNECTION) return this.#reconnect.deferredDelayMs;
    if (this.#attempts >= this.#reconnect.maxAttempts) return null;
    this.#attempts++;
    return Math.min(30_000, this.#reconnect.baseDelayMs * 2 ** (this.#attempts - 1));
  }

  #finish(code: number, reason: string): void {
    this.#stopped = true;
    this.#state = 'closed';
    this.#clearTimers();
    this.#unsubscribe();
    this.#settleClosed({ code, reason });
  }

  #send(message: WorldMessage): void {
    if (this.#socket?.readyState !== WebSocket.OPEN) return;
    try {
      this.#socket.send(JSON.stringify(message));
    } catch {
      // The module's send() swallows serialization and socket errors; the requester just gets no reply.
    }
  }

  #later(delayMs: number, action: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      action();
    }, delayMs);
    this.#timers.add(timer);
    return timer;
  }

  #clearTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#pingTimer !== null) clearInterval(this.#pingTimer);
    this.#pingTimer = null;
  }
}

/** Connects as a 3.x module: `<base>/relay?id=...&metadata`, then `{type:"auth", token}` as the first frame. */
export async function connectSandbox(world: SandboxWorld, options: ConnectOptions): Promise<SandboxLink> {
  const socketUrl = relaySocketUrl(options.relayUrl);
  // What the module keeps in its world settings once paired, and connects with.
  Object.assign(world.game.relaySettings, {
    wsRelayUrl: socketUrl,
    clientId: options.clientId,
    pairedRelayUrl: world.game.relaySettings.pairedRelayUrl || socketUrl,
  });
  const url = withQuery(socketUrl, [['id', options.clientId], ...metadataParameters(world)]);
  const session = new RelaySession(
    world,
    options.clientId,
    {
      url,
      authFrame: { type: 'auth', token: options.token },
      sendPlayerList: true,
      onTokenRefused: options.onTokenRefused,
    },
    options.pingIntervalMs ?? 30_000,
    {
      enabled: options.reconnect ?? false,
      baseDelayMs: options.reconnectBaseDelayMs ?? 1000,
      maxAttempts: options.reconnectMaxAttempts ?? 20,
      deferredDelayMs: options.deferredRetryMs ?? DEFERRED_RETRY_MS,
    },
  );
  await session.start();
  return session;
}

/** Connects as a 2.x module: the API key in the query string, no auth frame, usable as soon as it opens. */
export async function connectSandboxLegacy(world: SandboxWorld, options: LegacyConnectOptions): Promise<SandboxLink> {
  const clientId = options.clientId ?? `foundry-${world.game.moduleUserId}`;
  const url = withQuery(options.relayUrl, [['id', clientId], ['token', options.apiKey], ...metadataParameters(world)]);
  const session = new RelaySession(
    world,
    clientId,
    { url, authFrame: null, sendPlayerList: false },
    options.pingIntervalMs ?? 30_000,
    { enabled: false, baseDelayMs: 1000, maxAttempts: 0, deferredDelayMs: DEFERRED_RETRY_MS },
  );
  await session.start();
  return session;
}
