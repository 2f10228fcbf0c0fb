// What the tray shows: the relay's /admin/status body and the app's own state. No Electron here.

export interface TrayPlayer {
  id: string;
  name: string;
  role: number;
  active: boolean;
}

export interface TrayWorld {
  clientId: string;
  worldTitle?: string;
  systemId?: string;
  systemTitle?: string;
  systemVersion?: string;
  foundryVersion?: string;
  connectedSince: string;
  players?: TrayPlayer[];
}

export interface RelaySnapshot {
  worlds: TrayWorld[];
  pairRequests: unknown[];
  eventStreams: number;
  callsLastMinute: number;
  url: string;
  lan: { enabled: boolean; urls: string[] };
  paused: boolean;
}

export interface TrayStatus {
  /** Undefined until the relay has started, and when it could not start. */
  relay?: RelaySnapshot;
  /** Why the relay is not running, in words for the GM. */
  error?: string;
  startAtLogin: boolean;
  /** The time to count "connected since" from. */
  now: Date;
}

export type TrayState = 'no-world' | 'connected' | 'error';

export function trayStateOf(status: TrayStatus): TrayState {
  if (status.error || !status.relay) return 'error';
  return status.relay.worlds.length > 0 ? 'connected' : 'no-world';
}
