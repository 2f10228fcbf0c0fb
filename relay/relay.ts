import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { allRoutes } from './routes.ts';
import { ApiKeys } from './auth/api-keys.ts';
import { OverlayLinks } from './auth/overlay-links.ts';
import { ConnectionTokens } from './auth/connection-tokens.ts';
import { KnownWorlds } from './auth/known-worlds.ts';
import { Pairing } from './auth/pairing.ts';
import { Invitations } from './auth/invitations.ts';
import { KeyRequests, type ToolsetScopes } from './auth/key-requests.ts';
import { RequestSources } from './auth/request-sources.ts';
import { linkedPages, linksWorld } from './auth/world-link.ts';
import { loadAdminToken } from './auth/admin-token.ts';
import { ActivityLog } from './activity/activity-log.ts';
import { AdminSessions } from './auth/admin-sessions.ts';
import { relayStatus } from './admin/status.ts';
import { adminLoginUrl } from './admin/login-page.ts';
import type { RelayStatus } from '../contracts/admin-api.ts';
import { EventHub } from './events/event-hub.ts';
import { RollIds } from './events/roll-ids.ts';
import { STREAMS } from '../contracts/streams.ts';
import { createRequestListener } from './http/app.ts';
import { Network } from './http/network.ts';
import { ConnectionLimits } from './gate/connection-limits.ts';
import { CallerApi } from './ws-api/caller-api.ts';
import { refusedUpgradeHost, worldOriginAllowed } from './gate/request-gate.ts';
import { UnauthenticatedSockets } from './gate/socket-limits.ts';
import type { IntegrationPackageFolders, RelayServices } from './services.ts';
import { McpEndpointLoader } from './mcp/endpoint-loader.ts';
import { MCP_PATH } from './mcp/paths.ts';
import { assistantToolsets } from './mcp/tools.ts';
import { OAuthServer } from './mcp/oauth.ts';
import { RateLimiter } from './routing/rate-limit.ts';
import { DEFAULT_SETTINGS, Settings, type RelaySettings } from './storage/settings.ts';
import { consoleLog, type RelayLog } from './log.ts';
import { Tabletop } from './tabletop/tabletop.ts';
import { CaptureService, type CaptureOptions } from './capture/capture-service.ts';
import { worldKeepersFor } from './keeper/world-keepers.ts';
import type { KeeperTiming } from './keeper/world-keeper.ts';
import { followKeyChanges } from './key-changes.ts';
import { RELAY_PATHS } from './discovery/facts.ts';
import { ChangeJournal } from './journal/change-journal.ts';
import { Confirmations } from './journal/confirmations.ts';

export const DEFAULT_PORT = DEFAULT_SETTINGS.port;
export const DEFAULT_HOST = '127.0.0.1';

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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The relay's stores in its data directory, and the settings that win over the stored ones for this run. */
function openStores(options: RelayOptions, log: RelayLog) {
  const inDataDir = (name: string) => join(options.dataDir, name);
  const settings = new Settings(inDataDir('settings.json'), options.settings, log);
  return {
    keys: new ApiKeys(inDataDir('api-keys.json'), log),
    overlayLinks: new OverlayLinks(inDataDir('overlay-links.json'), log),
    connectionTokens: new ConnectionTokens(inDataDir('connection-tokens.json'), log),
    knownWorlds: new KnownWorlds(inDataDir('worlds.json'), log),
    invitations: new Invitations(inDataDir('invitations.json'), {
      log,
      defaultLifetimeMs: options.invitationLifetimeMs,
    }),
    settings,
    journal: new ChangeJournal(
      inDataDir('changes'),
      () => ({ maxChanges: settings.get().journalMaxChanges, maxDays: settings.get().journalMaxDays }),
      log,
    ),
    adminToken: loadAdminToken(inDataDir('admin-token'), log),
  };
}

type Stores = ReturnType<typeof openStores>;

/**
 * /relay: worlds connect with a connection token (3.x), or a 2.x module with a key that links that one world; a world
 * that connects is remembered, and a paired world's address gets the places kept for the GM's own machines.
 */
function openTabletop(stores: Stores, unauthenticated: UnauthenticatedSockets, options: RelayOptions): Tabletop {
  const { keys, connectionTokens, knownWorlds, settings } = stores;
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
      worldOriginAllowed(origin, clientId, settings.get().corsOrigins, [
        ...connectionTokens.list(),
        ...linkedPages(keys.list()),
      ]),
    unauthenticated,
    authTimeoutMs: options.authTimeoutMs,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    livenessProbeMs: options.livenessProbeMs,
  });
  tabletop.on('world-connected', (world) => {
    const paired = world.handshake === 'token';
    if (paired) unauthenticated.noteWorldAddress(world.remoteAddress);
    knownWorlds.connected({ clientId: world.clientId, ...world.metadata, lastSeen: new Date().toISOString() }, paired);
  });
  return tabletop;
}

interface Closable {
  close(): void;
}

/** What waits for the GM: worlds' pair requests and tools' key requests, counted against the same sources. */
function openRequests(
  options: RelayOptions,
  { keys, connectionTokens, knownWorlds }: Stores,
  sources: RequestSources,
  scopesOfToolsets: ToolsetScopes,
  log: RelayLog,
) {
  const pairing = new Pairing(connectionTokens, knownWorlds, join(options.dataDir, 'pair-requests.json'), {
    sources,
    log,
  });
  const keyRequests = new KeyRequests(keys, {
    lifetimeMs: options.keyRequestLifetimeMs,
    pollIntervalMs: options.keyRequestPollIntervalMs,
    sources,
    scopesOfToolsets,
    log,
  });
  return { pairing, keyRequests };
}

