import type { PairRequest } from '../auth/pairing.ts';
import { riskyScopesOf, type KeyRequest } from '../auth/key-requests.ts';
import type { RelayServices } from '../services.ts';
import { isLoopback } from '../gate/addresses.ts';
import type {
  KeyRequestView,
  LiveCounters,
  LiveStatus,
  PairRequestView,
  RelayStatus,
} from '../../contracts/admin-api.ts';
import type { WorldKeeping } from '../../contracts/keeper.ts';

export function pairRequestView(request: PairRequest, services: RelayServices): PairRequestView {
  const paired = services.pairing.pairedWorldOf(request.world);
  return {
    code: request.code,
    status: request.status,
    upgradeOnly: request.upgradeOnly,
    world: request.world,
    source: request.source,
    fromThisComputer: isLoopback(request.source),
    ...(request.origin === undefined ? {} : { origin: request.origin }),
    page: services.pairing.pageOf(request.origin),
    ...(paired ? { pairedWorld: { clientId: paired.clientId, worldTitle: paired.worldTitle } } : {}),
    createdAt: new Date(request.createdAt).toISOString(),
    expiresAt: new Date(request.expiresAt).toISOString(),
  };
}

export function pairRequestViews(services: RelayServices): PairRequestView[] {
  return services.pairing.pending().map((request) => pairRequestView(request, services));
}

/** A key request as the GM sees it: never its polling secret, never the key. */
export function keyRequestView(request: KeyRequest): KeyRequestView {
  return {
    code: request.code,
    appName: request.appName,
    ...(request.appDescription ? { appDescription: request.appDescription } : {}),
    ...(request.appUrl ? { appUrl: request.appUrl } : {}),
    scopes: request.scopes,
    riskyScopes: riskyScopesOf(request.scopes),
    ...(request.userId ? { userId: request.userId } : {}),
    clientIds: request.clientIds,
    ...(request.toolsets ? { toolsets: request.toolsets } : {}),
    source: request.source,
    fromThisComputer: isLoopback(request.source),
    status: request.status,
    ...(request.keyId ? { keyId: request.keyId } : {}),
    createdAt: new Date(request.createdAt).toISOString(),
    expiresAt: new Date(request.expiresAt).toISOString(),
  };
}

export function keyRequestViews(services: RelayServices): KeyRequestView[] {
  return services.keyRequests.pending().map(keyRequestView);
}

/** The counters that change with every call and as calls age, which the admin feed also sends on their own. */
export function liveCounters(services: RelayServices): LiveCounters {
  return { eventStreams: services.events.total(), callsLastMinute: services.activity.callsLastMinute() };
}

function worldKeeping(services: RelayServices): WorldKeeping[] {
  const { keepers } = services;
  if (!keepers) return [];
  return services.knownWorlds.list().map((world) => ({
    clientId: world.clientId,
    ...(world.worldTitle !== undefined ? { worldTitle: world.worldTitle } : {}),
    connected: services.tabletop.world(world.clientId) !== undefined,
    keeper: keepers.view(world.clientId),
  }));
}

/** The status without the pair and key requests, which the admin feed sends as events of their own. */
export function liveStatus(services: RelayServices): LiveStatus {
  const fallback = services.network.portFallback();
  return {
    url: services.network.url(),
    port: services.network.port(),
    ...(fallback ? { portFallback: fallback } : {}),
    lan: { enabled: services.network.lanAccess(), urls: services.network.lanUrls() },
    paused: services.network.paused(),
    worlds: services.tabletop.worlds().map((world) => ({
      clientId: world.clientId,
      ...world.metadata,
      connectedSince: world.connectedSince.toISOString(),
      players: world.players,
    })),
    keeping: worldKeeping(services),
    pendingWorldRequests: services.tabletop.pending.size,
    deniedAddresses: services.requestSources.deniedAddresses(),
    ...liveCounters(services),
  };
}

/** What the tray menu and the settings UI show about the running relay. */
export function relayStatus(services: RelayServices): RelayStatus {
  return {
    ...liveStatus(services),
    pairRequests: pairRequestViews(services),
    keyRequests: keyRequestViews(services),
    confirmations: services.confirmations.pending(),
  };
}
