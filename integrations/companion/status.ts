import { InstanceStatus } from '@companion-module/base';
import type { WorldSnapshot } from '../client/world-state.ts';

export interface ConnectionStatus {
  status: InstanceStatus;
  message: string | null;
}

export const NO_KEY_MESSAGE = 'No API key: make one in Tabletop Relay (API keys) and paste it in this connection';

/** What the status says while the module asks the relay for a key, by how far the request went. */
export const KEY_REQUEST_MESSAGES = {
  asking: 'No API key: asking Tabletop Relay for one',
  pending: (code: string) => `No API key yet: approve the request ${code} in Tabletop Relay, or paste a key`,
  denied: 'No API key: the request was denied in Tabletop Relay; paste a key, or save the settings to ask again',
  failed: (detail: string) => `No API key: the key request failed (${detail})`,
};

/** The connection's status as Companion shows it, from the world as last seen; the message never holds the key. */
export function connectionStatus(
  hasKey: boolean,
  snapshot: WorldSnapshot,
  noKeyMessage = NO_KEY_MESSAGE,
): ConnectionStatus {
  if (!hasKey) return { status: InstanceStatus.BadConfig, message: noKeyMessage };
  if (snapshot.worldConnected) return { status: InstanceStatus.Ok, message: snapshot.worldTitle ?? null };
  const failure = snapshot.failure;
  switch (failure?.kind) {
    case 'relay-off':
      // Each stream and the presence check say it their own way ("(ECONNREFUSED)", "(/rolls/subscribe)"): one message.
      return { status: InstanceStatus.ConnectionFailure, message: failure.detail.replace(/ \([^()]*\)$/, '') };
    case 'no-key':
      return { status: InstanceStatus.AuthenticationFailure, message: failure.detail };
    case 'not-allowed':
      return { status: InstanceStatus.InsufficientPermissions, message: failure.detail };
  }
  if (snapshot.relayUp)
    return { status: InstanceStatus.Disconnected, message: 'No Foundry world is connected to Tabletop Relay' };
  return { status: InstanceStatus.Connecting, message: null };
}
