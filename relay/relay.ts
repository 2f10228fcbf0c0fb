import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { allRoutes } from './api/index.ts';
import { ApiKeys } from './auth/api-keys.ts';
import { ConnectionTokens } from './auth/connection-tokens.ts';
import { KnownWorlds } from './auth/known-worlds.ts';
import { Pairing } from './auth/pairing.ts';
import { loadAdminToken } from './admin/admin-token.ts';
import { EventHub } from './events/event-hub.ts';
import { STREAM_CHANNEL } from './events/streams.ts';
import { createApp } from './http/app.ts';
import { ClientApi } from './client-api/client-api.ts';
import type { RelayServices } from './services.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { Settings, type RelaySettings } from './storage/settings.ts';
import { Tabletop } from './tabletop/tabletop.ts';

export const DEFAULT_PORT = 3010;
export const DEFAULT_HOST = '127.0.0.1';
const CLIENT_API_PATH = '/ws/api';

export interface RelayOptions {
  /** Where keys, tokens, known worlds and the admin token are kept. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** 127.0.0.1 keeps the relay to this computer; 0.0.0.0 opens it to the LAN. */
  host?: string;
  timeoutOverrideMs?: number;
  authTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  keepaliveIntervalMs?: number;
  /** Settings that win over the stored ones for this run. */
  settings?: Partial<RelaySettings>;
  bodyLimitBytes?: number;
}

export interface Relay {
  readonly services: RelayServices;
  readonly adminToken: string;
  /** The HTTP base URL, e.g. http://127.0.0.1:3010; known once started. */
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRelay(options: RelayOptions): Relay {
  const keys = new ApiKeys(join(options.dataDir, 'api-keys.json'));
  const connectionTokens = new ConnectionTokens(join(options.dataDir, 'connection-tokens.json'));
  const knownWorlds = new KnownWorlds(join(options.dataDir, 'worlds.json'));
  const pairing = new Pairing(connectionTokens, knownWorlds);
  const tabletop = new Tabletop({
    verifyToken: (token) => {
      const record = connectionTokens.verify(token);
      return record && { tokenId: record.id, clientId: record.clientId, name: record.name };
    },
    verifyLegacyKey: (apiKey, clientId) => {
      const record = keys.verify(apiKey);
      return record !== undefined && !record.userId && (!record.worldIds || record.worldIds.includes(clientId));
    },
    authTimeoutMs: options.authTimeoutMs,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
  });
  const events = new EventHub(
    (clientId, kind, count) => tabletop.setChannelCount(clientId, STREAM_CHANNEL[kind], count),
    options.keepaliveIntervalMs,
  );
  tabletop.on('push', (clientId, message) => events.publish(clientId, message));
  tabletop.on('world-connected', (world) =>
    knownWorlds.remember({ clientId: world.clientId, ...world.metadata, lastSeen: new Date().toISOString() }),
  );
  const settings = new Settings(join(options.dataDir, 'settings.json'), options.settings);
  const services: RelayServices = {
    settings,
    rateLimiter: new RateLimiter(() => settings.get().requestsPerMinute),
    tabletop,
    events,
    keys,
    connectionTokens,
    knownWorlds,
    pairing,
    adminToken: loadAdminToken(join(options.dataDir, 'admin-token')),
    timeoutOverrideMs: options.timeoutOverrideMs,
  };
  const server: Server = createServer(createApp(allRoutes, services, options.bodyLimitBytes));
  server.keepAliveTimeout = 65_000;
  const clientApi = new ClientApi(services);
  server.on('upgrade', (request, socket, head) => {
    if (request.url?.split('?')[0] === CLIENT_API_PATH) clientApi.handleUpgrade(request, socket, head);
    else tabletop.handleUpgrade(request, socket, head);
  });
  const host = options.host ?? DEFAULT_HOST;

  return {
    services,
    adminToken: services.adminToken,
    get port() {
      return (server.address() as AddressInfo | null)?.port ?? options.port ?? DEFAULT_PORT;
    },
    get url() {
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      return `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${this.port}`;
    },
    start: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? DEFAULT_PORT, host, () => {
          server.off('error', reject);
          resolve();
        });
      }),
    stop: () =>
      new Promise((resolve) => {
        events.close();
        clientApi.close();
        tabletop.close();
        keys.flush();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
