// The test's window into the stand-in (not Electron API): over the child's IPC channel, the test reads what the app
// shows (tray, windows) and did (clipboard, shell, dialogs), and acts as the user would (menu clicks, closing a window).
import type { Page } from 'puppeteer-core';
import { app } from './app.ts';
import { notifications, trays, type Menu } from './desktop.ts';
import { runtime } from './runtime.ts';
import { pictureMenu } from './menu-picture.ts';
import { browser, BrowserWindow } from './web.ts';

export interface MenuItemView {
  label: string;
  type: string;
  enabled: boolean;
  checked: boolean;
}

export interface TrayView {
  image: string | undefined;
  imageEmpty: boolean;
  toolTip: string;
  menu: MenuItemView[];
}

export interface WindowView {
  id: number;
  url: string;
  visible: boolean;
  focused: boolean;
  audioMuted: boolean;
  frameRate: number;
}

export interface StandInState {
  phase: typeof runtime.phase;
  loadError: string | undefined;
  uncaught: string[];
  clipboard: string;
  opened: typeof runtime.opened;
  dialogs: typeof runtime.dialogs;
  notifications: typeof runtime.notifications;
  loginItems: unknown[];
  trays: TrayView[];
  windows: WindowView[];
}

function menuView(menu: Menu | null): MenuItemView[] {
  return (menu?.items ?? []).map(({ label, type, enabled, checked }) => ({ label, type, enabled, checked }));
}

function state(): StandInState {
  const { phase, loadError, uncaught, clipboard, opened, dialogs, notifications: shown, loginItems } = runtime;
  return {
    phase,
    loadError,
    uncaught,
    clipboard,
    opened,
    dialogs,
    notifications: shown,
    loginItems,
    trays: [...trays].map((tray) => ({
      image: tray.image.standInPath,
      imageEmpty: tray.image.isEmpty(),
      toolTip: tray.toolTip,
      menu: menuView(tray.contextMenu),
    })),
    windows: BrowserWindow.getAllWindows().map((window) => ({
      id: window.id,
      url: window.webContents.getURL(),
      visible: window.isVisible(),
      focused: window.isFocused(),
      audioMuted: window.webContents.isAudioMuted(),
      frameRate: window.webContents.getFrameRate(),
    })),
  };
}

function onlyTray() {
  const [tray, ...others] = trays;
  if (!tray || others.length > 0) throw new Error(`expected one tray, found ${trays.size}`);
  return tray;
}

function windowPage(id: number): Promise<Page> {
  const window = BrowserWindow.getAllWindows().find((candidate) => candidate.id === id);
  if (!window) throw new Error(`no window ${id}`);
  return window.webContents.standInPage();
}

export const commands = {
  state,
  /** Clicks the tray menu item with this label, as the user would: a disabled item does nothing and says so. */
  clickMenuItem(label: string): void {
    const item = onlyTray().contextMenu?.items.find((candidate) => candidate.label === label);
    if (!item) throw new Error(`the tray menu has no "${label}"`);
    if (!item.enabled) throw new Error(`"${label}" is disabled`);
    item.click({});
  },
  /** Clicks the tray icon itself (Windows and macOS send this; most Linux trays do not). */
  clickTray(): void {
    onlyTray().emit('click', {}, onlyTray().getBounds());
  },
  /** Clicks the notification on screen with this title, as the user would. */
  clickNotification(title: string): void {
    const notification = [...notifications].find((candidate) => candidate.title === title);
    if (!notification) throw new Error(`no notification "${title}" is on screen`);
    notification.standInClick();
  },
  /** Evaluates an expression in the page's own (main) world, where the settings UI runs. */
  async evaluate(windowId: number, expression: string): Promise<unknown> {
    return (await windowPage(windowId)).evaluate(expression);
  },
  async screenshot(windowId: number, path: string): Promise<void> {
    await (await windowPage(windowId)).screenshot({ path: path as `${string}.png` });
  },
  /** Opens the tray's menu, as a right click does, and saves a picture of it; answers the lines it shows. */
  async screenshotTrayMenu(path: string): Promise<string[]> {
    const menu = onlyTray().contextMenu;
    if (!menu) throw new Error('the tray has no menu');
    return pictureMenu(await browser(), menu, path);
  },
  /** The user closes the window with its frame's close button. */
  closeWindow(windowId: number): void {
    BrowserWindow.getAllWindows()
      .find((window) => window.id === windowId)
      ?.close();
  },
};

export type Command = keyof typeof commands;

export function serveControl(): void {
  process.on('message', (message: { id: number; command: Command; args: unknown[] }) => {
    const run = commands[message.command] as (...args: unknown[]) => unknown;
    Promise.resolve()
      .then(() => run(...message.args))
      .then(
        (result) => process.send?.({ id: message.id, ok: true, result }),
        (error: unknown) =>
          process.send?.({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
  });
  // The test going away, or ending the app, must not leave its Chromium behind.
  const leave = () => void app.standInHooks.beforeExit().finally(() => process.exit(1));
  process.on('disconnect', leave);
  process.on('SIGTERM', leave);
}
