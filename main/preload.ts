import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_NAME, IPC, type DesktopBridge } from '../contracts/desktop-ipc.ts';

const bridge: DesktopBridge = {
  appInfo: () => ipcRenderer.invoke(IPC.appInfo),
  setStartAtLogin: (enabled) => ipcRenderer.invoke(IPC.setStartAtLogin, enabled === true),
  openLogsFolder: () => ipcRenderer.invoke(IPC.openLogsFolder),
};

contextBridge.exposeInMainWorld(BRIDGE_NAME, bridge);
