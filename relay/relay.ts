import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { allRoutes } from './routes.ts';
import { ApiKeys, type ApiKeyChange } from './auth/api-keys.ts';
import { OverlayLinks } from './auth/overlay-links.ts';
import { ConnectionTokens } from './auth/connection-tokens.ts';
import { KnownWorlds } from './auth/known-worlds.ts';
import { Pairing } from './auth/pairing.ts';
import { Invitations } from './auth/invitations.ts';
import { KeyRequests, type ToolsetScopes } from './auth/key-requests.ts';
import { RequestSources } from './auth/request-sources.ts';
import { linksWorld } from './auth/world-link.ts';
import { loadAdminToken } from './admin/admin-token.ts';
import { ActivityLog } from './admin/activity.ts';
import { AdminSessions } from './admin/admin-sessions.ts';
import { relayStatus } from './admin/status.ts';
import { adminLoginUrl } from './admin/login-page.ts';
import type { RelayStatus } from '../contracts/admin-api.ts';
import { EventHub } from './events/event-hub.ts';
import { RollIds } from './events/roll-ids.ts';
import { STREAM_CHANNEL } from './events/streams.ts';
import { createRequestListener } from './http/app.ts';
import { BindError, Listener, type ListenChange } from './http/listener.ts';
import { ConnectionLimits } from './http/connection-limits.ts';
import { lanInterfaces } from './discovery/lan-interfaces.ts';
import { ClientApi } from './ws-api/client-api.ts';
import { McpEndpointLoader } from './mcp/endpoint-loader.ts';
import { MCP_PATH } from './mcp/paths.ts';
import { scopesOfToolsets, toolsOf } from './mcp/tools.ts';
import { OAuthServer } from './mcp/oauth.ts';
import { refusedUpgradeHost, worldOriginAllowed } from './http/request-gate.ts';
import { UnauthenticatedSockets } from './http/socket-limits.ts';
import type { IntegrationPackageFolders, ListenPlace, RelayServices } from './services.ts';
import { RateLimiter } from './routing/rate-limit.ts';
import { DEFAULT_SETTINGS, Settings, type RelaySettings } from './storage/settings.ts';
import { HttpError } from './errors.ts';
import { consoleLog, type RelayLog } from './log.ts';
import { Tabletop } from './world-link/tabletop.ts';
import { CaptureService, type CaptureOptions } from './capture/capture-service.ts';
import { LanDiscovery } from './discovery/lan-discovery.ts';
import { KeeperSettings } from './keeper/keeper-settings.ts';
import { WorldKeepers } from './keeper/world-keepers.ts';
import { DEFAULT_KEEPER_TIMING, type KeeperTiming } from './keeper/world-keeper.ts';

export const DEFAULT_PORT = DEFAULT_SETTINGS.port;
export const DEFAULT_HOST = '127.0.0.1';
const CLIENT_API_PATH = '/ws/api';

