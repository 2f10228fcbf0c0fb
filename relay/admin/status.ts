import type { PairRequest } from '../auth/pairing.ts';
import type { RelayServices } from '../services.ts';
import type { PairRequestView, RelayStatus } from './admin-types.ts';

export function pairRequestView(request: PairRequest): PairRequestView {
  return {
    code: request.code,
    status: request.status,
    upgradeOnly: request.upgradeOnly,
    world: request.world,
    createdAt: new Date(request.createdAt).toISOString(),
    expiresAt: new Date(request.expiresAt).toISOString(),
  };
}

/** What the tray menu and the settings UI show about the running relay. */
export function relayStatus(services: RelayServices): RelayStatus {
  return {
    url: services.network.url(),
    lan: { enabled: services.network.lanAccess(), urls: services.network.lanUrls() },
    paused: services.network.paused(),
    worlds: services.tabletop.worlds().map((world) => ({
      clientId: world.clientId,
      ...world.metadata,
      connectedSince: world.connectedSince.toISOString(),
      players: world.players,
    })),
    pairRequests: services.pairing.pending().map(pairRequestView),
    eventStreams: services.events.total(),
    pendingWorldRequests: services.tabletop.pending.size,
    callsLastMinute: services.activity.callsLastMinute(),
  };
}
