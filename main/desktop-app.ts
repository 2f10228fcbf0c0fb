// Starts the desktop app once Electron is ready: wires the relay, the tray, the settings window and the stores together.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, clipboard, dialog, ipcMain, safeStorage, shell } from 'electron';
import { keyFileSecrets } from '../relay/capture/secrets.ts';
import { createRelay, type Relay } from '../relay/relay.ts';
import { DataDirTakenError, lockDataDir, type DataDirLock } from '../relay/storage/data-dir-lock.ts';
import { createAutostart } from './autostart.ts';
import { electronLauncher } from './capture/electron-browser.ts';
import { registerDesktopBridge } from './desktop-bridge.ts';
import { keyRequestNotice, keyRequestPage } from './key-request-notices.ts';
import { confirmationNotice, confirmationPage } from './confirmation-notices.ts';
import { WaitingNotices, type ShowNotice } from './waiting-notices.ts';
import { keepOnline } from './keep-online.ts';
import { showNotification } from './notification.ts';
import { createFileLogger } from './logger.ts';
import { chooseSecrets } from './secrets.ts';
import { moveRelaySettings, openDesktopStore } from './store.ts';
import { AppTray } from './tray.ts';
import type { StartedApp } from './startup.ts';
import type { TrayStatus } from './tray-status.ts';
import { SettingsWindow } from './windows.ts';
import { DesktopUpdates } from './updates/app-updater.ts';
import type { TableState } from './updates/update-policy.ts';

/** electron-builder.yml's appId, which its Windows installer gives the Start menu shortcut. */
const APP_USER_MODEL_ID = 'org.tabletoprelay.desktop';

/**
 * The Stream Deck plugin and Companion package the settings UI offers: packed beside the app's archive (electron-builder.yml's
 * extraResources), or in the project's dist/ when the app runs from a build (dist/app/main here, dist/streamdeck there).
 */
function integrationPackageFolders(): { streamDeck: string; companion: string } {
  const folder = app.isPackaged ? join(process.resourcesPath, 'integrations') : join(import.meta.dirname, '..', '..');
  return { streamDeck: join(folder, 'streamdeck'), companion: join(folder, 'companion') };
}

/**
 * Holds the relay's data folder for this app, or fails naming the relay that holds it (`serve` given this folder with
 * --data-dir): two relays on one folder would erase each other's changes.
 */
async function holdDataFolder(dataDir: string, url: () => string | undefined): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    return await lockDataDir(dataDir, () => ({ pid: process.pid, program: 'the desktop app', url: url() }));
  } catch (error) {
    if (!(error instanceof DataDirTakenError)) throw error;
    throw new Error(
      `${error.message}. Stop it, then start Tabletop Relay again: two relays on one folder would erase each other's changes.`,
      { cause: error },
    );
  }
}

/** What a restart would take offline: the worlds online now, and the keepers holding or starting one. */
function tableNow(relay: Relay): TableState {
  const { keeping } = relay.status();
  return {
    worldsOnline: relay.services.tabletop.worlds().length,
    keepersRunning: keeping.filter(({ keeper }) => keeper.phase === 'kept' || keeper.phase === 'starting').length,
  };
}

async function confirmRestartToUpdate(table: TableState): Promise<boolean> {
  const online = table.worldsOnline === 1 ? 'A world is online' : `${table.worldsOnline} worlds are online`;
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Restart now', 'Later'],
    defaultId: 1,
    cancelId: 1,
    title: 'Restart to update',
    message: `${table.worldsOnline > 0 ? online : 'A world keeper is running'}: restart Tabletop Relay now?`,
    detail:
      "Restarting takes the relay offline for a few seconds; the worlds' modules and your tools reconnect by themselves. Later installs the update when you quit.",
  });
  return response === 0;
}

