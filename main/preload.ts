import { contextBridge, ipcRenderer } from 'electron';
import {
  BRIDGE_NAME,
  IPC,
  type DesktopBridge,
  type IpcChannel,
  type IpcRequest,
  type IpcResponse,
} from '../contracts/desktop-ipc.ts';

/** ipcRenderer.invoke for one allow-listed channel, with the arguments and the answer its contract gives it. */
export function invoke<C extends IpcChannel>(channel: C, ...request: IpcRequest<C>): Promise<IpcResponse<C>> {
  return ipcRenderer.invoke(channel, ...request) as Promise<IpcResponse<C>>;
}

const bridge: DesktopBridge = {
  appInfo: () => invoke(IPC.appInfo),
  // The page's own script may call this with anything; only `true` turns starting at login on.
  setStartAtLogin: (enabled) => invoke(IPC.setStartAtLogin, enabled === true),
  openLogsFolder: () => invoke(IPC.openLogsFolder),
};

contextBridge.exposeInMainWorld(BRIDGE_NAME, bridge);
