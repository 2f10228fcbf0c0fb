import { BrowserWindow, shell, type WebContents } from 'electron';
import type { Logger } from './logger.ts';
import { guardWindow } from './window-guards.ts';
import { externalLinkToOpen, isRelayPage, settingsWindowOptions } from './window-options.ts';

export interface SettingsWindowOptions {
  preloadPath: string;
  iconPath: string;
  relayUrl(): string;
  /** A fresh one-time login URL; the admin token itself never reaches the window. */
  loginUrl(): string;
  logger: Logger;
}

function openOutside(url: string, logger: Logger): void {
  const link = externalLinkToOpen(url);
  if (link) shell.openExternal(link).catch((error: unknown) => logger.warn(`Could not open ${link}`, error));
}

/** Keeps the window on the relay's admin pages; every other link goes to the system browser. */
function confine(contents: WebContents, options: SettingsWindowOptions): void {
  guardWindow(contents, {
    mayShow: (url) => isRelayPage(url, options.relayUrl()),
    elsewhere: (url) => openOutside(url, options.logger),
    permissions: ['clipboard-sanitized-write'],
  });
}

/**
 * The one settings window: opened from the tray or a second launch, brought forward if already open. Each opening signs
 * in with a fresh one-time link, so it works whatever happened since: the session expired, the relay moved to another
 * port, or the page was left on an error.
 */
export class SettingsWindow {
  private readonly options: SettingsWindowOptions;
  private window: BrowserWindow | undefined;

  constructor(options: SettingsWindowOptions) {
    this.options = options;
  }

  /** `page` is the settings UI's fragment to land on, e.g. `status/key-request/K7P-4QX`; the Status page otherwise. */
  open(page?: string): void {
    const open = this.window && !this.window.isDestroyed() ? this.window : undefined;
    if (open) {
      if (open.isMinimized()) open.restore();
      open.show();
      open.focus();
    }
    const window = open ?? this.create();
    // The login answers with a redirect that has no fragment, so the browser keeps this one (RFC 9110 §10.2.2).
    window
      .loadURL(page ? `${this.options.loginUrl()}#${page}` : this.options.loginUrl())
      .catch((error: unknown) => this.options.logger.error('Could not load the settings', error));
  }

  private create(): BrowserWindow {
    const window = new BrowserWindow(settingsWindowOptions(this.options.preloadPath, this.options.iconPath));
    this.window = window;
    confine(window.webContents, this.options);
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      this.window = undefined;
    });
    return window;
  }

  isShowing(url: string): boolean {
    return isRelayPage(url, this.options.relayUrl());
  }

  close(): void {
    this.window?.destroy();
  }
}