/** Starts the relay, the tray and the settings window; needs Electron's `ready`. */
export async function startDesktopApp(): Promise<StartedApp> {
  const logger = createFileLogger({ folder: app.getPath('logs') });
  const store = openDesktopStore();
  const autostart = createAutostart({
    platform: process.platform,
    loginItems: app,
    configHome: process.env.XDG_CONFIG_HOME || join(app.getPath('home'), '.config'),
    command: process.env.APPIMAGE || process.execPath,
  });

  const dataDir = join(app.getPath('userData'), 'relay');
  let started: Relay | undefined;
  const lock = await holdDataFolder(dataDir, () => started?.url);
  const relay = createRelay({
    dataDir,
    // A port another program holds at start gives the next free one, shown in the tray, instead of no relay.
    nextFreePortIfTaken: true,
    log: logger,
    // Capture renders sheets in Electron's own Chromium, so the app needs no second browser installed.
    capture: {
      launchBrowser: electronLauncher(),
      secrets: chooseSecrets(safeStorage, process.platform, () => keyFileSecrets(dataDir, logger)),
    },
    // The build puts the settings UI next to the compiled main: dist/app/renderer beside dist/app/main.
    settingsUi: { dir: join(import.meta.dirname, '..', 'renderer') },
    integrationPackages: integrationPackageFolders(),
  });
  started = relay;
  try {
    moveRelaySettings(store, relay.services.settings);
  } catch (error) {
    logger.error(
      'The settings of an earlier version could not move to the relay; they are tried again at the next start',
      error,
    );
  }
  let startError: string | undefined;
  await relay.start().catch((error: NodeJS.ErrnoException) => {
    startError =
      error.code === 'EADDRINUSE'
        ? `port ${relay.services.settings.get().port} is already in use`
        : 'the relay could not start';
    logger.error('Relay did not start', error);
  });
  logger.info(startError ? 'Started without the relay' : `Relay listening at ${relay.url}`);

  const updates = new DesktopUpdates({
    packaged: app.isPackaged,
    enabled: () => store.get().checkForUpdates,
    log: logger,
    table: () => tableNow(relay),
    confirmRestart: confirmRestartToUpdate,
    changed: () => refreshTray(),
  });
  const statusNow = (): TrayStatus => ({
    relay: startError ? undefined : relay.status(),
    error: startError,
    startAtLogin: autostart.enabled(),
    checkForUpdates: store.get().checkForUpdates,
    update: updates.state,
    now: new Date(),
  });
  const appInfo = () => ({
    version: app.getVersion(),
    platform: process.platform,
    startAtLogin: autostart.enabled(),
    logsFolder: logger.folder,
  });
  const setStartAtLogin = (enabled: boolean) => {
    autostart.set(enabled);
    store.update({ startAtLogin: enabled });
    refreshTray();
    return appInfo();
  };

  const iconPath = join(app.getAppPath(), 'assets', 'icon.png');
  const settingsWindow = new SettingsWindow({
    preloadPath: join(import.meta.dirname, 'preload.cjs'),
    iconPath,
    relayUrl: () => relay.url,
    loginUrl: () => relay.createAdminLoginUrl(),
    logger,
  });
  const tray = new AppTray(
    join(app.getAppPath(), 'assets'),
    {
      'copy-local-url': () => clipboard.writeText(relay.url),
      'copy-lan-url': () => clipboard.writeText(relay.status().lan.urls[0] ?? relay.url),
      'open-settings': () => settingsWindow.open(),
      'pause-relay': () => relay.pause(),
      'resume-relay': () => relay.resume(),
      'toggle-start-at-login': () => setStartAtLogin(!autostart.enabled()),
      'open-logs-folder': () => void shell.openPath(logger.folder),
      'keep-port': () => {
        const { port } = relay;
        relay.services.network
          .moveTo({ port }, () => relay.services.settings.update({ port }))
          .catch((error: unknown) => logger.error(`Could not keep port ${port}`, error));
      },
      'restart-to-update': () => void updates.restartToUpdate(),
      'toggle-update-checks': () => {
        store.update({ checkForUpdates: !store.get().checkForUpdates });
        updates.enabledChanged();
        refreshTray();
      },
      quit: () => app.quit(),
      keepOnline: (clientId, on) => keepOnline(relay, clientId, on, (page) => settingsWindow.open(page), logger),
    },
    statusNow(),
  );
  logger.info('Tray created');

  // Windows shows an app's notifications only under its Application User Model ID, the installer's shortcut's
  // (https://www.electronjs.org/docs/latest/tutorial/notifications#windows).
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  const notify: ShowNotice = (notice, onClick) => showNotification(notice, onClick, iconPath);
  const keyRequestNotices = new WaitingNotices(notify, keyRequestNotice, (code) =>
    settingsWindow.open(keyRequestPage(code)),
  );
  const confirmationNotices = new WaitingNotices(notify, confirmationNotice, (code) =>
    settingsWindow.open(confirmationPage(code)),
  );

  function refreshTray(): void {
    const status = statusNow();
    tray.update(status);
    keyRequestNotices.update(status.relay?.keyRequests ?? []);
    confirmationNotices.update(status.relay?.confirmations ?? []);
  }
  relay.services.changes.on('status', refreshTray);
  updates.start();
  // "Connected for" and "calls in the last minute" change with time alone.
  setInterval(refreshTray, 10_000).unref();

  registerDesktopBridge(
    ipcMain,
    {
      appInfo,
      setStartAtLogin,
      openLogsFolder: async () => void (await shell.openPath(logger.folder)),
    },
    (url) => settingsWindow.isShowing(url),
  );

  // The relay lives in the tray: closing the settings window must not quit the app.
  app.on('window-all-closed', () => undefined);
  // Quitting waits for the relay to close its sockets and flush the key store.
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    keyRequestNotices.close();
    confirmationNotices.close();
    updates.stop();
    tray.destroy();
    relay
      .stop()
      .then(() => lock.release())
      .finally(() => app.quit());
  });
  return { focus: () => settingsWindow.open() };
}