/** The addresses of the worlds connected with a connection token: paired worlds, the GM's own machines. */
function pairedWorldAddresses(tabletop: Tabletop): string[] {
  return tabletop
    .worlds()
    .filter((world) => world.handshake === 'token')
    .map((world) => world.remoteAddress);
}

/**
 * Never throws: quitting must always work, whatever failed on the way (a full or read-only disk, the browser). The
 * callers' endpoints are /ws/api and /mcp, whose sessions end with the relay.
 */
async function stopInOrder(services: RelayServices, network: Network, callerEndpoints: Closable[]): Promise<void> {
  await network.withdraw();
  await services.keepers?.close();
  await services.capture
    ?.close()
    .catch((error: unknown) =>
      services.log.error(`While stopping, the capture browser failed to close: ${messageOf(error)}`),
    );
  services.events.close();
  for (const endpoint of callerEndpoints) endpoint.close();
  services.tabletop.close();
  services.keyRequests.close();
  services.confirmations.close();
  const { keys, overlayLinks, connectionTokens, invitations, knownWorlds, journal } = services;
  for (const store of [keys, overlayLinks, connectionTokens, invitations, knownWorlds, journal]) store.flush();
  await network.close();
}

/**
 * The relay, composed: its stores, the tabletop link and the event hub, the services every route is handed, capture and
 * the keepers, /ws/api, and the network that serves them. Long because composition reads best in one place, in the
 * order the parts need one another; where the relay listens, and what a key's change ends, live in their own modules.
 */
export function createRelay(options: RelayOptions): Relay {
  const log = options.log ?? consoleLog;
  const stores = openStores(options, log);
  const { keys, overlayLinks, connectionTokens, settings } = stores;
  // Paired worlds' addresses have places kept among the requests waiting for the GM.
  const requestSources = new RequestSources(() => pairedWorldAddresses(tabletop));
  const toolsets = assistantToolsets(allRoutes);
  const { pairing, keyRequests } = openRequests(options, stores, requestSources, toolsets.toolsetScopes, log);
  const unauthenticated = new UnauthenticatedSockets((origin) =>
    connectionTokens.list().some((token) => token.origin === origin),
  );
  const tabletop = openTabletop(stores, unauthenticated, options);
  const events = new EventHub((clientId, kind, count) =>
    tabletop.setChannelCount(clientId, STREAMS[kind].channel, count),
  );
  const rollIds = new RollIds();
  tabletop.on('push', (clientId, message) => {
    rollIds.notePush(clientId, message);
    events.publish(clientId, message);
  });
  const changes = new EventEmitter<{ status: [] }>();
  const statusChanged = () => changes.emit('status');
  const confirmations = new Confirmations(() => settings.get().confirmationTimeoutSeconds * 1000);
  confirmations.on('changed', statusChanged);
  const { port, host, nextFreePortIfTaken } = options;
  const network = new Network({ settings, port, host, nextFreePortIfTaken, log, changed: statusChanged });
  for (const event of ['world-connected', 'world-disconnected', 'players'] as const) tabletop.on(event, statusChanged);
  pairing.on('changed', statusChanged);
  keyRequests.on('changed', statusChanged);
  requestSources.on('changed', statusChanged);
  settings.on('changed', statusChanged);
  const services: RelayServices = {
    ...stores,
    rateLimiter: new RateLimiter(() => settings.get().requestsPerMinute),
    tabletop,
    events,
    rollIds,
    pairing,
    keyRequests,
    oauth: new OAuthServer(keyRequests, keys),
    ...toolsets,
    assistantSessions: () => mcp.sessionsPerKey(),
    confirmations,
    requestSources,
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
    services.capture = new CaptureService(options.dataDir, services, options.capture);
    services.keepers = worldKeepersFor(options.dataDir, services.capture, services, options.keeperTiming);
    services.keepers.on('changed', statusChanged);
  }
  const { authTimeoutMs, bodyLimitBytes: uploadLimitBytes } = options;
  const callerApi = new CallerApi(services, allRoutes, { authTimeoutMs, uploadLimitBytes, unauthenticated });
  const mcp = new McpEndpointLoader(services, { routes: allRoutes, uploadLimitBytes });
  followKeyChanges({ keys, overlayLinks, sockets: callerApi, assistants: mcp, events, tabletop, confirmations });
  network.serve({
    request: createRequestListener(allRoutes, services, {
      uploadLimitBytes,
      keepaliveMs: options.keepaliveIntervalMs,
      settingsUiDir: options.settingsUi?.dir,
      mcp: { path: MCP_PATH, handle: (request, response, query) => mcp.handle(request, response, query) },
    }),
    upgrade: (request, socket, head) => {
      if (refusedUpgradeHost(request, socket, services)) return;
      if (request.url?.split('?')[0] === RELAY_PATHS.callerApi) callerApi.handleUpgrade(request, socket, head);
      else tabletop.handleUpgrade(request, socket, head);
    },
    connections: new ConnectionLimits(log),
  });
  return {
    services,
    adminToken: services.adminToken,
    get port() {
      return network.port();
    },
    get url() {
      return network.url();
    },
    start: async () => {
      await network.start();
      services.keepers?.start();
    },
    stop: () => stopInOrder(services, network, [callerApi, mcp]),
    pause: () => network.setPaused(true),
    resume: () => network.setPaused(false),
    status: () => relayStatus(services),
    createAdminLoginUrl: () => adminLoginUrl(services),
  };
}
