// The store on real files. electron-store is conf plus Electron's user-data folder as the default cwd
// (node_modules/electron-store/index.js); importing it would load the `electron` package, which has no binary here, so
// the stand-in is conf with the same option mapping (`name` becomes conf's `configName`), and each test gives a cwd.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Settings } from '../../relay/storage/settings.ts';

vi.mock('electron-store', async () => {
  const { default: Conf } = await import('conf');
  return {
    default: class ElectronStoreStandIn<T extends Record<string, unknown>> extends Conf<T> {
      constructor({ name, ...options }: ConstructorParameters<typeof Conf<T>>[0] & { name?: string }) {
        super({ ...options, configName: name ?? 'config' });
      }
    },
  };
});

const { DESKTOP_DEFAULTS, moveRelaySettings, openDesktopStore } = await import('../../main/store.ts');

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'desktop-store-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const storeFile = () => join(folder, 'settings.json');
const relaySettingsFile = () => join(folder, 'relay', 'settings.json');
const onDisk = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
/** What an earlier version of the app left in its store. */
const EARLIER_STORE = {
  port: 3020,
  lanAccess: true,
  corsOrigins: ['http://localhost:30000'],
  allowedHosts: ['relay.lan'],
  startAtLogin: true,
};

describe('desktop settings store', () => {
  it("keeps only what is the desktop app's own: start at login and update checks", () => {
    expect(DESKTOP_DEFAULTS).toEqual({ startAtLogin: false, checkForUpdates: true });
    const store = openDesktopStore({ cwd: folder });
    expect(store.get()).toEqual({ startAtLogin: false, checkForUpdates: true });
    expect(store.update({ startAtLogin: true })).toEqual({ startAtLogin: true, checkForUpdates: true });
    expect(store.update({ checkForUpdates: false })).toEqual({ startAtLogin: true, checkForUpdates: false });
    expect(openDesktopStore({ cwd: folder }).get()).toEqual({ startAtLogin: true, checkForUpdates: false });
    expect(Object.keys(onDisk(storeFile())).sort()).toEqual(['checkForUpdates', 'startAtLogin']);
  });

  it('starts over from the defaults on a file that fails its schema', () => {
    writeFileSync(storeFile(), JSON.stringify({ startAtLogin: 'yes' }));
    expect(openDesktopStore({ cwd: folder }).get()).toEqual({ startAtLogin: false, checkForUpdates: true });
  });
});

describe('moveRelaySettings', () => {
  it('moves the relay fields an earlier version stored here into the relay settings, once', () => {
    writeFileSync(storeFile(), JSON.stringify(EARLIER_STORE));
    const store = openDesktopStore({ cwd: folder });
    const relaySettings = new Settings(relaySettingsFile());

    expect(moveRelaySettings(store, relaySettings)).toEqual({
      port: 3020,
      lanAccess: true,
      corsOrigins: ['http://localhost:30000'],
      allowedHosts: ['relay.lan'],
    });
    expect(onDisk(relaySettingsFile())).toEqual({
      port: 3020,
      lanAccess: true,
      corsOrigins: ['http://localhost:30000'],
      allowedHosts: ['relay.lan'],
    });
    expect(onDisk(storeFile())).toEqual({ startAtLogin: true, checkForUpdates: true });

    // The GM changes the port in the relay; the next start must not bring the old one back.
    relaySettings.update({ port: 4000 });
    expect(moveRelaySettings(openDesktopStore({ cwd: folder }), new Settings(relaySettingsFile()))).toEqual({});
    expect(new Settings(relaySettingsFile()).get().port).toBe(4000);
  });

  it('keeps the fields in the desktop store when the relay cannot store them', () => {
    writeFileSync(storeFile(), JSON.stringify(EARLIER_STORE));
    const store = openDesktopStore({ cwd: folder });
    const failing = {
      update: () => {
        throw new Error('disk full');
      },
    };
    expect(() => moveRelaySettings(store, failing)).toThrow('disk full');
    expect(onDisk(storeFile())).toEqual({ ...EARLIER_STORE, checkForUpdates: true });
  });

  it('moves only fields of the right type', () => {
    writeFileSync(
      storeFile(),
      JSON.stringify({ port: 'high', lanAccess: true, corsOrigins: [3], startAtLogin: false }),
    );
    const relaySettings = new Settings(relaySettingsFile());
    expect(moveRelaySettings(openDesktopStore({ cwd: folder }), relaySettings)).toEqual({ lanAccess: true });
    expect(relaySettings.get()).toMatchObject({ port: 3010, lanAccess: true, corsOrigins: [] });
    expect(onDisk(storeFile())).toEqual({ startAtLogin: false, checkForUpdates: true });
  });

  it("leaves behind the earlier versions' default of any web origin, so web pages get today's default of none", () => {
    writeFileSync(storeFile(), JSON.stringify({ lanAccess: false, corsOrigins: ['*'], startAtLogin: false }));
    const relaySettings = new Settings(relaySettingsFile());
    expect(moveRelaySettings(openDesktopStore({ cwd: folder }), relaySettings)).toEqual({ lanAccess: false });
    expect(relaySettings.get().corsOrigins).toEqual([]);
    expect(onDisk(storeFile())).toEqual({ startAtLogin: false, checkForUpdates: true });
  });
});
