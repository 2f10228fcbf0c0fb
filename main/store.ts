import Store from 'electron-store';
import type { RelaySettings } from '../contracts/admin-api.ts';

/**
 * What only the desktop app keeps between launches (electron-store, in the user-data folder). Whatever the relay uses
 * (port, LAN access, web origins, host names) lives in the relay's own settings.json, its one source of truth.
 */
export interface DesktopSettings {
  startAtLogin: boolean;
  /** Look for updates in the background (an update is installed only when the app quits or the GM says so). */
  checkForUpdates: boolean;
}

export const DESKTOP_DEFAULTS: DesktopSettings = {
  startAtLogin: false,
  checkForUpdates: true,
};

/** Relay settings that earlier versions kept in this store too, and that move once into the relay's settings.json. */
export type RelayFieldsKeptHere = Partial<Pick<RelaySettings, 'port' | 'lanAccess' | 'corsOrigins' | 'allowedHosts'>>;

const SCHEMA = {
  startAtLogin: { type: 'boolean' },
  checkForUpdates: { type: 'boolean' },
} as const;

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');

/**
 * Earlier versions wrote their default, any web origin, into every store: carried over, it would let every web page read
 * API answers (docs/SECURITY.md item 12), so it gives way to today's default; a GM who wants it sets it again, with a warning.
 */
function isEarlierDefault(corsOrigins: string[]): boolean {
  return corsOrigins.length === 1 && corsOrigins[0] === '*';
}

/** The fields an earlier version stored here, those of the right type only. */
function relayFieldsIn(stored: Record<string, unknown>): RelayFieldsKeptHere {
  const fields: RelayFieldsKeptHere = {};
  if (Number.isInteger(stored.port) && (stored.port as number) > 0 && (stored.port as number) <= 65535)
    fields.port = stored.port as number;
  if (typeof stored.lanAccess === 'boolean') fields.lanAccess = stored.lanAccess;
  if (isStringList(stored.corsOrigins) && !isEarlierDefault(stored.corsOrigins))
    fields.corsOrigins = stored.corsOrigins;
  if (isStringList(stored.allowedHosts)) fields.allowedHosts = stored.allowedHosts;
  return fields;
}

const RELAY_FIELDS = ['port', 'lanAccess', 'corsOrigins', 'allowedHosts'] as const;

export interface DesktopStore {
  get(): DesktopSettings;
  update(changes: Partial<DesktopSettings>): DesktopSettings;
  /** The relay settings an earlier version kept here; empty once they have moved. */
  relayFieldsKeptHere(): RelayFieldsKeptHere;
  forgetRelayFields(): void;
}

/** The store in the user-data folder; a file that fails its schema starts over from the defaults instead of stopping the app. */
export function openDesktopStore(options: { cwd?: string } = {}): DesktopStore {
  // Untyped keys: the file may still hold the relay fields an earlier version wrote.
  const store = new Store<Record<string, unknown>>({
    name: 'settings',
    cwd: options.cwd,
    defaults: { ...DESKTOP_DEFAULTS },
    schema: SCHEMA,
    clearInvalidConfig: true,
  });
  return {
    get: () => ({
      startAtLogin: store.store.startAtLogin === true,
      checkForUpdates: store.store.checkForUpdates !== false,
    }),
    update(changes) {
      store.set({ ...changes });
      return this.get();
    },
    relayFieldsKeptHere: () => relayFieldsIn(store.store),
    // Each delete rewrites the file, so only fields still there are deleted: after the move, a start writes nothing.
    forgetRelayFields: () => {
      const stored = store.store;
      for (const field of RELAY_FIELDS) if (field in stored) store.delete(field);
    },
  };
}

/**
 * Moves the relay settings an earlier version kept in the desktop store into the relay's settings, once: they leave
 * the desktop store only after the relay has stored them, so a failed write loses nothing and is tried at the next start.
 */
export function moveRelaySettings(
  store: DesktopStore,
  relaySettings: { update(changes: RelayFieldsKeptHere): unknown },
): RelayFieldsKeptHere {
  const kept = store.relayFieldsKeptHere();
  if (Object.keys(kept).length > 0) relaySettings.update(kept);
  store.forgetRelayFields();
  return kept;
}
