// SettingsWindow against a recording stand-in for Electron's BrowserWindow
// (https://www.electronjs.org/docs/latest/api/browser-window): every opening signs in with a fresh one-time link.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

let windows: RecordingWindow[] = [];

class RecordingWindow extends EventEmitter {
  loaded: string[] = [];
  shown = 0;
  focused = 0;
  minimized = false;
  destroyed = false;
  readonly webContents = Object.assign(new EventEmitter(), {
    setWindowOpenHandler: () => undefined,
    session: { setPermissionRequestHandler: () => undefined },
  });
  constructor() {
    super();
    windows.push(this);
  }
  loadURL(url: string) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return this.minimized;
  }
  restore() {
    this.minimized = false;
  }
  show() {
    this.shown += 1;
  }
  focus() {
    this.focused += 1;
  }
  destroy() {
    this.destroyed = true;
    this.emit('closed');
  }
}

vi.mock('electron', () => ({ BrowserWindow: RecordingWindow, shell: { openExternal: () => Promise.resolve() } }));

const { SettingsWindow } = await import('../../main/windows.ts');
const { createFileLogger } = await import('../../main/logger.ts');

let issued = 0;
const settingsWindow = () =>
  new SettingsWindow({
    preloadPath: '/app/preload.cjs',
    iconPath: '/app/icon.png',
    relayUrl: () => 'http://127.0.0.1:3010',
    loginUrl: () => `http://127.0.0.1:3010/admin/login?code=${(issued += 1)}`,
    logger: createFileLogger({ folder: '/nonexistent/logs' }),
  });

beforeEach(() => {
  windows = [];
  issued = 0;
});

describe('SettingsWindow.open', () => {
  it('signs in with a fresh link each time, in the one window', () => {
    const settings = settingsWindow();
    settings.open();
    settings.open();
    expect(windows).toHaveLength(1);
    expect(windows[0]!.loaded).toEqual([
      'http://127.0.0.1:3010/admin/login?code=1',
      'http://127.0.0.1:3010/admin/login?code=2',
    ]);
  });

  it('brings a minimised window back and forward', () => {
    const settings = settingsWindow();
    settings.open();
    windows[0]!.minimized = true;
    settings.open();
    expect(windows[0]).toMatchObject({ minimized: false, shown: 1, focused: 1 });
  });

  it('shows a new window once its page is ready', () => {
    settingsWindow().open();
    expect(windows[0]!.shown).toBe(0);
    windows[0]!.emit('ready-to-show');
    expect(windows[0]!.shown).toBe(1);
  });

  it('opens a new window with a new link after the last one was closed', () => {
    const settings = settingsWindow();
    settings.open();
    windows[0]!.destroy();
    settings.open();
    expect(windows).toHaveLength(2);
    expect(windows[1]!.loaded).toEqual(['http://127.0.0.1:3010/admin/login?code=2']);
  });
});
