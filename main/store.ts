import Store from 'electron-store';

/** What the desktop app keeps between launches (electron-store, in the user-data folder). */
export interface DesktopSettings {
  port: number;
  lanAccess: boolean;
  corsOrigins: string[];
  startAtLogin: boolean;
  capture: { foundryUrl: string; username: string };
}

export const DESKTOP_DEFAULTS: DesktopSettings = {
  port: 3010,
  lanAccess: false,
  corsOrigins: ['*'],
  startAtLogin: false,
  capture: { foundryUrl: '', username: '' },
};

const SCHEMA = {
  port: { type: 'integer', minimum: 1, maximum: 65535 },
  lanAccess: { type: 'boolean' },
  corsOrigins: { type: 'array', items: { type: 'string' } },
  startAtLogin: { type: 'boolean' },
  capture: {
    type: 'object',
    properties: { foundryUrl: { type: 'string' }, username: { type: 'string' } },
  },
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
