// The compiled desktop app, started as Electron starts it (electron-stand-in/), used through its tray as a GM would.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, exchangePairingCode, type SandboxLink } from '../../sandbox/index.ts';
import type { LaunchedApp } from './electron-stand-in/client.ts';
import { compiledCli } from '../harness/cli.ts';
import type { StandInState, TrayView } from './electron-stand-in/control.ts';
import { transform } from 'esbuild';
import {
  adminToken,
  buildPrivateApp,
  freePort,
  freshHome,
  launch,
  presetPort,
  removeHome,
  ROOT,
  type Home,
} from './boot-support.ts';

const BOOT_DEADLINE_MS = 5000;
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

let appFolder: string;
beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  appFolder = await buildPrivateApp();
}, 60_000);
afterAll(() => rmSync(appFolder, { recursive: true, force: true }));

function theTray(state: StandInState): TrayView | undefined {
  return state.trays.length === 1 ? state.trays[0] : undefined;
}

/** The tray, once it shows this icon (assets/tray/<name>.png, a real PNG). */
function trayShowing(icon: string) {
  return (state: StandInState) => {
    const tray = theTray(state);
    return tray && !tray.imageEmpty && tray.image?.endsWith(join('tray', `${icon}.png`)) ? tray : undefined;
  };
}

