import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import {
  IPC,
  type BridgeMethod,
  type DesktopActions,
  type IpcChannel,
  type IpcRequest,
  type IpcResponse,
} from '../contracts/desktop-ipc.ts';

type TrustedPage = (url: string) => boolean;
export type IpcHandler<C extends IpcChannel> = (...request: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>;

/** A page's arguments as the contract types them: the page runs its own script, so they are read, never trusted. */
const READ_REQUEST: { [C in IpcChannel]: (args: readonly unknown[]) => IpcRequest<C> } = {
  [IPC.appInfo]: () => [],
  [IPC.setStartAtLogin]: ([enabled]) => [enabled === true],
  [IPC.openLogsFolder]: () => [],
};

/** ipcMain.handle for one channel, answered only for the relay's own pages in the settings window. */
export function handle<C extends IpcChannel>(
  ipcMain: IpcMain,
  channel: C,
  handler: IpcHandler<C>,
  isTrustedPage: TrustedPage,
): void {
  ipcMain.handle(channel, (event: IpcMainInvokeEvent, ...args: unknown[]) => {
    const url = event.senderFrame?.url ?? '';
    if (!isTrustedPage(url)) throw new Error(`Refused ${channel} from ${url || 'an unknown page'}`);
    return handler(...READ_REQUEST[channel](args));
  });
}

/** Answers the allow-listed channels, one per bridge method. */
export function registerDesktopBridge(ipcMain: IpcMain, actions: DesktopActions, isTrustedPage: TrustedPage): void {
  const answer = <M extends BridgeMethod>(method: M) => handle(ipcMain, IPC[method], actions[method], isTrustedPage);
  for (const method of Object.keys(IPC) as BridgeMethod[]) answer(method);
}
