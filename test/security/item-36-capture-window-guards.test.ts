// Item 36 (b): the desktop app renders sheets in offscreen windows signed in to Foundry as the capture user or a GM, and
// those windows had none of the settings window's guards (the one true finding of Electron's static analyser,
// electronegativity): a page there could open windows, go to any address or be redirected to one, and get any
// permission. Each capture window now shows its Foundry's origin only. Run on the Electron stand-in (test/app/), whose
// windows are pages of a real Chromium and which fires will-navigate and will-redirect as Electron does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserPage } from '../../relay/capture/browser.ts';

vi.mock('electron', () => import('../app/electron-stand-in/electron.ts'));
const { app } = await import('../app/electron-stand-in/app.ts');
const { BrowserWindow } = await import('../app/electron-stand-in/web.ts');
const { electronEvent } = await import('../app/electron-stand-in/runtime.ts');
const { electronLauncher } = await import('../../main/capture/electron-browser.ts');

/** A web server that answers every path with a small page (or a redirect, for /redirect?to=) and counts its visits. */
async function serve(name: string): Promise<{ origin: string; visits: string[]; server: Server }> {
  const visits: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    visits.push(url.pathname);
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) response.writeHead(302, { location: to }).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${name}</title>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, visits, server };
}

let foundry: Awaited<ReturnType<typeof serve>>;
let stranger: Awaited<ReturnType<typeof serve>>;
let browser: Browser;
let page: BrowserPage;
let captureWindow: InstanceType<typeof BrowserWindow>;

beforeAll(async () => {
  app.standInReady();
  // The desktop app keeps running with no window open; without a listener the stand-in would quit, as Electron does.
  app.on('window-all-closed', () => {});
  [foundry, stranger] = await Promise.all([serve('Foundry'), serve('Elsewhere')]);
  browser = await electronLauncher()();
  page = await browser.openPage();
  captureWindow = BrowserWindow.getAllWindows().at(-1)!;
  await page.goto(`${foundry.origin}/join`, 10_000);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await app.standInHooks.beforeExit();
  foundry?.server.close();
  stranger?.server.close();
});

const location = () => page.evaluate(() => window.location.href, undefined);

/** Lets the page start a navigation, then waits until it has settled (a refused one leaves the page where it was). */
async function pageGoesTo(url: string): Promise<void> {
  await page.evaluate((target) => void setTimeout(() => (window.location.href = target)), url);
  await new Promise((resolve) => setTimeout(resolve, 500));
}

describe('item 36: a desktop capture window shows its Foundry and nothing else', () => {
  it('follows links within its Foundry', async () => {
    await pageGoesTo(`${foundry.origin}/game`);
    expect(await location()).toBe(`${foundry.origin}/game`);
  });

  it('does not go to another address: the request never leaves', async () => {
    await pageGoesTo(`${stranger.origin}/steal?token=…`);
    expect(stranger.visits).not.toContain('/steal');
    expect(await location()).toBe(`${foundry.origin}/game`);
  });

  it('is not redirected to another address by its Foundry', async () => {
    await pageGoesTo(`${foundry.origin}/redirect?to=${encodeURIComponent(`${stranger.origin}/landing`)}`);
    expect(foundry.visits).toContain('/redirect');
    expect(stranger.visits).not.toContain('/landing');
    expect(await location()).toBe(`${foundry.origin}/game`);
  });

  it('opens no window', async () => {
    const context = await captureWindow.webContents.session.standInContext();
    const before = (await context.pages()).length;
    await page.evaluate((target) => void window.open(target), `${foundry.origin}/popup`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await context.pages()).length).toBe(before);
  });

  it('grants no permission and attaches no webview', () => {
    const handler = captureWindow.webContents.session.permissionRequestHandler;
    expect(handler).not.toBeNull();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | undefined;
      handler!(captureWindow.webContents, permission, (answer) => (granted = answer), {});
      expect(granted, permission).toBe(false);
    }
    const attach = electronEvent();
    captureWindow.webContents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('is not sent elsewhere by the relay either', async () => {
    await expect(page.goto(`${stranger.origin}/join`, 5000)).rejects.toThrow(/stays on its Foundry/);
    expect(stranger.visits).not.toContain('/join');
  });
});
