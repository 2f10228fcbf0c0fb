// `app` from https://www.electronjs.org/docs/latest/api/app: lifecycle events, paths, the single-instance lock.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronEvent, runtime } from './runtime.ts';

interface AppPackage {
  name?: string;
  productName?: string;
  version?: string;
}

function appPackage(): AppPackage {
  const file = join(runtime.appPath, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as AppPackage) : {};
}

/** Linux defaults of app.getPath (the page's table; appData honours XDG_CONFIG_HOME as Chromium does). */
function linuxPaths(name: string): Map<string, string> {
  const home = homedir();
  const appData = process.env.XDG_CONFIG_HOME || join(home, '.config');
  const userData = join(appData, name);
  return new Map([
    ['home', home],
    ['appData', appData],
    ['userData', userData],
    ['sessionData', userData],
    ['temp', tmpdir()],
    ['exe', process.execPath],
    ['module', process.execPath],
    ['desktop', join(home, 'Desktop')],
    ['documents', join(home, 'Documents')],
    ['downloads', join(home, 'Downloads')],
    ['music', join(home, 'Music')],
    ['pictures', join(home, 'Pictures')],
    ['videos', join(home, 'Videos')],
    // app.setAppLogsPath: "On Linux and Windows, the logs will be placed inside your userData directory."
    ['logs', join(userData, 'logs')],
    ['crashDumps', join(userData, 'Crashpad')],
  ]);
}

/** What a second launch sends the first, as Chromium's process singleton does through the socket in the user-data folder. */
interface SecondLaunch {
  argv: string[];
  workingDirectory: string;
  additionalData: unknown;
}

