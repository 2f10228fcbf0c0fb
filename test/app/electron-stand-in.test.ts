// The Electron stand-in keeps the contract that real apps trip over (electron-stand-in/electron.ts cites the pages).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LaunchedApp } from './electron-stand-in/client.ts';
import { decodePng } from '../capture/png.ts';

const GREEN = [0, 170, 85];
const WHITE = [255, 255, 255];

const FIXTURES = join(import.meta.dirname, 'electron-stand-in', 'fixtures');
const homes: string[] = [];
const apps: LaunchedApp[] = [];

function start(fixture: string, home = newHome(), args: string[] = []): LaunchedApp {
  const app = new LaunchedApp(
    join(FIXTURES, fixture),
    { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    args,
  );
  apps.push(app);
  return app;
}

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'electron-stand-in-'));
  homes.push(home);
  return home;
}

afterAll(async () => {
  await Promise.all(apps.map((app) => app.kill()));
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('the app lifecycle', () => {
  let lines: string[];
  let exit: Awaited<LaunchedApp['exited']>;
  beforeAll(async () => {
    const app = start('order.mjs');
    exit = await app.exitWithin();
    lines = app.output.trim().split('\n');
  });

  it('emits ready only once the entry, top-level awaits included, has been evaluated', () => {
    expect(lines.indexOf('entry: end')).toBeGreaterThan(-1);
    expect(lines.indexOf('ready event')).toBe(lines.indexOf('entry: end') + 1);
    expect(lines.indexOf('whenReady')).toBe(lines.indexOf('ready event') + 1);
  });

  it('refuses Tray, BrowserWindow, safeStorage and screen before ready, with the errors Electron throws', () => {
    expect(lines.slice(1, 5)).toEqual([
      'Tray: Cannot create Tray before app is ready',
      'BrowserWindow: Cannot create BrowserWindow before app is ready',
      'safeStorage: safeStorage cannot be used before app is ready',
      "screen: The 'screen' module can't be used before the app 'ready' event",
    ]);
    expect(lines.slice(lines.indexOf('whenReady') + 1, lines.indexOf('whenReady') + 5)).toEqual([
      'Tray: ok',
      'BrowserWindow: ok',
      'safeStorage: ok',
      'screen: ok',
    ]);
  });

  it('quits through before-quit (held by preventDefault until quit is called again), will-quit and quit, with exit code 0', () => {
    expect(lines.slice(lines.indexOf('before-quit'))).toEqual(['before-quit', 'before-quit', 'will-quit', 'quit']);
    expect(exit).toEqual({ code: 0, signal: null });
  });
});

describe('the single-instance lock', () => {
  it('is held across processes: a second launch tells the first, then quits with 0', async () => {
    const home = newHome();
    const first = start('lock.mjs', home);
    await first.waitForLine('first');
    const second = start('lock.mjs', home, ['--from-second']);
    expect(await second.exitWithin()).toEqual({ code: 0, signal: null });
    expect(second.output).toBe('second\n');
    await first.waitForLine(`second-instance --from-second {"pid":${second.pid}}`);
  });

  it('is taken over from a copy that died without releasing it', async () => {
    const home = newHome();
    const userData = join(home, '.config', 'Electron');
    mkdirSync(userData, { recursive: true });
    const dead = start('order.mjs');
    await dead.exited;
    writeFileSync(join(userData, 'SingletonLock'), String(dead.pid));
    await start('lock.mjs', home).waitForLine('first');
  });
});

describe('a window with a sandboxed, context-isolated preload', () => {
  let app: LaunchedApp;
  let windowId: number;
  const page = (expression: string) => app.call('evaluate', windowId, expression);

  beforeAll(async () => {
    app = start('windows.mjs');
    await app.waitForLine('loaded', 10_000);
    windowId = (await app.state()).windows[0]!.id;
  });
  afterEach(() => expect(app.output).not.toContain('Error'));

  it('loads the page in Chromium and says ready-to-show once it has rendered', async () => {
    expect(await page('document.getElementById("text").textContent')).toBe('hello');
    expect(app.output).toContain('ready-to-show\n');
  });

  it('gives the page the exposed API and nothing else: no require, process, ipcRenderer or stand-in internals', async () => {
    expect(await page('Object.keys(window.bridge)')).toEqual(['ping', 'add', 'nodeRequire', 'nested']);
    expect(await page('Object.isFrozen(window.bridge)')).toBe(true);
    const globals = [
      'require',
      'process',
      'ipcRenderer',
      'module',
      '__electronStandInIpc',
      '__electronStandInIpcReply',
    ];
    expect(await page(`${JSON.stringify(globals)}.map((name) => typeof window[name])`)).toEqual(
      globals.map(() => 'undefined'),
    );
  });

  it('calls across worlds: plain values at once, ipcRenderer.invoke through ipcMain.handle with the sender frame', async () => {
    expect(await page('window.bridge.add(2, 3)')).toBe(5);
    expect(await page('window.bridge.ping("x")')).toBe('pong x from /page');
    expect(await page('window.bridge.nested.fail().catch((error) => error.message)')).toBe(
      "Error invoking remote method 'no-such-channel': Error: No handler registered for 'no-such-channel'",
    );
  });

  it('gives a sandboxed preload no Node modules', async () => {
    expect(await page('window.bridge.nodeRequire')).toBe('refused');
  });

  it('quits when the last window closes and the app does not listen for window-all-closed', async () => {
    await app.call('closeWindow', windowId);
    expect(await app.exitWithin()).toEqual({ code: 0, signal: null });
  });
});

describe('an offscreen window, as main/capture drives it', () => {
  const outcomes = new Map<string, any>();
  let zoomedPng: Buffer;
  beforeAll(async () => {
    const app = start('offscreen.mjs');
    await app.waitForLine('done 0', 15_000);
    for (const line of app.output.trim().split('\n')) {
      const [name, value] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
      if (name === 'zoomedPng') zoomedPng = Buffer.from(value, 'base64');
      else outcomes.set(name, JSON.parse(value));
    }
  }, 20_000);

  it('executeJavaScript waits for the page to load and evaluates in its main world', () => {
    expect(outcomes.get('early')).toEqual({ resolved: 42 });
    expect(outcomes.get('mainWorld')).toEqual({ resolved: 'number' });
  });

  it('executeJavaScript resolves with a structured clone of the awaited result', () => {
    expect(outcomes.get('value')).toEqual({
      resolved: { n: 1.5, s: 'x', list: [1, null, null], nested: { ok: true } },
    });
    expect(outcomes.get('awaited')).toEqual({ resolved: 'later' });
    expect(outcomes.get('map')).toEqual({ resolved: ['Map', ['a', 1]] });
    expect(outcomes.get('date')).toEqual({ resolved: ['Date', '1970-01-01T00:00:00.000Z'] });
  });

  it('executeJavaScript rejects on a thrown error, a rejected promise and a result that cannot be cloned', () => {
    expect(outcomes.get('thrown')).toEqual({ rejected: 'boom' });
    expect(outcomes.get('rejected')).toEqual({ rejected: 'refused' });
    expect(outcomes.get('unclonable')).toEqual({ rejected: 'An object could not be cloned.' });
  });

  it('capturePage gives the visible page, or the rect, in pixels of the display (scale factor 1), and refuses a fractional rect', () => {
    expect(outcomes.get('whole')).toEqual({ size: { width: 400, height: 300 }, signature: 'PNG' });
    expect(outcomes.get('box')).toEqual({ size: { width: 100, height: 60 }, signature: 'PNG' });
    expect(outcomes.get('fractional')).toEqual({
      rejected: 'Error processing argument at index 0, conversion failure from [object Object]',
    });
  });

  it('setZoomFactor(2) lays the page out in half the DIPs at twice the pixel ratio, and capturePage renders it sharp', () => {
    expect(outcomes.get('zoomedPage')).toEqual({ resolved: [2, 400, 300] });
    expect(outcomes.get('zoomedArea')).toEqual({ size: { width: 240, height: 160 }, signature: 'PNG' });
    const image = decodePng(zoomedPng);
    // The 100 × 60 box at (10, 10) covers pixels 20 to 219 across and 20 to 139 down, with hard edges.
    expect([image.pixel(20, 20), image.pixel(219, 139)]).toEqual([GREEN, GREEN]);
    expect([image.pixel(19, 50), image.pixel(220, 50), image.pixel(50, 19), image.pixel(50, 140)]).toEqual([
      WHITE,
      WHITE,
      WHITE,
      WHITE,
    ]);
  });

  it('nativeImage encodes JPEG with the quality asked for and resizes keeping the aspect ratio', () => {
    expect(outcomes.get('jpeg')).toEqual({ soi: 'ffd8ff', smaller: true });
    expect(outcomes.get('resized')).toEqual({ size: { width: 100, height: 67 }, signature: 'PNG' });
  });

  it('gives each in-memory partition a session of its own, shared by windows of the same partition', () => {
    expect(outcomes.get('otherPartition')).toEqual({ resolved: null });
    expect(outcomes.get('samePartition')).toEqual({ resolved: 'set' });
  });

  it('says render-process-gone when the renderer crashes, which main/capture takes as the page dying', () => {
    expect(outcomes.get('renderProcessGone')).toBe('crashed');
    expect(outcomes.get('done')).toBe(0);
  });
});
