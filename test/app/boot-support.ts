// What the boot tests share: a private build of the desktop app, laid out as the packaged app is (package.json,
// assets, dist/app), and a home folder of its own for each launch.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../scripts/build.ts';
import { LaunchedApp } from './electron-stand-in/client.ts';
export { freePort } from '../harness/ports.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Builds the app into a folder of its own inside the repository (so its imports find node_modules), never into
 * dist/app, which other tests rebuild meanwhile. Returns the app folder, as `electron <folder>` takes it.
 */
export async function buildPrivateApp(): Promise<string> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const folder = mkdtempSync(join(ROOT, 'dist', 'boot-test-'));
  try {
    await buildApp(join(folder, 'dist', 'app'));
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  cpSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  symlinkSync(join(ROOT, 'assets'), join(folder, 'assets'));
  return folder;
}

export interface Home {
  home: string;
  configHome: string;
  /** Electron's userData on Linux: $XDG_CONFIG_HOME/<app name>. */
  userData: string;
  env: NodeJS.ProcessEnv;
}

/** Where Electron puts an app's userData on each system (https://www.electronjs.org/docs/latest/api/app#appgetpathname). */
function userDataIn(home: string, configHome: string, appData: string): string {
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'tabletop-relay');
  if (process.platform === 'win32') return join(appData, 'tabletop-relay');
  return join(configHome, 'tabletop-relay');
}

export function freshHome(): Home {
  const home = mkdtempSync(join(tmpdir(), 'tabletop-relay-boot-'));
  const configHome = join(home, '.config');
  const appData = join(home, 'AppData', 'Roaming');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: configHome,
    APPDATA: appData,
    LOCALAPPDATA: join(home, 'AppData', 'Local'),
  };
  delete env.APPIMAGE;
  return { home, configHome, userData: userDataIn(home, configHome, appData), env };
}

/** Sets the port the app's relay starts on, in the relay's settings (its data folder inside userData). */
export function presetPort(home: Home, port: number): void {
  mkdirSync(join(home.userData, 'relay'), { recursive: true });
  writeFileSync(join(home.userData, 'relay', 'settings.json'), JSON.stringify({ port }));
}

export function removeHome(home: Home): void {
  rmSync(home.home, { recursive: true, force: true });
}

export function launch(target: string, home: Home): LaunchedApp {
  return new LaunchedApp(target, home.env);
}

export function adminToken(home: Home): string {
  return (JSON.parse(readFileSync(join(home.userData, 'relay', 'admin-token'), 'utf8')) as { token: string }).token;
}

/** The admin API of the app's relay, with the admin token from its data folder, as a script of the GM's calls it. */
export function adminApi(home: Home, relayUrl: string): (method: string, path: string, body?: unknown) => Promise<any> {
  return async (method, path, body) => {
    const response = await fetch(`${relayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken(home)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
}
