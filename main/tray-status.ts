// What the tray shows: the relay's /admin/status body and the app's own state. No Electron here.
import type { ConfirmationView, KeyRequestView, RelayStatus, StatusWorld } from '../contracts/admin-api.ts';
import type { PlayerListEntry } from '../contracts/world-protocol.ts';
import type { WorldKeeping } from '../contracts/keeper.ts';
import type { UpdateState } from './updates/update-policy.ts';

/** A world as the tray shows it: the status body's world, players optional. */
export type TrayWorld = Omit<StatusWorld, 'players'> & { players?: PlayerListEntry[] };

export interface RelaySnapshot extends Pick<
  RelayStatus,
  'eventStreams' | 'callsLastMinute' | 'url' | 'port' | 'portFallback' | 'lan' | 'paused'
> {
  worlds: TrayWorld[];
  /** The paired worlds and their keepers; absent or empty where the relay keeps none. */
  keeping?: WorldKeeping[];
  pairRequests: unknown[];
  keyRequests: TrayKeyRequest[];
  confirmations: TrayConfirmation[];
}

/** A tool's key request as the tray and its notification name it. */
export type TrayKeyRequest = Pick<KeyRequestView, 'code' | 'appName'>;

/** A change held for the GM's approval, as its notification names it. */
export type TrayConfirmation = Pick<ConfirmationView, 'code' | 'keyName' | 'summary' | 'worldTitle'>;

export interface TrayStatus {
  /** Undefined until the relay has started, and when it could not start. */
  relay?: RelaySnapshot;
  /** Why the relay is not running, in words for the GM. */
  error?: string;
  startAtLogin: boolean;
  /** Whether the app looks for updates (the GM's setting). */
  checkForUpdates: boolean;
  /** What the updater is doing. */
  update: UpdateState;
  /** The time to count "connected since" from. */
  now: Date;
}

export type TrayState = 'no-world' | 'connected' | 'waiting' | 'error';

/** How many requests wait for the GM: worlds asking to pair, tools asking for a key, changes asking for approval. */
export function waitingCount(status: TrayStatus): number {
  const { relay } = status;
  return relay && !status.error ? relay.pairRequests.length + relay.keyRequests.length + relay.confirmations.length : 0;
}

export function trayStateOf(status: TrayStatus): TrayState {
  if (status.error || !status.relay) return 'error';
  if (waitingCount(status) > 0) return 'waiting';
  return status.relay.worlds.length > 0 ? 'connected' : 'no-world';
}
