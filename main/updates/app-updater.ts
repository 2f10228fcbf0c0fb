// The desktop app's updates: electron-updater against the release feed (`publish` in electron-builder.yml), as the
// update policy says. It downloads in the background and installs when the app quits, or when the GM presses "Restart
// to update"; it never restarts the app by itself. electron-updater is loaded only in an installed app: a build run
// from the sources has no feed to check.
import type { AppUpdater } from 'electron-updater';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  checkDue,
  failedState,
  restartDecision,
  type TableState,
  type UpdateState,
} from './update-policy.ts';

export interface UpdaterLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface DesktopUpdatesOptions {
  /** Whether this is an installed app (Electron's `app.isPackaged`). */
  packaged: boolean;
  /** The GM's setting: look for updates at all. */
  enabled(): boolean;
  log: UpdaterLog;
  /** What is online now: a restart asks first while anything is. */
  table(): TableState;
  /** Asks the GM whether to restart now although worlds are online; true to go on. */
  confirmRestart(table: TableState): Promise<boolean>;
  /** The state changed: the tray shows it. */
  changed(state: UpdateState): void;
  /** electron-updater's updater; loaded at the first check by default. */
  loadUpdater?: () => Promise<AppUpdater>;
}

/** How often the app asks itself whether a check is due; the checks themselves are hours apart. */
const DUE_CHECK_EVERY_MS = 10 * 60_000;

async function electronUpdater(): Promise<AppUpdater> {
  return (await import('electron-updater')).default.autoUpdater;
}

export class DesktopUpdates {
  readonly #options: DesktopUpdatesOptions;
  #state: UpdateState;
  #updater: Promise<AppUpdater> | undefined;
  #timers: NodeJS.Timeout[] = [];

  constructor(options: DesktopUpdatesOptions) {
    this.#options = options;
    this.#state = { phase: !options.packaged ? 'unpackaged' : options.enabled() ? 'idle' : 'off' };
  }

  get state(): UpdateState {
    return this.#state;
  }

  /** The first check a minute after start, then every few hours while checks are on. */
  start(): void {
    if (!this.#options.packaged) return;
    this.#timers.push(
      setTimeout(() => void this.checkIfDue(), FIRST_CHECK_DELAY_MS).unref(),
      setInterval(() => void this.checkIfDue(), Math.min(DUE_CHECK_EVERY_MS, CHECK_INTERVAL_MS)).unref(),
    );
  }

  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
  }

  /** The GM turned checks on or off; on, the next check comes at once. */
  enabledChanged(): void {
    if (!this.#options.packaged) return;
    const enabled = this.#options.enabled();
    if (!enabled && this.#state.phase !== 'ready') this.#enter({ phase: 'off' });
    if (enabled && this.#state.phase === 'off') {
      this.#enter({ phase: 'idle' });
      void this.checkIfDue();
    }
  }

  async checkIfDue(now = new Date()): Promise<void> {
    if (!checkDue(this.#state, this.#options.enabled(), this.#options.packaged, now)) return;
    this.#enter({ phase: 'checking', ...this.#checked() });
    try {
      await (await this.#loaded()).checkForUpdates();
    } catch (error) {
      this.#failed(error);
    }
  }

  /** "Restart to update": installs the downloaded update now, asking first while a world is online or kept. */
  async restartToUpdate(): Promise<void> {
    const table = this.#options.table();
    const decision = restartDecision(this.#state, table);
    if (decision === 'unavailable') return;
    if (decision === 'confirm-first' && !(await this.#options.confirmRestart(table))) return;
    this.#options.log.info(`Restarting to install update ${this.#state.version ?? ''}`.trim());
    (await this.#loaded()).quitAndInstall(false, true);
  }

  #loaded(): Promise<AppUpdater> {
    this.#updater ??= (this.#options.loadUpdater ?? electronUpdater)().then((updater) => this.#follow(updater));
    return this.#updater;
  }

  #follow(updater: AppUpdater): AppUpdater {
    updater.autoDownload = true;
    // Only a downloaded, verified update is ever installed, and only when the app quits (or the GM presses Restart).
    updater.autoInstallOnAppQuit = true;
    updater.logger = this.#options.log;
    updater.on('update-available', (info) => this.#enter({ phase: 'downloading', version: info.version, percent: 0 }));
    updater.on('update-not-available', () => this.#enter({ phase: 'up-to-date', ...this.#checkedNow() }));
    updater.on('download-progress', (progress) =>
      this.#enter({ ...this.#state, phase: 'downloading', percent: progress.percent }),
    );
    updater.on('update-downloaded', (info) => {
      this.#enter({ phase: 'ready', version: info.version, ...this.#checkedNow() });
      this.#options.log.info(`Update ${info.version} downloaded: it is installed when Tabletop Relay quits`);
    });
    updater.on('error', (error) => this.#failed(error));
    return updater;
  }

  #failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.#enter(failedState(this.#state, message, new Date()));
    this.#options.log.warn(`Update failed: ${this.#state.error}`);
  }

  #checked(): Pick<UpdateState, 'checkedAt'> {
    return this.#state.checkedAt ? { checkedAt: this.#state.checkedAt } : {};
  }

  #checkedNow(): Pick<UpdateState, 'checkedAt'> {
    return { checkedAt: new Date().toISOString() };
  }

  #enter(state: UpdateState): void {
    this.#state = state;
    this.#options.changed(state);
  }
}