async function request(url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

describe('the desktop app, started as Electron starts it', () => {
  let home: Home;
  let app: LaunchedApp;
  let relayUrl: string;
  let admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  let link: SandboxLink | undefined;

  beforeAll(async () => {
    home = freshHome();
    const port = await freePort();
    presetPort(home, port);
    relayUrl = `http://127.0.0.1:${port}`;
    app = launch(appFolder, home);
    admin = (method, path, body) =>
      request(`${relayUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken(home)}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
  });

  afterAll(async () => {
    await link?.close();
    await app.kill();
    removeHome(home);
  });

  it('shows the idle tray icon within seconds, with the relay answering', async () => {
    const started = Date.now();
    const tray = await app.waitFor('the idle tray icon', trayShowing('tray-idle'), BOOT_DEADLINE_MS);
    expect(Date.now() - started).toBeLessThan(BOOT_DEADLINE_MS);
    expect(tray.toolTip).toBe('Tabletop Relay: no world connected');
    expect(tray.menu.map((item) => item.label)).toContain('Quit Tabletop Relay');
    const status = await request(`${relayUrl}/api/status`);
    expect(status).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('shows the connected icon once a sandbox world links', async () => {
    const { body } = await admin('POST', '/admin/pairing-codes', {});
    const world = createSandboxWorld({ seed: 7 });
    const paired = await exchangePairingCode(world, { httpBase: relayUrl, code: body.code });
    link = await connectSandbox(world, {
      relayUrl: relayUrl.replace(/^http/, 'ws'),
      clientId: paired.clientId,
      token: paired.token,
    });
    const tray = await app.waitFor('the connected tray icon', trayShowing('tray-connected'));
    expect(tray.toolTip).toBe(`Tabletop Relay: ${world.metadata.worldTitle} connected`);
  });

  it('copies the local URL, and with LAN access on the LAN URL, to the clipboard', async () => {
    await app.call('clickMenuItem', 'Copy local URL');
    expect((await app.state()).clipboard).toBe(relayUrl);

    expect((await admin('PATCH', '/admin/settings', { lanAccess: true })).status).toBe(200);
    const lanUrls: string[] = (await admin('GET', '/admin/status')).body.lan.urls;
    const item = await app.waitFor('the Copy LAN URL item', (state) =>
      theTray(state)?.menu.find((entry) => entry.label === 'Copy LAN URL'),
    );
    // A computer without a LAN address offers the item disabled.
    expect(item.enabled).toBe(lanUrls.length > 0);
    if (item.enabled) {
      await app.call('clickMenuItem', 'Copy LAN URL');
      expect((await app.state()).clipboard).toBe(lanUrls[0]);
    }
    expect((await admin('PATCH', '/admin/settings', { lanAccess: false })).status).toBe(200);
  });

  it('opens the settings window signed in, with the desktop bridge and nothing more', async () => {
    await app.call('clickMenuItem', 'Open settings…');
    const window = await app.waitFor('a visible settings window', (state) =>
      state.windows.find(
        (candidate) =>
          candidate.visible && candidate.focused && new URL(candidate.url || 'about:blank').pathname === '/admin/',
      ),
    );
    expect(new URL(window.url).origin).toBe(relayUrl);
    const page = async (expression: string) => app.call('evaluate', window.id, expression);
    const text = await waitForPageText(app, window.id, 'Running · 1 world');
    expect(text).not.toContain('no longer signed in');
    await app.call('screenshot', window.id, join(SCREENSHOTS, 'settings-window-status.png'));

    // The preload's bridge reaches the page through contextBridge; Node and ipcRenderer do not.
    expect(await page('typeof window.tabletopRelayDesktop.appInfo')).toBe('function');
    expect(await page('[typeof require, typeof process, typeof ipcRenderer]')).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
    expect(await page('window.tabletopRelayDesktop.appInfo().then((info) => info.version)')).toBe(
      JSON.parse(readFileSync(join(appFolder, 'package.json'), 'utf8')).version,
    );
    await page(`location.hash = '#access'`);
    await waitForPageText(app, window.id, 'This computer');
    await page(`document.getElementById('desktop-title').scrollIntoView()`);
    await app.call('screenshot', window.id, join(SCREENSHOTS, 'settings-window-access.png'));
  });

  it('pauses and resumes the relay: API calls answer 503, then 200', async () => {
    const { body } = await admin('POST', '/admin/keys', { name: 'boot test', scopes: ['clients:read'] });
    const clients = () => request(`${relayUrl}/clients`, { headers: { 'x-api-key': body.key } });
    expect((await clients()).status).toBe(200);
    await app.call('clickMenuItem', 'Pause relay');
    expect((await clients()).status).toBe(503);
    await app.waitFor('the Resume item', (state) => theTray(state)?.menu.some((item) => item.label === 'Resume relay'));
    await app.call('clickMenuItem', 'Resume relay');
    expect((await clients()).status).toBe(200);
  });

  it("raises a notification and the tray's badge for a tool's key request; the click opens the settings on it", async () => {
    const asked = await request(`${relayUrl}/auth/key-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'Stream Deck', scopes: ['roll:execute'] }),
    });
    expect(asked.status).toBe(201);
    const code: string = asked.body.code;
    const title = 'Stream Deck asks for an API key';
    const shown = await app.waitFor('the notification', (state) =>
      state.notifications.find((notice) => notice.title === title && !notice.closed),
    );
    expect(shown.body).toBe(`Open Tabletop Relay to approve it. The tool shows the code ${code}.`);
    const tray = await app.waitFor('the waiting tray icon', trayShowing('tray-waiting'));
    expect(tray.toolTip).toMatch(/ connected · 1 key request waiting$/);
    expect(tray.menu.map((item) => item.label)).toContain(`    Stream Deck · ${code}`);

    await app.call('clickNotification', title);
    const window = await app.waitFor('the settings window on the request', (state) =>
      state.windows.find(
        (candidate) => candidate.visible && candidate.focused && candidate.url.endsWith(`#status/key-request/${code}`),
      ),
    );
    const focused = `document.activeElement?.dataset.code`;
    const deadline = Date.now() + 5000;
    while ((await app.call('evaluate', window.id, focused)) !== code && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await app.call('evaluate', window.id, focused)).toBe(code);
    await app.call('screenshot', window.id, join(SCREENSHOTS, 'settings-window-key-request.png'));

    await app.call('evaluate', window.id, `document.activeElement.querySelector('[data-action="deny"]').click()`);
    await app.waitFor('the notification taken down', (state) =>
      state.notifications.every((notice) => notice.title !== title || notice.closed),
    );
    await app.waitFor('the connected tray icon', trayShowing('tray-connected'));
    // Shown once, however often the status changed while the request waited.
    expect((await app.state()).notifications.filter((notice) => notice.title === title)).toHaveLength(1);
  });

  it('writes the XDG autostart entry for Start at login, and removes it again', async () => {
    const entry = join(home.configHome, 'autostart', 'tabletop-relay.desktop');
    await app.call('clickMenuItem', 'Start at login');
    expect(readFileSync(entry, 'utf8')).toContain(`Exec="${process.execPath}"`);
    await app.waitFor('the checked Start at login item', (state) =>
      theTray(state)?.menu.some((item) => item.label === 'Start at login' && item.checked),
    );
    await app.call('clickMenuItem', 'Start at login');
    expect(existsSync(entry)).toBe(false);

    // The settings window's switch goes through the preload's bridge to the same place.
    const [window] = (await app.state()).windows;
    await app.call('evaluate', window!.id, `location.hash = '#access'`);
    await waitForPageText(app, window!.id, 'This computer');
    await app.call('evaluate', window!.id, `document.getElementById('start-at-login').click()`);
    await app.waitFor('the checked Start at login item', (state) =>
      theTray(state)?.menu.some((item) => item.label === 'Start at login' && item.checked),
    );
    expect(existsSync(entry)).toBe(true);
    await app.call('clickMenuItem', 'Start at login');
  });

  it('has Check for updates on by default; unticked, it stays off across starts (a build from the sources checks nothing)', async () => {
    const storeFile = join(home.userData, 'settings.json');
    const checked = (state: StandInState) =>
      theTray(state)?.menu.find((item) => item.label === 'Check for updates')?.checked;
    expect(await app.waitFor('the Check for updates item', (state) => checked(state))).toBe(true);
    await app.call('clickMenuItem', 'Check for updates');
    await app.waitFor('the unticked Check for updates item', (state) => checked(state) === false);
    expect(JSON.parse(readFileSync(storeFile, 'utf8'))).toMatchObject({ checkForUpdates: false });
    expect(app.output).not.toMatch(/update/i);
    await app.call('clickMenuItem', 'Check for updates');
    await app.waitFor('the ticked Check for updates item', (state) => checked(state) === true);
    const shown = await app.call('screenshotTrayMenu', join(SCREENSHOTS, 'tray-menu.png'));
    expect(shown).toContain('✓ Check for updates');
    // The world's system is named with an `&`, which the tray doubles so Electron shows it once.
    expect(shown).toContainEqual(expect.stringMatching(/^\s*Dungeons & Dragons Fifth Edition .* \(greyed\)$/));
    expect(shown.filter((line) => /update/i.test(line))).toEqual(['✓ Check for updates']);
  });

  it('brings the first copy forward when started again; the second copy exits', async () => {
    for (const window of (await app.state()).windows) await app.call('closeWindow', window.id);
    expect((await app.state()).windows).toEqual([]);
    const second = launch(appFolder, home);
    expect(await second.exitWithin()).toEqual({ code: 0, signal: null });
    await app.waitFor('the settings window of the first copy', (state) =>
      state.windows.some((window) => window.visible && window.focused),
    );
    expect(second.output).toBe('');
  });

  it('quits from the menu: the relay closes and the process exits with 0', async () => {
    await link?.close();
    link = undefined;
    expect((await app.state()).uncaught).toEqual([]);
    // The app may be gone before it answers the click.
    await app.call('clickMenuItem', 'Quit Tabletop Relay').catch(() => undefined);
    expect(await app.exitWithin()).toEqual({ code: 0, signal: null });
    await expect(fetch(`${relayUrl}/api/status`)).rejects.toThrow();
  });
});

