// The only channels between the settings window and the main process. Both sides import them from here.

export const IPC = {
  appInfo: 'desktop:app-info',
  setStartAtLogin: 'desktop:set-start-at-login',
  openLogsFolder: 'desktop:open-logs-folder',
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

export const IPC_CHANNELS: readonly IpcChannel[] = Object.values(IPC);

/** The name under which the preload script exposes the bridge on `window`. */
export const BRIDGE_NAME = 'tabletopRelayDesktop';

export interface AppInfo {
  version: string;
  platform: string;
  startAtLogin: boolean;
  logsFolder: string;
}

/** What the settings UI can ask of the desktop app, and nothing more. */
export interface DesktopBridge {
  appInfo(): Promise<AppInfo>;
  setStartAtLogin(enabled: boolean): Promise<AppInfo>;
  openLogsFolder(): Promise<void>;
}

export function isIpcChannel(channel: string): channel is IpcChannel {
  return (IPC_CHANNELS as readonly string[]).includes(channel);
}
