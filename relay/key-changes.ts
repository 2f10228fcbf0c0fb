// A key's change takes effect at once: what a revoked, rotated or changed key opened ends, and its holder is told why.
import type { ApiKeyChange, ApiKeys } from './auth/api-keys.ts';
import type { OverlayLinks } from './auth/overlay-links.ts';
import { linksWorld } from './auth/world-link.ts';
import type { EventHub } from './events/event-hub.ts';
import type { McpEndpointLoader } from './mcp/endpoint-loader.ts';
import type { Tabletop } from './tabletop/tabletop.ts';
import type { Confirmations } from './journal/confirmations.ts';
import type { CallerApi } from './ws-api/caller-api.ts';

const KEY_CHANGE_REASON: Record<ApiKeyChange, string> = {
  revoked: 'API key revoked',
  rotated: 'API key rotated: use the new key',
  updated: 'API key changed: connect again to use its new scopes and bindings',
};

/**
 * What a key can hold open: /ws/api sockets, AI assistants' /mcp sessions, event streams (SSE and overlays), a 2.x
 * world's /relay socket, and changes waiting for the GM's approval.
 */
export interface KeyHolders {
  keys: ApiKeys;
  overlayLinks: OverlayLinks;
  sockets: Pick<CallerApi, 'endSessionsOf'>;
  assistants: Pick<McpEndpointLoader, 'endSessionsOf'>;
  events: EventHub;
  tabletop: Tabletop;
  confirmations: Pick<Confirmations, 'withdrawKey'>;
}

/**
 * Revoking, rotating or changing a key ends its /mcp sessions, /ws/api sockets and event streams, refuses its changes
 * waiting for the GM (they were let in under what the key was), and ends the 2.x world it links unless a rename left
 * the link valid; an overlay's stream ends with its link's change, and the page reconnects with the link it has, if it
 * still works.
 */
export function followKeyChanges(holders: KeyHolders): void {
  const { keys, overlayLinks, sockets, assistants, events, tabletop, confirmations } = holders;
  keys.on('changed', (id, change) => {
    const reason = KEY_CHANGE_REASON[change];
    assistants.endSessionsOf(id);
    confirmations.withdrawKey(id, reason);
    // /ws/api first: its sessions drop their subscriptions as they close, so the hub then holds only SSE streams.
    sockets.endSessionsOf(id, reason);
    events.closeOwnedBy(id);
    const key = change === 'updated' ? keys.list().find((candidate) => candidate.id === id) : undefined;
    const stillLinked =
      key !== undefined && tabletop.worlds().some((world) => world.keyId === id && linksWorld(key, world.clientId));
    if (!stillLinked) tabletop.disconnectKey(id, change === 'updated' ? 'API key no longer links this world' : reason);
  });
  overlayLinks.on('changed', (id) => events.closeOwnedBy(id));
}
