import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { HttpError } from '../errors.ts';
import { refuseUpgrade } from '../gate/request-gate.ts';
import { raiseFrameLimit, UNAUTHENTICATED_FRAME_BYTES, type UnauthenticatedSockets } from '../gate/socket-limits.ts';
import {
  CloseCode,
  type PlayerListEntry,
  type WorldMessage,
  type WorldRequest,
} from '../../contracts/world-protocol.ts';
import { EVENT_CHANNELS, STREAMS, type EventChannel } from '../../contracts/streams.ts';
import type { WorldOperation } from '../../contracts/operations.ts';
import { authTokenOf, readUpgrade, type WorldUpgrade } from './handshake.ts';
import { shownClean } from '../shown-text.ts';
import { isThisComputer } from '../gate/addresses.ts';
import { PendingRequests, type WorldReply } from './pending-requests.ts';
import { WorldConnection } from './world-connection.ts';

const PUSH_TYPES = new Set<string>(Object.values(STREAMS).map((stream) => stream.pushType));
/** A connected world's largest frame: sheet images and file downloads arrive in one frame as data URLs. */
const WORLD_FRAME_BYTES = 256 * 1024 * 1024;
/** A close reason fits in 123 bytes, so the page's origin is left out of it. */
const REFUSED_PAGE_REASON =
  "This page may not connect this world: allow its origin in Tabletop Relay's settings (Access)";

function refusedPageMessage(origin: string): string {
  return `A page from ${origin} may not connect this world: worlds connect from the Foundry page they were paired on. If this is that page, add its origin to the allowed origins in Tabletop Relay's settings (Access).`;
}

export interface TokenGrant {
  tokenId: string;
  clientId: string;
  name: string;
  /**
   * A world keeper's token: it holds the world only while no GM's browser does, gives way to any other token of the
   * world at once, and opens /relay from this computer only (the keeper's page runs here).
   */
  standsIn?: boolean;
}

/** A `world:link` API key that lets a 2.x module connect as one world. */
export interface LinkGrant {
  keyId: string;
  name: string;
}

type Grant =
  | { handshake: 'token'; tokenId: string; tokenName: string; standsIn: boolean }
  | { handshake: 'legacy-key'; keyId: string; tokenName: string; standsIn?: undefined };

export interface TabletopOptions {
  /** Looks up a 3.x connection token. */
  verifyToken(token: string): TokenGrant | undefined;
  /** The grant of a 2.x module's API key for this client id, or undefined when the key may not link this world. */
  verifyLegacyKey(key: string, clientId: string): LinkGrant | undefined;
  /** Whether a browser page of this origin may open /relay for this client id (its Foundry page, or an allowed origin). */
  originAllowed(origin: string, clientId: string): boolean;
  /** The places for sockets waiting to authenticate, shared with /ws/api. */
  unauthenticated: UnauthenticatedSockets;
  authTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long a connected world has to answer a protocol ping when a second connection of it arrives. */
  livenessProbeMs?: number;
}

export interface TabletopEvents {
  'world-connected': [world: WorldConnection];
  'world-disconnected': [world: WorldConnection, code: number];
  push: [clientId: string, message: WorldMessage];
  players: [world: WorldConnection];
}

/**
 * The tabletop link: the /relay WebSocket that worlds connect to, the registry of connected worlds, and the requests
 * sent to them (module-protocol.md §2, §4).
 */
