// AppTray against a recording stand-in for Electron's Tray and Menu (https://www.electronjs.org/docs/latest/api/tray):
// what it asks Electron to do, per platform, as the status changes.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrayHandlers } from '../../main/tray.ts';
import type { TrayStatus } from '../../main/tray-status.ts';
import { relaySnapshot, trayStatus } from './tray-fixtures.ts';

const calls: string[] = [];
let trays: RecordingTray[] = [];

class RecordingTray extends EventEmitter {
  menu: { label?: string; click?: () => void }[] = [];
  readonly image: unknown;
  constructor(image: unknown) {
    super();
    this.image = image;
    trays.push(this);
  }
  setImage(image: { path: string }) {
    calls.push(`setImage ${image.path}`);
  }
  setToolTip(text: string) {
    calls.push(`setToolTip ${text}`);
  }
  setTitle(text: string) {
    calls.push(`setTitle ${text}`);
  }
  setContextMenu(menu: { items: { label?: string; click?: () => void }[] }) {
    calls.push('setContextMenu');
    this.menu = menu.items;
  }
  destroy() {}
}

vi.mock('electron', () => ({
  Tray: RecordingTray,
  Menu: { buildFromTemplate: (items: unknown[]) => ({ items }) },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
}));

const { AppTray } = await import('../../main/tray.ts');

const NOW = new Date('2026-03-01T20:00:00Z');
const relay = relaySnapshot;
const status = (overrides: Partial<TrayStatus> = {}): TrayStatus => trayStatus(NOW, overrides);
const WORLD = { clientId: 'fvtt_a', worldTitle: 'The Keep', connectedSince: '2026-03-01T19:00:00Z' };

function handlers(): TrayHandlers & { opened: number } {
  const record = { opened: 0 } as TrayHandlers & { opened: number };
  for (const action of [
    'copy-local-url',
    'copy-lan-url',
    'pause-relay',
    'resume-relay',
    'toggle-start-at-login',
    'open-logs-folder',
    'keep-port',
    'quit',
  ] as const) {
    record[action] = () => undefined;
  }
  record['open-settings'] = () => {
    record.opened += 1;
  };
  return record;
}

beforeEach(() => {
  calls.length = 0;
  trays = [];
});

describe('AppTray', () => {
  it('sets the context menu at once, on every platform, so Linux shows the icon', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      calls.length = 0;
      new AppTray('/assets', handlers(), status(), platform);
      expect(calls).toContain('setContextMenu');
    }
  });

  it('rebuilds the menu only when what it shows changed', () => {
    const tray = new AppTray('/assets', handlers(), status(), 'linux');
    calls.length = 0;
    tray.update(status({ now: new Date(NOW.getTime() + 10_000) }));
    tray.update(status());
    expect(calls).toEqual([]);

    tray.update(status({ relay: relay({ worlds: [WORLD] }) }));
    expect(calls.filter((call) => call === 'setContextMenu')).toHaveLength(1);
    expect(calls).toContain('setImage /assets/tray/tray-connected.png');
    expect(calls).toContain('setToolTip Tabletop Relay: The Keep connected');
  });

  it("shows an & in a world's title as written, not as an access key (Electron's && is one &)", () => {
    const tray = new AppTray('/assets', handlers(), status(), 'win32');
    tray.update(status({ relay: relay({ worlds: [{ ...WORLD, worldTitle: 'Dungeons & Drakes' }] }) }));
    const labels = trays[0]!.menu.map((item) => item.label);
    expect(labels).toContain('Dungeons && Drakes');
    expect(labels).toContain('Copy local URL');
  });

  it('on Windows a left click opens the settings', () => {
    const actions = handlers();
    new AppTray('/assets', actions, status(), 'win32');
    trays[0]!.emit('click');
    expect(actions.opened).toBe(1);
  });

  it('elsewhere the click is left to the menu', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const actions = handlers();
      new AppTray('/assets', actions, status(), platform);
      expect(trays.at(-1)!.listenerCount('click')).toBe(0);
    }
  });

  it('on macOS counts the requests waiting beside the icon, and clears the count when none waits', () => {
    const tray = new AppTray('/assets', handlers(), status(), 'darwin');
    expect(calls.filter((call) => call.startsWith('setTitle'))).toEqual([]);
    const keyRequests = [{ appName: 'Stream Deck', code: 'K7P-4QX' }];
    tray.update(status({ relay: relay({ keyRequests, pairRequests: [{}] }) }));
    tray.update(status({ relay: relay({ keyRequests, pairRequests: [{}] }) }));
    expect(calls).toContain('setImage /assets/tray/tray-waitingTemplate.png');
    tray.update(status());
    expect(calls.filter((call) => call.startsWith('setTitle'))).toEqual(['setTitle 2', 'setTitle ']);
  });

  it('elsewhere shows the waiting icon and the count in the tooltip, without a title', () => {
    for (const platform of ['linux', 'win32'] as const) {
      calls.length = 0;
      const tray = new AppTray('/assets', handlers(), status(), platform);
      tray.update(status({ relay: relay({ keyRequests: [{ appName: 'Stream Deck', code: 'K7P-4QX' }] }) }));
      expect(calls).toContain('setImage /assets/tray/tray-waiting.png');
      expect(calls).toContain('setToolTip Tabletop Relay: no world connected · 1 key request waiting');
      expect(calls.filter((call) => call.startsWith('setTitle'))).toEqual([]);
    }
  });

  it('on macOS shows template images', () => {
    new AppTray('/assets', handlers(), status(), 'darwin');
    expect(trays[0]!.image).toEqual({ path: '/assets/tray/tray-idleTemplate.png' });
  });

  it('menu items call their handlers', () => {
    const actions = handlers();
    new AppTray('/assets', actions, status(), 'linux');
    trays[0]!.menu.find((item) => item.label === 'Open settings…')!.click!();
    expect(actions.opened).toBe(1);
  });
});