// Run synchronously from requestSingleInstanceLock, which answers only once the first instance has the message.
const NOTIFY_FIRST_INSTANCE = `
const { connect } = require('node:net');
const [socketPath, message] = process.argv.slice(1);
const deadline = Date.now() + 3000;
const attempt = () => {
  const socket = connect(socketPath, () => socket.end(message));
  socket.on('close', (failed) => { if (!failed) process.exit(0); });
  socket.on('error', () => (Date.now() < deadline ? setTimeout(attempt, 25) : process.exit(1)));
};
attempt();`;

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class SingleInstanceLock {
  readonly #lockFile: string;
  readonly #socketPath: string;
  #server: Server | undefined;

  constructor(folder: string) {
    mkdirSync(folder, { recursive: true });
    this.#lockFile = join(folder, 'SingletonLock');
    this.#socketPath = join(folder, 'SingletonSocket');
  }

  /** True when this process now holds the lock; false after telling the holder about this launch. */
  take(onSecondLaunch: (launch: SecondLaunch) => void, additionalData: unknown): boolean {
    if (this.#claim()) {
      rmSync(this.#socketPath, { force: true });
      this.#server = createServer((socket) => {
        let message = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk) => (message += chunk));
        socket.on('end', () => onSecondLaunch(JSON.parse(message) as SecondLaunch));
      }).listen(this.#socketPath);
      return true;
    }
    const launch: SecondLaunch = {
      argv: process.argv,
      workingDirectory: process.cwd(),
      additionalData: additionalData ?? null,
    };
    spawnSync(process.execPath, ['-e', NOTIFY_FIRST_INSTANCE, this.#socketPath, JSON.stringify(launch)], {
      stdio: 'ignore',
    });
    return false;
  }

  release(): void {
    if (!this.#server) return;
    this.#server.close();
    this.#server = undefined;
    rmSync(this.#lockFile, { force: true });
    rmSync(this.#socketPath, { force: true });
  }

  get held(): boolean {
    return this.#server !== undefined;
  }

  #claim(): boolean {
    try {
      writeFileSync(this.#lockFile, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(this.#lockFile, 'utf8'));
    if (processIsAlive(holder)) return false;
    // Left by a process that died: Chromium takes such a lock over.
    rmSync(this.#lockFile, { force: true });
    return this.#claim();
  }
}

export interface LoginItemSettings {
  openAtLogin: boolean;
  openAsHidden?: boolean;
}

class App extends EventEmitter {
  /** macOS only; undefined elsewhere, as in Electron's typings. */
  readonly dock = undefined;
  readonly #ready: Promise<void>;
  #markReady!: () => void;
  #paths: Map<string, string> | undefined;
  #lock: SingleInstanceLock | undefined;
  #name: string | undefined;
  #loginItem: LoginItemSettings = { openAtLogin: false };
  /** Set by web.ts: closes every window (false when one refused), and closes Chromium before the process ends. */
  readonly standInHooks: { closeWindows: () => boolean; beforeExit: () => Promise<void> } = {
    closeWindows: () => true,
    beforeExit: async () => undefined,
  };

  constructor() {
    super();
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
  }

  isReady(): boolean {
    return runtime.ready;
  }

  whenReady(): Promise<void> {
    return this.#ready;
  }

  getName(): string {
    this.#name ??= appPackage().productName ?? appPackage().name ?? 'Electron';
    return this.#name;
  }

  getVersion(): string {
    return appPackage().version ?? '0.0.0';
  }

  /** "true if the app is packaged": the stand-in runs the app from its folder, as `electron .` does, so false. */
  get isPackaged(): boolean {
    return false;
  }

  getAppPath(): string {
    return runtime.appPath;
  }

  getPath(name: string): string {
    this.#paths ??= linuxPaths(this.getName());
    const path = this.#paths.get(name);
    if (!path) throw new Error(`Failed to get '${name}' path`);
    return path;
  }

  setPath(name: string, path: string): void {
    this.#paths ??= linuxPaths(this.getName());
    if (!this.#paths.has(name)) throw new Error(`Failed to set path`);
    this.#paths.set(name, path);
  }

  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    if (this.#lock?.held) return true;
    this.#lock = new SingleInstanceLock(this.getPath('userData'));
    return this.#lock.take(({ argv, workingDirectory, additionalData: data }) => {
      this.emit('second-instance', electronEvent(), argv, workingDirectory, data);
    }, additionalData);
  }

  hasSingleInstanceLock(): boolean {
    return this.#lock?.held ?? false;
  }

  releaseSingleInstanceLock(): void {
    this.#lock?.release();
  }

  /** On Linux Electron keeps no login items (the page marks the API macOS and Windows); the call is recorded. */
  getLoginItemSettings(): LoginItemSettings & { wasOpenedAtLogin: boolean } {
    return { ...this.#loginItem, wasOpenedAtLogin: false };
  }

  setLoginItemSettings(settings: LoginItemSettings): void {
    runtime.loginItems.push(settings);
    if (process.platform !== 'linux') this.#loginItem = { ...settings };
  }

  /**
   * "Try to close all windows. The before-quit event will be emitted first. If all windows are successfully closed,
   * the will-quit event will be emitted and by default the application will terminate." Either event's
   * preventDefault() stops it.
   */
  quit(): void {
    if (runtime.phase === 'quitting') return;
    const beforeQuit = electronEvent();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    if (!this.standInHooks.closeWindows()) return;
    const willQuit = electronEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) return;
    this.emit('quit', electronEvent(), 0);
    this.#terminate(0);
  }

  /** "Exits immediately with exitCode … the before-quit and will-quit events will not be emitted." */
  exit(exitCode = 0): void {
    this.#terminate(exitCode);
  }

  /** Called by launch.ts once the entry has been evaluated. */
  standInReady(): void {
    runtime.phase = 'ready';
    runtime.ready = true;
    this.emit('ready', electronEvent(), {});
    this.#markReady();
  }

  #terminate(exitCode: number): void {
    if (runtime.phase === 'quitting') return;
    runtime.phase = 'quitting';
    this.#lock?.release();
    const giveUp = setTimeout(() => process.exit(exitCode), 3000);
    void this.standInHooks.beforeExit().finally(() => {
      clearTimeout(giveUp);
      process.exit(exitCode);
    });
  }
}

export const app = new App();
