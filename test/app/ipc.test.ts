import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpcMain } from 'electron';
import {
  BRIDGE_NAME,
  IPC,
  IPC_CHANNELS,
  isIpcChannel,
  type AppInfo,
  type DesktopBridge,
} from '../../contracts/desktop-ipc.ts';
import { handle, registerDesktopBridge } from '../../main/desktop-bridge.ts';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (..._args: unknown[]) => undefined);

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (name: string, api: unknown) => {
      exposed[name] = api;
    },
  },
  ipcRenderer: { invoke: (...args: unknown[]) => invoke(...args), send: vi.fn(), on: vi.fn() },
}));

describe('IPC allow-list', () => {
  it('is exactly three channels, one per desktop action', () => {
    expect([...IPC_CHANNELS].sort()).toEqual([
      'desktop:app-info',
      'desktop:open-logs-folder',
      'desktop:set-start-at-login',
    ]);
    expect(isIpcChannel('desktop:app-info')).toBe(true);
    expect(isIpcChannel('relay:admin-token')).toBe(false);
  });
});

describe('IPC contract', () => {
  // Never called: tsc (npm run typecheck) fails when a line marked @ts-expect-error compiles.
  function wrongUses(
    invoke: typeof import('../../main/preload.ts').invoke,
    ipcMain: IpcMain,
    bridge: DesktopBridge,
    info: AppInfo,
  ): void {
    const trusted = () => true;
    // @ts-expect-error the page sends a boolean on this channel
    void invoke(IPC.setStartAtLogin, 'yes');
    // @ts-expect-error the channel takes one argument
    void invoke(IPC.setStartAtLogin);
    // @ts-expect-error this channel answers AppInfo
    void (invoke(IPC.appInfo) satisfies Promise<string>);
    // @ts-expect-error no such channel
    void invoke('relay:admin-token');
    // @ts-expect-error a handler must answer AppInfo on this channel
    handle(ipcMain, IPC.appInfo, () => 'version 1', trusted);
    // @ts-expect-error a handler takes the channel's arguments
    handle(ipcMain, IPC.setStartAtLogin, (enabled: string) => ({ ...info, startAtLogin: enabled === 'yes' }), trusted);
    // @ts-expect-error the bridge answers what the channel answers
    void (bridge.openLogsFolder() satisfies Promise<AppInfo>);
  }

  it('types every channel, its arguments and its answer, on both sides', () => {
    expect(wrongUses).toBeTypeOf('function');
  });
});

describe('preload', () => {
  beforeEach(() => invoke.mockClear());

  it('exposes one bridge whose methods reach only allow-listed channels', async () => {
    await import('../../main/preload.ts');
    expect(Object.keys(exposed)).toEqual([BRIDGE_NAME]);
    const bridge = exposed[BRIDGE_NAME] as Record<string, (...args: unknown[]) => Promise<unknown>>;
    expect(Object.keys(bridge).sort()).toEqual(['appInfo', 'openLogsFolder', 'setStartAtLogin']);
    await bridge.appInfo!();
    await bridge.setStartAtLogin!('yes');
    await bridge.openLogsFolder!();
    expect(invoke.mock.calls).toEqual([[IPC.appInfo], [IPC.setStartAtLogin, false], [IPC.openLogsFolder]]);
    for (const [channel] of invoke.mock.calls) expect(isIpcChannel(String(channel))).toBe(true);
  });
});

describe('registerDesktopBridge', () => {
  function register() {
    const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
    const ipcMain = {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) =>
        handlers.set(channel, handler),
    };
    const actions = {
      appInfo: vi.fn(() => ({ version: '0.1.0', platform: 'linux', startAtLogin: false, logsFolder: '/logs' })),
      setStartAtLogin: vi.fn((enabled: boolean) => ({
        version: '0.1.0',
        platform: 'linux',
        startAtLogin: enabled,
        logsFolder: '/logs',
      })),
      openLogsFolder: vi.fn(async () => undefined),
    };
    registerDesktopBridge(ipcMain as never, actions, (url) => url.startsWith('http://127.0.0.1:3010/admin/'));
    return { handlers, actions };
  }
  const from = (url: string) => ({ senderFrame: { url } });

  it('handles the allow-listed channels and no other', () => {
    expect([...register().handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it('answers the settings page', async () => {
    const { handlers, actions } = register();
    expect(await handlers.get(IPC.setStartAtLogin)!(from('http://127.0.0.1:3010/admin/#access'), true)).toMatchObject({
      startAtLogin: true,
    });
    expect(actions.setStartAtLogin).toHaveBeenCalledWith(true);
  });

  it('refuses a page that is not the relay settings', () => {
    const { handlers, actions } = register();
    expect(() => handlers.get(IPC.openLogsFolder)!(from('https://evil.example/'))).toThrow(
      /Refused desktop:open-logs-folder/,
    );
    expect(() => handlers.get(IPC.appInfo)!({ senderFrame: null })).toThrow(/unknown page/);
    expect(actions.openLogsFolder).not.toHaveBeenCalled();
  });
});
