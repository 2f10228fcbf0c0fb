import { join } from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { menuFor, sameMenu, statusText, type TrayAction, type TrayMenuItem } from './tray-menu.ts';
import { trayIconFor } from './tray-icon.ts';
import { trayPlatformOf } from './tray-platform.ts';
import { waitingCount, type TrayStatus } from './tray-status.ts';

export type TrayHandlers = Record<TrayAction, () => void> & {
  /** The GM flipped a world's "Keep online" switch. */
  keepOnline(clientId: string, on: boolean): void;
};

/**
 * Status lines carry names others chose (a world's title, a tool's name). Electron reads `&` in a label as an access-key
 * marker on Windows and Linux and shows `&&` as one `&`, so a name's own `&` is doubled to stay as written.
 */
function literalLabel(text: string): string {
  return text.replaceAll('&', '&&');
}

function toElectron(item: TrayMenuItem, handlers: TrayHandlers): MenuItemConstructorOptions {
  switch (item.type) {
    case 'separator':
      return { type: 'separator' };
    case 'status':
      return { label: literalLabel(item.label), enabled: false };
    case 'action':
      return { label: item.label, enabled: item.enabled ?? true, click: handlers[item.action] };
    case 'checkbox':
      return { label: item.label, type: 'checkbox', checked: item.checked, click: handlers[item.action] };
    case 'keep-online':
      return {
        label: literalLabel(item.label),
        type: 'checkbox',
        checked: item.checked,
        click: () => handlers.keepOnline(item.clientId, !item.checked),
      };
  }
}

/** The requests waiting for the GM, as a badge beside the icon; nothing when none waits. */
function countTitle(status: TrayStatus): string {
  const waiting = waitingCount(status);
  return waiting > 0 ? String(waiting) : '';
}

/** The tray icon: applies the pure menu model and icon choice to Electron's Tray, changing only what changed. */
export class AppTray {
  private readonly tray: Tray;
  private readonly trayFolder: string;
  private readonly handlers: TrayHandlers;
  private readonly platform: NodeJS.Platform;
  private shownIcon = '';
  private shownTooltip = '';
  private shownTitle = '';
  private shownMenu: TrayMenuItem[] | undefined;

  constructor(
    assetsFolder: string,
    handlers: TrayHandlers,
    status: TrayStatus,
    platform: NodeJS.Platform = process.platform,
  ) {
    this.trayFolder = join(assetsFolder, 'tray');
    this.handlers = handlers;
    this.platform = platform;
    this.tray = new Tray(this.imageFor(status));
    if (trayPlatformOf(platform).clickOpensSettings) this.tray.on('click', () => handlers['open-settings']());
    this.update(status);
  }

  update(status: TrayStatus): void {
    if (trayIconFor(status, this.platform) !== this.shownIcon) this.tray.setImage(this.imageFor(status));
    const tooltip = statusText(status);
    if (tooltip !== this.shownTooltip) {
      this.tray.setToolTip(tooltip);
      this.shownTooltip = tooltip;
    }
    const title = trayPlatformOf(this.platform).countBesideIcon ? countTitle(status) : '';
    if (title !== this.shownTitle) {
      this.tray.setTitle(title);
      this.shownTitle = title;
    }
    const menu = menuFor(status);
    if (sameMenu(this.shownMenu, menu)) return;
    this.tray.setContextMenu(Menu.buildFromTemplate(menu.map((item) => toElectron(item, this.handlers))));
    this.shownMenu = menu;
  }

  destroy(): void {
    this.tray.destroy();
  }

  private imageFor(status: TrayStatus): Electron.NativeImage {
    this.shownIcon = trayIconFor(status, this.platform);
    return nativeImage.createFromPath(join(this.trayFolder, this.shownIcon));
  }
}
