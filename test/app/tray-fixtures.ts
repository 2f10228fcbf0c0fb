// The tray's input as the tests build it: a running relay with nothing connected, and the app's state around it.
import type { RelaySnapshot, TrayStatus } from '../../main/tray-status.ts';

export function relaySnapshot(overrides: Partial<RelaySnapshot> = {}): RelaySnapshot {
  return {
    worlds: [],
    pairRequests: [],
    keyRequests: [],
    confirmations: [],
    eventStreams: 0,
    callsLastMinute: 0,
    url: 'http://127.0.0.1:3010',
    port: 3010,
    lan: { enabled: false, urls: [] },
    paused: false,
    ...overrides,
  };
}

export function trayStatus(now: Date, overrides: Partial<TrayStatus> = {}): TrayStatus {
  return {
    relay: relaySnapshot(),
    startAtLogin: false,
    checkForUpdates: true,
    update: { phase: 'unpackaged' },
    now,
    ...overrides,
  };
}
