// The compiled desktop app under test, on the Electron stand-in (electron-stand-in/, here and by default) or on the real
// Electron binary (TABLETOP_RELAY_ELECTRON=real, in the hosted CI's boot job on Linux, Windows and macOS). Both are
// driven only as a GM's computer drives the app: started, started again, started again with --quit; what they show is
// read from the app's own log, the relay's port and the settings window's page.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { LaunchedApp, type Exit } from './electron-stand-in/client.ts';
import type { Home } from './boot-support.ts';

export type { Exit };

/** Which Electron the tests drive: the stand-in unless TABLETOP_RELAY_ELECTRON=real. */
export const ELECTRON_UNDER_TEST = process.env.TABLETOP_RELAY_ELECTRON === 'real' ? 'real' : 'stand-in';

export interface SettingsPage {
  url: string;
  /** The settings UI shows its pages: the one-time link signed the window in. */
  signedIn: boolean;
}

export interface DesktopRun {
  /** What the app printed. */
  output(): string;
  /** The app's own log file (<user data>/logs on Linux; the app names its folder on every system). */
  log(): string;
  /** Starts the app a second time with these arguments, as a GM or an installer does; how that second copy exited. */
  startAgain(args?: string[]): Promise<Exit>;
  /** The settings window's page, once the app shows one. */
  settingsPage(): Promise<SettingsPage | undefined>;
  readonly exited: Promise<Exit>;
  kill(): Promise<void>;
}

/** The log files of the app's run, newest last, as main/logger.ts writes them. */
function logText(home: Home): string {
  const folders = [join(home.userData, 'logs'), join(home.home, 'Library', 'Logs', 'Tabletop Relay')];
  return folders
    .flatMap((folder) => {
      try {
        return readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'));
      } catch {
        return [];
      }
    })
    .join('\n');
}

export function startDesktopApp(appFolder: string, home: Home): DesktopRun {
  return ELECTRON_UNDER_TEST === 'real' ? realElectron(appFolder, home) : standIn(appFolder, home);
}

function standIn(appFolder: string, home: Home): DesktopRun {
  const app = new LaunchedApp(appFolder, home.env);
  return {
    output: () => app.output,
    log: () => logText(home),
    startAgain: (args = []) => new LaunchedApp(appFolder, home.env, args).exitWithin(10_000),
    async settingsPage() {
      const window = (await app.state()).windows.find((candidate) => candidate.url.includes('/admin/'));
      if (!window) return undefined;
      const signedIn = await app.call('evaluate', window.id, "document.querySelector('.sidebar') !== null");
      return { url: window.url, signedIn: signedIn === true };
    },
    exited: app.exited,
    kill: () => app.kill(),
  };
}

/** The binary the `electron` package installed (its main module names it). */
function electronBinary(): string {
  return createRequire(import.meta.url)('electron') as unknown as string;
}

function realElectron(appFolder: string, home: Home): DesktopRun {
  // A remote-debugging port lets the test read the settings window's page; it is Chromium's switch, which Electron's
  // fuses leave alone, and only the test passes it. Linux CI runners refuse Chromium's sandbox to unprivileged users.
  const switches = ['--remote-debugging-port=0', ...(process.platform === 'linux' ? ['--no-sandbox'] : [])];
  const launch = (args: string[]): ChildProcess =>
    spawn(electronBinary(), [appFolder, ...switches, ...args], { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const first = launch([]);
  let output = '';
  for (const stream of [first.stdout!, first.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk));
  const exitOf = (child: ChildProcess) =>
    new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const exited = exitOf(first);
  const devtools = () => /DevTools listening on (ws:\/\/\S+)/.exec(output)?.[1];
  return {
    output: () => output,
    log: () => logText(home),
    startAgain: (args = []) => exitOf(launch(args)),
    async settingsPage() {
      const endpoint = devtools();
      if (!endpoint) return undefined;
      const { default: puppeteer } = await import('puppeteer-core');
      const browser = await puppeteer.connect({ browserWSEndpoint: endpoint, defaultViewport: null });
      try {
        const page = (await browser.pages()).find((candidate) => candidate.url().includes('/admin/'));
        if (!page) return undefined;
        const signedIn = await page.evaluate(() => document.querySelector('.sidebar') !== null);
        return { url: page.url(), signedIn };
      } finally {
        await browser.disconnect();
      }
    },
    exited,
    async kill() {
      if (first.exitCode === null && first.signalCode === null) first.kill();
      await exited;
    },
  };
}