async function waitForPageText(app: LaunchedApp, windowId: number, text: string): Promise<string> {
  const deadline = Date.now() + 5000;
  let seen = '';
  while (Date.now() < deadline) {
    seen = String(await app.call('evaluate', windowId, 'document.body.innerText'));
    if (seen.includes(text)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the settings window never showed "${text}"; it shows:\n${seen}`);
}

describe('the desktop app on a taken port', () => {
  let home: Home;
  let app: LaunchedApp;
  let squatter: Server;
  let taken: number;

  beforeAll(async () => {
    home = freshHome();
    squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    taken = (squatter.address() as { port: number }).port;
    presetPort(home, taken);
    app = launch(appFolder, home);
  });

  afterAll(async () => {
    await app.kill();
    squatter.close();
    removeHome(home);
  });

  it('listens on the next free port instead, says so in the tray, and keeps that port when asked', async () => {
    const tray = await app.waitFor('the tray', trayShowing('tray-idle'), BOOT_DEADLINE_MS);
    const { port } = tray.toolTip.match(/^Tabletop Relay on port (?<port>\d+): port \d+ was in use$/)?.groups ?? {};
    expect(tray.toolTip).toBe(`Tabletop Relay on port ${port}: port ${taken} was in use`);
    expect(tray.menu.map((item) => item.label)).toContain(`Port ${taken} was in use: listening on ${port}`);
    const relayUrl = `http://127.0.0.1:${port}`;
    expect((await request(`${relayUrl}/api/status`)).status).toBe(200);
    await app.call('clickMenuItem', 'Copy local URL');
    expect((await app.state()).clipboard).toBe(relayUrl);

    await app.call('clickMenuItem', `Keep port ${port}`);
    await app.waitFor(
      'the tray without the port notice',
      (state) => theTray(state)?.toolTip === 'Tabletop Relay: no world connected',
    );
    const settings = await request(`${relayUrl}/admin/settings`, {
      headers: { authorization: `Bearer ${adminToken(home)}` },
    });
    expect(settings.body.port).toBe(Number(port));
    expect((await app.state()).uncaught).toEqual([]);
  });
});