export interface RelayOptions {
  /** Where keys, tokens, known worlds and the admin token are kept. */
  dataDir: string;
  /** Listen here for this run instead of on the port setting (never stored); 0 picks a free port. */
  port?: number;
  /**
   * When another program holds the port at start, listen on the next free one instead of failing, and say so in the
   * status (`portFallback`). The desktop app does; `serve` fails so a script never finds the relay somewhere else.
   */
  nextFreePortIfTaken?: boolean;
  /** Where the relay's own log lines go; the console by default. */
  log?: RelayLog;
  /**
   * Listen on this one address whatever the LAN access setting says (127.0.0.1: this computer; 0.0.0.0 or ::, every
   * address). Without it the relay listens on 127.0.0.1, and with LAN access on each LAN address of this computer too.
   */
  host?: string;
  timeoutOverrideMs?: number;
  authTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long a connected world has to answer a ping when a second connection of it arrives (2 s by default). */
  livenessProbeMs?: number;
  keepaliveIntervalMs?: number;
  /** Settings that win over the stored ones for this run. */
  settings?: Partial<RelaySettings>;
  /** The largest body an upload route takes (100 MiB by default); other routes take 1 MiB (public ones 64 KiB) at most. */
  bodyLimitBytes?: number;
  /** Browser capture for GET /sheet, GM sessions and world keepers; false turns it off. */
  capture?: CaptureOptions | false;
  /** How soon world keepers start and try again; for tests that cannot wait the defaults out. */
  keeperTiming?: Partial<KeeperTiming>;
  /** How long a tool's key request waits for the GM (10 minutes by default); for tests of expiry. */
  keyRequestLifetimeMs?: number;
  /** How often a tool may poll its waiting key request (every 3 s by default). */
  keyRequestPollIntervalMs?: number;
  /** How long a player's invitation works unused when the GM chose no lifetime (a week by default); for tests of expiry. */
  invitationLifetimeMs?: number;
  /** The folder of the settings UI's built files (index.html, app.js, …), served at /admin/; none without it. */
  settingsUi?: { dir: string };
  /** The folders the Stream Deck plugin and the Companion module package are built into; downloads 404 without them. */
  integrationPackages?: IntegrationPackageFolders;
}

export interface Relay {
  readonly services: RelayServices;
  readonly adminToken: string;
  /** The HTTP base URL, e.g. http://127.0.0.1:3010; known once started. */
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops answering API calls (503) while worlds stay connected; resume() answers again. */
  pause(): void;
  resume(): void;
  /** What the tray and the settings UI show. */
  status(): RelayStatus;
  /** A URL that opens the settings UI in a local browser, valid once for two minutes. */
  createAdminLoginUrl(): string;
}

const KEY_CHANGE_REASON: Record<ApiKeyChange, string> = {
  revoked: 'API key revoked',
  rotated: 'API key rotated: use the new key',
  updated: 'API key changed: connect again to use its new scopes and bindings',
};

const LOOPBACK = '127.0.0.1';
/** How many ports after a taken one the desktop app tries before it lets the system pick any free port. */
const NEXT_PORTS_TRIED = 20;
const EVERY_ADDRESS = new Set(['0.0.0.0', '::']);
/** How often the LAN addresses are looked at again, so a network joined later (Wi-Fi) reaches the relay too. */
const ADDRESS_SCAN_MS = 10_000;

