import { join } from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { menuFor, statusText, type TrayAction, type TrayMenuItem } from './tray-menu.ts';
import { trayIconFor } from './tray-icon.ts';
import type { TrayStatus } from './tray-status.ts';

export type TrayHandlers = Record<TrayAction, () => void>;

function toElectron(item: TrayMenuItem, handlers: TrayHandlers): MenuItemConstructorOptions {
  switch (item.type) {
    case 'separator':
      return { type: 'separator' };
    case 'status':
      return { label: item.label, enabled: false };
    case 'action':
      return { label: item.label, enabled: item.enabled ?? true, click: handlers[item.action] };
    case 'checkbox':
      return { label: item.label, type: 'checkbox', checked: item.checked, click: handlers[item.action] };
  }
}

/** The tray icon: applies the pure menu model and icon choice to Electron's Tray. */
export class AppTray {
  private readonly tray: Tray;
  private readonly trayFolder: string;
  private readonly handlers: TrayHandlers;
  private shownIcon = '';

  constructor(assetsFolder: string, handlers: TrayHandlers, status: TrayStatus) {
    this.trayFolder = join(assetsFolder, 'tray');
    this.handlers = handlers;
    this.tray = new Tray(this.imageFor(status));
    this.update(status);
  }

  update(status: TrayStatus): void {
    const icon = trayIconFor(status, process.platform);
    if (icon !== this.shownIcon) this.tray.setImage(this.imageFor(status));
    this.tray.setToolTip(statusText(status));
    this.tray.setContextMenu(Menu.buildFromTemplate(menuFor(status).map((item) => toElectron(item, this.handlers))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private imageFor(status: TrayStatus): Electron.NativeImage {
    this.shownIcon = trayIconFor(status, process.platform);
    return nativeImage.createFromPath(join(this.trayFolder, this.shownIcon));
  }
}