describe('the desktop app when it cannot start', () => {
  it('says so in a dialog and the log, and exits with 1 instead of running without a tray', async () => {
    const home = freshHome();
    // The relay's data folder is a file: the relay cannot keep its admin token.
    mkdirSync(home.userData, { recursive: true });
    writeFileSync(join(home.userData, 'relay'), 'not a folder');
    const app = launch(appFolder, home);
    try {
      expect(await app.exitWithin()).toEqual({ code: 1, signal: null });
      expect(app.output).toContain('Tabletop Relay could not start');
      expect(app.output).not.toContain('Unhandled promise rejection');
      expect(readFileSync(join(home.userData, 'logs', 'main.log'), 'utf8')).toContain('ERROR The app could not start');
    } finally {
      removeHome(home);
    }
  });
});

describe('the desktop app beside serve', () => {
  it("when serve was given the app's data folder, says which process holds it in a dialog and exits with 1", async () => {
    const home = freshHome();
    const dataDir = join(home.userData, 'relay');
    const port = await freePort();
    const serve = spawn(process.execPath, [
      await compiledCli(),
      'serve',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
    ]);
    let served = '';
    serve.stdout.on('data', (chunk: Buffer) => (served += chunk.toString()));
    try {
      await expect.poll(() => served, { timeout: 15_000 }).toContain('Press Ctrl+C');
      const app = launch(appFolder, home);
      expect(await app.exitWithin()).toEqual({ code: 1, signal: null });
      expect(app.output).toContain('Tabletop Relay could not start');
      expect(app.output).toContain(
        `Another Tabletop Relay (npm run serve, process ${serve.pid}, at http://127.0.0.1:${port}) already uses the data directory ${dataDir}. Stop it, then start Tabletop Relay again`,
      );
    } finally {
      serve.kill();
      removeHome(home);
    }
  });
});

/** main/index.ts as it was before the app learned to boot: it awaited `ready` at its top level. */
const ENTRY_THAT_AWAITED_READY = '40085a8';

/** That entry, compiled next to today's compiled main, or undefined when this clone lacks the history. */
async function compiledEntryFromHistory(): Promise<string | undefined> {
  let source: string;
  try {
    source = execFileSync('git', ['show', `${ENTRY_THAT_AWAITED_READY}:main/index.ts`], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch {
    return undefined;
  }
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'es2023' });
  const file = join(appFolder, 'dist', 'app', 'main', 'index-awaiting-ready.js');
  writeFileSync(file, code.replace(/from (['"])(\.{1,2}\/[^'"]+)\.ts\1/g, 'from $1$2.js$1'));
  return file;
}

describe.concurrent('the boot test has teeth', () => {
  async function expectNoBoot(entry: string): Promise<void> {
    const home = freshHome();
    const app = launch(entry, home);
    try {
      await expect(app.waitFor('the idle tray icon', trayShowing('tray-idle'), BOOT_DEADLINE_MS)).rejects.toThrow(
        `Timed out after ${BOOT_DEADLINE_MS} ms waiting for the idle tray icon`,
      );
      // Not a crash: the entry is still being evaluated, so Electron never emits `ready`.
      const { phase, loadError } = await app.state();
      expect(loadError ?? phase).toBe('evaluating');
    } finally {
      await app.kill();
      removeHome(home);
    }
  }

  it('an entry that awaits ready at its top level never shows a tray', async () => {
    await expectNoBoot(join(import.meta.dirname, 'electron-stand-in', 'fixtures', 'top-level-await.mjs'));
  });

  it('the entry main/index.ts had before it stopped awaiting ready never shows a tray', async (context) => {
    const entry = await compiledEntryFromHistory();
    if (!entry) context.skip('this clone has no history to take that entry from');
    await expectNoBoot(entry!);
  });
});