function lanAddresses(): string[] {
  return lanInterfaces().map((lanInterface) => lanInterface.address);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sameHosts(wanted: readonly string[], bound: readonly string[]): boolean {
  return wanted.length === bound.length && wanted.every((host) => bound.includes(host));
}

/** The 409 of a move that could not be bound, saying what stays as it was and what the GM can do. */
function refusedMove(error: BindError, oldPort: number, place: ListenPlace): HttpError {
  const inUse = error.code === 'EADDRINUSE';
  if (error.port !== oldPort) {
    return new HttpError(
      409,
      inUse
        ? `Port ${error.port} is in use by another program; the relay stays on ${oldPort}. Pick another port, or close that program first`
        : `Port ${error.port} cannot be listened on (${error.code}); the relay stays on ${oldPort}. Pick another port`,
    );
  }
  const unchanged = place.lanAccess ? 'LAN access stays off' : 'nothing was changed';
  return new HttpError(
    409,
    inUse
      ? `Another program holds port ${error.port} on ${error.host}, so ${unchanged}. Close that program, or move the relay to another port first`
      : `The relay cannot listen on ${error.host}:${error.port} (${error.code}), so ${unchanged}. Try again in a moment, or move the relay to another port first`,
  );
}

export function createRelay(options: RelayOptions): Relay {
  const log = options.log ?? consoleLog;
  const keys = new ApiKeys(join(options.dataDir, 'api-keys.json'), log);
  const overlayLinks = new OverlayLinks(join(options.dataDir, 'overlay-links.json'), log);
  const connectionTokens = new ConnectionTokens(join(options.dataDir, 'connection-tokens.json'), log);
  const knownWorlds = new KnownWorlds(join(options.dataDir, 'worlds.json'), log);
  // Paired worlds' addresses have places kept among the requests waiting for the GM: the GM's own machines.
  const requestSources = new RequestSources(() =>
    tabletop
      .worlds()
      .filter((world) => world.handshake === 'token')
      .map((world) => world.remoteAddress),
  );
  const pairing = new Pairing(connectionTokens, knownWorlds, join(options.dataDir, 'pair-requests.json'), {
    sources: requestSources,
    log,
  });
  const assistantTools = toolsOf(allRoutes);
  const toolsetScopes: ToolsetScopes = (toolsets, readOnly) => scopesOfToolsets(assistantTools, toolsets, readOnly);
  const keyRequests = new KeyRequests(keys, {
    lifetimeMs: options.keyRequestLifetimeMs,
    pollIntervalMs: options.keyRequestPollIntervalMs,
    sources: requestSources,
    scopesOfToolsets: toolsetScopes,
    log,
  });
  const unauthenticated = new UnauthenticatedSockets((origin) =>
    connectionTokens.list().some((token) => token.origin === origin),
  );
  const tabletop = new Tabletop({
    verifyToken: (token) => {
      const record = connectionTokens.verify(token);
      return (
        record && {
          tokenId: record.id,
          clientId: record.clientId,
          name: record.name,
          standsIn: record.source === 'keeper',
        }
      );
    },
    verifyLegacyKey: (apiKey, clientId) => {
      const record = keys.verify(apiKey);
      return record && linksWorld(record, clientId) ? { keyId: record.id, name: record.name } : undefined;
    },
    originAllowed: (origin, clientId) =>
      worldOriginAllowed(origin, clientId, settings.get().corsOrigins, connectionTokens.list()),
    unauthenticated,
    authTimeoutMs: options.authTimeoutMs,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    livenessProbeMs: options.livenessProbeMs,
  });
  const events = new EventHub((clientId, kind, count) =>
    tabletop.setChannelCount(clientId, STREAM_CHANNEL[kind], count),
  );
  const rollIds = new RollIds();
  tabletop.on('push', (clientId, message) => {
    rollIds.notePush(clientId, message);
    events.publish(clientId, message);
  });
  tabletop.on('world-connected', (world) => {
    const paired = world.handshake === 'token';
    if (paired) unauthenticated.noteWorldAddress(world.remoteAddress);
    knownWorlds.connected({ clientId: world.clientId, ...world.metadata, lastSeen: new Date().toISOString() }, paired);
  });
  const settings = new Settings(join(options.dataDir, 'settings.json'), options.settings, log);
  /** Where the relay listens with LAN access on or off: loopback, and each LAN address; or the one host of this run. */
  const hostsFor = (lanAccess: boolean) =>
    options.host !== undefined ? [options.host] : lanAccess ? [LOOPBACK, ...lanAddresses()] : [LOOPBACK];
  let paused = false;
  let portFallback: { wanted: number } | undefined;
  let listener: Listener;
  const port = () => listener.port ?? options.port ?? settings.get().port;
  const urlOf = (host: string) => `http://${host.includes(':') ? `[${host}]` : host}:${port()}`;
  const lanAccess = () => (options.host === undefined ? settings.get().lanAccess : EVERY_ADDRESS.has(options.host));
  // Advertised over mDNS while the LAN can reach the relay and it answers calls; a paused relay is withdrawn.
  const discovery = new LanDiscovery(() => (listener.listening && lanAccess() && !paused ? port() : undefined), log);
  const network = {
    url: () => urlOf(options.host === undefined || EVERY_ADDRESS.has(options.host) ? LOOPBACK : options.host),
    lanUrls: () => (lanAccess() ? lanAddresses().map(urlOf) : []),
    lanAccess,
    port,
    portFallback: () => portFallback,
    moveTo: (place: ListenPlace, commit: () => void) => oneMoveAtATime(() => moveListener(place, commit)),
    paused: () => paused,
    setPaused: (on: boolean) => {
      paused = on;
      statusChanged();
      void discovery.update();
    },
  };
  const changes = new EventEmitter<{ status: [] }>();
  const statusChanged = () => changes.emit('status');
  for (const event of ['world-connected', 'world-disconnected', 'players'] as const) tabletop.on(event, statusChanged);
  pairing.on('changed', statusChanged);
  keyRequests.on('changed', statusChanged);
  requestSources.on('changed', statusChanged);
  settings.on('changed', statusChanged);
  const services: RelayServices = {
    settings,
    rateLimiter: new RateLimiter(() => settings.get().requestsPerMinute),
    tabletop,
    events,
    rollIds,
    keys,
    overlayLinks,
    connectionTokens,
    knownWorlds,
    pairing,
    invitations: new Invitations(join(options.dataDir, 'invitations.json'), {
      log,
      defaultLifetimeMs: options.invitationLifetimeMs,
    }),
    keyRequests,
    oauth: new OAuthServer(keyRequests, keys),
    toolsetScopes,
    toolsetTools: (toolset) => assistantTools.filter((tool) => tool.toolset === toolset).map(({ tool }) => tool.name),
    assistantSessions: () => mcp.sessionsPerKey(),
    requestSources,
    adminToken: loadAdminToken(join(options.dataDir, 'admin-token'), log),
    adminSessions: new AdminSessions(),
    activity: new ActivityLog(),
    network,
    changes,
    log,
    timeoutOverrideMs: options.timeoutOverrideMs,
    settingsUiDir: options.settingsUi?.dir,
    integrationPackages: options.integrationPackages,
  };
  if (options.capture !== false) {
    services.capture = new CaptureService(
      options.dataDir,
      { connectionTokens, tabletop, activity: services.activity, knownWorlds, log },
      options.capture,
    );
    services.keepers = new WorldKeepers({
      settings: new KeeperSettings(join(options.dataDir, 'keepers.json'), services.capture.secrets, log),
      host: services.capture.host,
      tabletop,
      connectionTokens,
      knownWorlds,
      activity: services.activity,
      log,
      timing: { ...DEFAULT_KEEPER_TIMING, ...options.keeperTiming },
    });
    services.keepers.on('changed', statusChanged);
  }
  const clientApi = new ClientApi(services, {
    authTimeoutMs: options.authTimeoutMs,
    uploadLimitBytes: options.bodyLimitBytes,
    unauthenticated,
  });
  const mcp = new McpEndpointLoader(services, { routes: allRoutes, uploadLimitBytes: options.bodyLimitBytes });
  keys.on('changed', (id, change) => {
    const reason = KEY_CHANGE_REASON[change];
    mcp.endSessionsOf(id);
    // /ws/api first: its sessions drop their subscriptions as they close, so the hub then holds only SSE streams.
    clientApi.endSessionsOf(id, reason);
    events.closeOwnedBy(id);
    // A 2.x world stays linked through a rename; any other change that leaves the key unable to link it ends the link.
    const key = change === 'updated' ? keys.list().find((candidate) => candidate.id === id) : undefined;
    const stillLinked =
      key !== undefined && tabletop.worlds().some((world) => world.keyId === id && linksWorld(key, world.clientId));
    if (!stillLinked) tabletop.disconnectKey(id, change === 'updated' ? 'API key no longer links this world' : reason);
  });
  // An overlay's stream ends with its link's change; the page reconnects with the link it has, if it still works.
  overlayLinks.on('changed', (id) => events.closeOwnedBy(id));
  listener = new Listener({
    request: createRequestListener(allRoutes, services, {
      uploadLimitBytes: options.bodyLimitBytes,
      keepaliveMs: options.keepaliveIntervalMs,
      settingsUiDir: options.settingsUi?.dir,
      mcp: { path: MCP_PATH, handle: (request, response, query) => mcp.handle(request, response, query) },
    }),
    upgrade: (request, socket, head) => {
      if (refusedUpgradeHost(request, socket, services)) return;
      if (request.url?.split('?')[0] === CLIENT_API_PATH) clientApi.handleUpgrade(request, socket, head);
      else tabletop.handleUpgrade(request, socket, head);
    },
    connections: new ConnectionLimits(log),
    log,
  });

  let moving: Promise<void> = Promise.resolve();
  const oneMoveAtATime = (move: () => Promise<void>) => {
    const done = moving.then(move);
    moving = done.catch(() => undefined);
    return done;
  };
  // Everything new is bound before the setting is stored, and only then does the old listener close (open streams and
  // world links carry on where they are): a change either happens whole or not at all, and the relay always listens.
  const moveListener = async (place: ListenPlace, commit: () => void) => {
    const oldPort = port();
    const newPort = place.port ?? oldPort;
    let change: ListenChange;
    try {
      const after = settings.after(place.lanAccess === undefined ? {} : { lanAccess: place.lanAccess });
      change = await listener.prepare(newPort, hostsFor(after.lanAccess));
    } catch (error) {
      throw error instanceof BindError ? refusedMove(error, oldPort, place) : error;
    }
    try {
      commit();
    } catch (error) {
      change.undo();
      throw error;
    }
    change.keep();
    if (place.port !== undefined) portFallback = undefined;
    statusChanged();
    await discovery.update();
  };
  // LAN addresses come and go (Wi-Fi, DHCP): each new one is listened on, as far as it can be, and a gone one let go.
  const rescanAddresses = () =>
    oneMoveAtATime(async () => {
      const hosts = hostsFor(lanAccess());
      if (!listener.listening || sameHosts(hosts, listener.hosts())) return;
      (await listener.prepare(port(), hosts, { partly: true })).keep();
      statusChanged();
    });
  let addressScan: NodeJS.Timeout | undefined;
  const listenOnNextFree = async (taken: number, host: string) => {
    for (let candidate = taken + 1; candidate <= Math.min(taken + NEXT_PORTS_TRIED, 65535); candidate += 1) {
      try {
        return await listener.prepare(candidate, [host]);
      } catch (error) {
        if ((error as BindError).code !== 'EADDRINUSE') throw error;
      }
    }
    return listener.prepare(0, [host]);
  };
  const start = async () => {
    const wanted = options.port ?? settings.get().port;
    // The first address (loopback, or the run's host) must be had; the LAN addresses are listened on as far as they can be.
    const [first] = hostsFor(lanAccess());
    try {
      (await listener.prepare(wanted, [first!])).keep();
    } catch (error) {
      if (!options.nextFreePortIfTaken || (error as BindError).code !== 'EADDRINUSE') throw error;
      (await listenOnNextFree(wanted, first!)).keep();
      portFallback = { wanted };
      log.warn(`Port ${wanted} is in use by another program; the relay listens on ${port()} instead`);
    }
    await rescanAddresses();
    addressScan = setInterval(() => {
      rescanAddresses().catch((error: unknown) => log.error('Could not listen on new LAN addresses:', error));
    }, ADDRESS_SCAN_MS).unref();
    await discovery.update();
    services.keepers?.start();
  };

  return {
    services,
    adminToken: services.adminToken,
    get port() {
      return port();
    },
    get url() {
      return network.url();
    },
    start,
    // Never throws: quitting must always work, whatever failed on the way (a full or read-only disk, the browser).
    stop: async () => {
      await discovery.stop();
      await services.keepers?.close();
      await services.capture
        ?.close()
        .catch((error: unknown) =>
          log.error(`While stopping, the capture browser failed to close: ${messageOf(error)}`),
        );
      clearInterval(addressScan);
      events.close();
      clientApi.close();
      mcp.close();
      tabletop.close();
      keyRequests.close();
      keys.flush();
      overlayLinks.flush();
      connectionTokens.flush();
      services.invitations.flush();
      knownWorlds.flush();
      await listener.close();
    },
    pause: () => network.setPaused(true),
    resume: () => network.setPaused(false),
    status: () => relayStatus(services),
    createAdminLoginUrl: () => adminLoginUrl(services),
  };
}
