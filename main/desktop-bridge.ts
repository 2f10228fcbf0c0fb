import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC, IPC_CHANNELS, type AppInfo, type IpcChannel } from '../contracts/desktop-ipc.ts';

export interface DesktopActions {
  appInfo(): AppInfo;
  setStartAtLogin(enabled: boolean): AppInfo;
  openLogsFolder(): Promise<void>;
}

/** Answers the allow-listed channels, and only for the relay's own pages in the settings window. */
export function registerDesktopBridge(ipcMain: IpcMain, actions: DesktopActions, isTrustedPage: (url: string) => boolean): void {
  const handlers: Record<IpcChannel, (...args: unknown[]) => unknown> = {
    [IPC.appInfo]: () => actions.appInfo(),
    [IPC.setStartAtLogin]: (enabled) => actions.setStartAtLogin(enabled === true),
    [IPC.openLogsFolder]: () => actions.openLogsFolder(),
  };
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrustedPage(url)) throw new Error(`Refused ${channel} from ${url || 'an unknown page'}`);
      return handlers[channel](...args);
    });
  }
}
