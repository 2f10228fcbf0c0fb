import Store from 'electron-store';

/**
 * What the desktop app keeps between launches (electron-store, in the user-data folder). LAN access, the allowed
 * origins and the allowed host names mirror the relay's settings so the relay starts on the right address; the capture
 * settings live with the relay (capture.json, password sealed through main/secrets.ts).
 */
export interface DesktopSettings {
  port: number;
  lanAccess: boolean;
  corsOrigins: string[];
  allowedHosts: string[];
  startAtLogin: boolean;
}

export const DESKTOP_DEFAULTS: DesktopSettings = {
  port: 3010,
  lanAccess: false,
  corsOrigins: [],
  allowedHosts: [],
  startAtLogin: false,
};

const SCHEMA = {
  port: { type: 'integer', minimum: 1, maximum: 65535 },
  lanAccess: { type: 'boolean' },
  corsOrigins: { type: 'array', items: { type: 'string' } },
  allowedHosts: { type: 'array', items: { type: 'string' } },
  startAtLogin: { type: 'boolean' },
} as const;

export interface DesktopStore {
  get(): DesktopSettings;
  update(changes: Partial<DesktopSettings>): DesktopSettings;
}

/** The store in the user-data folder; a file that fails its schema starts over from the defaults instead of stopping the app. */
export function openDesktopStore(options: { cwd?: string } = {}): DesktopStore {
  const store = new Store<DesktopSettings>({
    name: 'settings',
    cwd: options.cwd,
    defaults: DESKTOP_DEFAULTS,
    schema: SCHEMA,
    clearInvalidConfig: true,
  });
  return {
    get: () => ({ ...DESKTOP_DEFAULTS, ...store.store }),
    update(changes) {
      store.set({ ...store.store, ...changes });
      return this.get();
    },
  };
}