export class Tabletop extends EventEmitter<TabletopEvents> {
  private readonly options: Required<TabletopOptions>;
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: UNAUTHENTICATED_FRAME_BYTES,
    perMessageDeflate: false,
  });
  private readonly connected = new Map<string, WorldConnection>();
  private readonly alive = new WeakMap<WebSocket, boolean>();
  private readonly channelCounts = new Map<string, Map<EventChannel, number>>();
  private readonly heartbeat: NodeJS.Timeout;
  readonly pending = new PendingRequests();

  constructor(options: TabletopOptions) {
    super();
    this.options = {
      ...options,
      authTimeoutMs: options.authTimeoutMs ?? 10_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 20_000,
      livenessProbeMs: options.livenessProbeMs ?? 2_000,
    };
    this.heartbeat = setInterval(() => this.checkHeartbeats(), this.options.heartbeatIntervalMs);
    this.heartbeat.unref();
  }

  worlds(): WorldConnection[] {
    return [...this.connected.values()];
  }

  world(clientId: string): WorldConnection | undefined {
    return this.connected.get(clientId);
  }

  /** Sends an operation to a world and waits for its `<operation>-result`. */
  async request(
    world: WorldConnection,
    operation: WorldOperation,
    parameters: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<WorldReply> {
    const requestId = this.pending.nextRequestId(operation);
    const request: WorldRequest = { ...parameters, type: operation, requestId };
    const reply = this.pending.wait(world.clientId, request, timeoutMs);
    try {
      world.send(request);
    } catch {
      this.pending.cancel(requestId);
      throw new HttpError(503, 'The world could not be reached; it may be reconnecting');
    }
    return reply;
  }

  /** Records how many subscribers a channel has for a world and tells the world when it is connected. */
  setChannelCount(clientId: string, channel: EventChannel, count: number): void {
    let counts = this.channelCounts.get(clientId);
    if (!counts) this.channelCounts.set(clientId, (counts = new Map()));
    if (count > 0) counts.set(channel, count);
    else counts.delete(channel);
    this.connected.get(clientId)?.sendChannelCount(channel, count);
  }

  /** Closes the sockets opened with a connection token, e.g. when the GM revokes it. */
  disconnectToken(tokenId: string, reason: string): void {
    for (const world of this.connected.values()) {
      if (world.tokenId === tokenId) world.close(CloseCode.noAuth, reason);
    }
  }

  /** Closes the 2.x world linked with this API key, e.g. when the GM revokes the key; 1008 tells the module to stop. */
  disconnectKey(keyId: string, reason: string): void {
    for (const world of this.connected.values()) {
      if (world.keyId === keyId) world.close(CloseCode.policyViolation, reason);
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const socket of this.server.clients) socket.terminate();
    this.server.close();
  }

  /** Takes over an HTTP upgrade request for /relay. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const verdict = readUpgrade(request);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.message);
    const { upgrade } = verdict;
    const { origin, clientId } = upgrade;
    const refusedOrigin = origin !== undefined && !this.options.originAllowed(origin, clientId) ? origin : undefined;
    const pageRefused = refusedOrigin !== undefined;
    if (upgrade.legacyKey !== undefined) {
      const link = this.options.verifyLegacyKey(upgrade.legacyKey, clientId);
      // The key is known before the upgrade: a good key from another page is refused here, a bad one told so with 1008.
      if (link && refusedOrigin) return refuseUpgrade(socket, 403, refusedPageMessage(refusedOrigin));
      this.server.handleUpgrade(request, socket, head, (webSocket) => this.admitLegacy(webSocket, upgrade, link));
      return;
    }
    const crowded = this.options.unauthenticated.refusal({ address: upgrade.remoteAddress, origin, pageRefused });
    if (crowded) return refuseUpgrade(socket, 503, crowded);
    this.server.handleUpgrade(request, socket, head, (webSocket) => this.authenticate(webSocket, upgrade, pageRefused));
  }

  /** A 2.x module: its key in the URL is its whole handshake; 1008 (final for the module) when the key links nothing. */
  private admitLegacy(socket: WebSocket, upgrade: WorldUpgrade, link: LinkGrant | undefined): void {
    socket.on('error', () => socket.terminate());
    if (!link) {
      socket.close(CloseCode.policyViolation, 'Invalid API key');
      return;
    }
    void this.admit(socket, upgrade, { handshake: 'legacy-key', keyId: link.keyId, tokenName: link.name });
  }

  /**
   * A 3.x module: its first frame carries the token. A page the world was not paired on is heard too, in places apart,
   * because only its token tells the two cases apart: a token the relay no longer knows (revoked, its world forgotten,
   * the data directory lost) gets 1008, on which the module clears it and asks the GM to pair again; a valid token from
   * that page is still refused, with a code the module retries on (`pageRefused`) while the GM allows the page.
   */
  private authenticate(socket: WebSocket, upgrade: WorldUpgrade, pageRefused: boolean): void {
    socket.on('error', () => socket.terminate());
    const timer = setTimeout(
      () => socket.close(CloseCode.noAuth, 'Authentication timeout'),
      this.options.authTimeoutMs,
    );
    const release = pageRefused
      ? this.options.unauthenticated.holdRefusedPage(socket)
      : this.options.unauthenticated.hold(socket, upgrade.remoteAddress);
    socket.once('message', (data) => {
      clearTimeout(timer);
      release();
      const token = authTokenOf(data.toString());
      if (token === undefined) {
        socket.close(CloseCode.noAuth, 'Invalid auth message');
        return;
      }
      const grant = this.options.verifyToken(token);
      if (!grant) {
        socket.close(CloseCode.policyViolation, 'Authentication failed');
        return;
      }
      if (grant.clientId !== upgrade.clientId) {
        socket.close(CloseCode.policyViolation, 'Authentication failed: this token was issued for another world');
        return;
      }
      const standsIn = grant.standsIn === true;
      if (standsIn && !isThisComputer(upgrade.remoteAddress)) {
        socket.close(
          CloseCode.policyViolation,
          "Authentication failed: a keeper's token opens /relay from this computer only",
        );
        return;
      }
      if (pageRefused) {
        socket.close(CloseCode.pageRefused, REFUSED_PAGE_REASON);
        return;
      }
      void this.admit(socket, upgrade, { handshake: 'token', tokenId: grant.tokenId, tokenName: grant.name, standsIn });
    });
    socket.once('close', () => clearTimeout(timer));
  }

  private async admit(socket: WebSocket, upgrade: WorldUpgrade, grant: Grant): Promise<void> {
    const existing = this.connected.get(upgrade.clientId);
    const replace = existing === undefined || (await this.mayReplace(existing, grant));
    if (socket.readyState !== socket.OPEN) return;
    if (existing !== undefined && this.connected.get(upgrade.clientId) !== existing) {
      // The place changed hands while the probe waited: judge again against whoever holds it now.
      await this.admit(socket, upgrade, grant);
      return;
    }
    if (!replace) {
      socket.close(CloseCode.duplicateConnection, 'Client ID already connected');
      return;
    }
    if (existing) this.evict(existing, grant);
    const world = new WorldConnection({ socket, ...upgrade, ...grant });
    this.connected.set(world.clientId, world);
    this.alive.set(socket, true);
    socket.on('pong', () => this.alive.set(socket, true));
    socket.on('message', (data, isBinary) => this.receive(world, data, isBinary));
    socket.on('close', (code) => this.forget(world, code));
    raiseFrameLimit(socket, WORLD_FRAME_BYTES);
    world.send({ type: 'auth-success' });
    // Every channel, zeros included: the module starts with all off, and may still push from before a relay restart.
    const counts = this.channelCounts.get(world.clientId);
    for (const channel of EVENT_CHANNELS) world.sendChannelCount(channel, counts?.get(channel) ?? 0);
    this.emit('world-connected', world);
  }

  /**
   * Whether a newcomer takes the place of the world's connection. A world keeper's page gives way to any other token of
   * the world (the GM's browser always wins, and never sees 4004). A world holding its connection token is never
   * displaced by a 2.x key, and displaces one. Between equals, a connection that still answers pings keeps its place
   * (a second GM tab: the newcomer gets 4004, which the module retries later) and only a silent one is replaced.
   */
  private async mayReplace(existing: WorldConnection, grant: Grant): Promise<boolean> {
    if (!existing.open) return true;
    if (existing.standsIn) return grant.handshake === 'token' && !grant.standsIn;
    if (existing.handshake !== grant.handshake) return grant.handshake === 'token';
    return !(await existing.answersPing(this.options.livenessProbeMs));
  }

  /**
   * A keeper's page and a 2.x world give way with 1000, final for the module (the keeper closes its page anyway); a
   * silent connection gets 4004, so a tab that was only slow waits for the place instead of going offline for good.
   */
  private evict(existing: WorldConnection, grant: Grant): void {
    const [code, reason] = existing.standsIn
      ? [CloseCode.normal, "Replaced by a Gamemaster's browser: the world keeper stands back"]
      : existing.handshake !== grant.handshake
        ? [CloseCode.normal, 'Replaced by the world connecting with its connection token']
        : [CloseCode.duplicateConnection, 'Replaced by a newer connection of this world: this one stopped answering'];
    this.forget(existing, code);
    existing.close(code, reason);
  }

  private receive(world: WorldConnection, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const text = data.toString();
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    world.lastSeen = Date.now();
    this.dispatch(world, message as WorldMessage, text);
  }

  private dispatch(world: WorldConnection, message: WorldMessage, text: string): void {
    if (message.type === 'ping') {
      world.send({ type: 'pong' });
      return;
    }
    if (message.type === 'player-list') {
      world.players = playersOf(message.users);
      this.emit('players', world);
      return;
    }
    if (typeof message.type === 'string' && PUSH_TYPES.has(message.type)) {
      this.emit('push', world.clientId, message);
      return;
    }
    this.pending.settle(world.clientId, { message, text });
  }

  private forget(world: WorldConnection, code: number): void {
    if (this.connected.get(world.clientId) !== world) return;
    this.connected.delete(world.clientId);
    this.pending.failWorld(world.clientId, new HttpError(503, 'The world disconnected before it answered'));
    this.emit('world-disconnected', world, code);
  }

  private checkHeartbeats(): void {
    for (const socket of this.server.clients) {
      if (this.alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      this.alive.set(socket, false);
      socket.ping('keepalive');
    }
  }
}

function playersOf(users: unknown): PlayerListEntry[] {
  if (!Array.isArray(users)) return [];
  return users
    .filter((user): user is Record<string, unknown> => typeof user === 'object' && user !== null)
    .map((user) => ({
      id: String(user.id ?? ''),
      name: shownClean(String(user.name ?? ''), 200),
      role: Number(user.role ?? 0),
      active: user.active === true,
    }))
    .filter((user) => user.id !== '');
}
