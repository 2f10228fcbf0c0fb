// The only channels between the settings window and the main process, each with what the page sends and what it gets
// back. The preload's `invoke` and the main process's `handle` are typed by this map, so neither side compiles with a
// channel, an argument or an answer the other does not expect.

/** The bridge's methods and the channel each one uses. */
export const IPC = {
  appInfo: 'desktop:app-info',
  setStartAtLogin: 'desktop:set-start-at-login',
  openLogsFolder: 'desktop:open-logs-folder',
} as const;

export interface AppInfo {
  version: string;
  platform: string;
  startAtLogin: boolean;
  logsFolder: string;
}

export interface IpcContract {
  [IPC.appInfo]: { request: []; response: AppInfo };
  [IPC.setStartAtLogin]: { request: [enabled: boolean]; response: AppInfo };
  [IPC.openLogsFolder]: { request: []; response: void };
}

export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = IpcContract[C]['request'];
export type IpcResponse<C extends IpcChannel> = IpcContract[C]['response'];

export type BridgeMethod = keyof typeof IPC;
type ChannelOf<M extends BridgeMethod> = (typeof IPC)[M];

export const IPC_CHANNELS: readonly IpcChannel[] = Object.values(IPC);

/** The name under which the preload script exposes the bridge on `window`. */
export const BRIDGE_NAME = 'tabletopRelayDesktop';

/** What the settings UI can ask of the desktop app, and nothing more: one method per channel. */
export type DesktopBridge = {
  [M in BridgeMethod]: (...request: IpcRequest<ChannelOf<M>>) => Promise<IpcResponse<ChannelOf<M>>>;
};

/** What the main process does for each bridge method; the same arguments, answering now or later. */
export type DesktopActions = {
  [M in BridgeMethod]: (
    ...request: IpcRequest<ChannelOf<M>>
  ) => IpcResponse<ChannelOf<M>> | Promise<IpcResponse<ChannelOf<M>>>;
};

export function isIpcChannel(channel: string): channel is IpcChannel {
  return (IPC_CHANNELS as readonly string[]).includes(channel);
}
