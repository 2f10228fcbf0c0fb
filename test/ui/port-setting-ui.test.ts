// The port on the Access page of the settings UI, in real Chromium: the relay moves and the page follows it signed in;
// a taken port changes nothing; a start on a taken port says which port the relay took and the GM can keep it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, type Relay } from '../../relay/relay.ts';
import { buildRenderer, RENDERER_OUT } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { freePort, heldPort } from '../harness/ports.ts';
import { openPage } from './browser-page.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const cleanups: (() => Promise<void> | void)[] = [];

async function portHeld(): Promise<number> {
  const { port, release } = await heldPort();
  cleanups.push(release);
  return port;
}
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  browser = await launchChromium();
  cleanups.push(() => browser.close());
}, 30_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A relay whose stored port is `port`, started as the desktop app starts it. */
async function relayOn(port: number): Promise<Relay> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-port-ui-'));
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ port }));
  const relay = createRelay({
    dataDir,
    nextFreePortIfTaken: true,
    capture: false,
    log: { info() {}, warn() {}, error() {} },
    settingsUi: { dir: RENDERER_OUT },
  });
  cleanups.push(async () => {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await relay.start();
  return relay;
}

async function accessPage(relay: Relay): Promise<Page> {
  const page = await openPage(browser, relay.createAdminLoginUrl(), { width: 1024, height: 900 });
  await page.click('a[data-page="access"]');
  await page.waitForSelector('#relay-port');
  await page.waitForFunction(
    (port) => (document.querySelector('#relay-port') as HTMLInputElement).value === String(port),
    {},
    relay.port,
  );
  return page;
}

async function typePort(page: Page, port: number): Promise<void> {
  await page.click('#relay-port', { count: 3 });
  await page.type('#relay-port', String(port));
  await page.click('form[aria-labelledby="port-title"] button[type="submit"]');
}

const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

describe('the port on the Access page', () => {
  it('moves the relay, and the page follows it there still signed in, with the module URL to set', async () => {
    const relay = await relayOn(await freePort());
    const page = await accessPage(relay);
    expect(await bodyText(page)).toContain(
      `The Foundry module's relay URL must match: ws://127.0.0.1:${relay.port}/relay`,
    );
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.screenshot({ path: join(SCREENSHOTS, 'access-port.png') });
    const newPort = await freePort();

    await typePort(page, newPort);

    await page.waitForFunction((port) => location.port === String(port), {}, newPort);
    expect(relay.port).toBe(newPort);
    await page.waitForSelector('.sidebar');
    await page.click('a[data-page="access"]');
    await page.waitForFunction((url) => document.body.innerText.includes(url), {}, `ws://127.0.0.1:${newPort}/relay`);
    await page.close();
  }, 20_000);

  it('says a taken port is in use and stays where it was', async () => {
    const relay = await relayOn(await freePort());
    const page = await accessPage(relay);
    const oldPort = relay.port;
    const taken = await portHeld();

    await typePort(page, taken);

    await page.waitForFunction(
      (text) => document.body.innerText.includes(text),
      {},
      `Port ${taken} is in use by another program; the relay stays on ${oldPort}.`,
    );
    expect(relay.port).toBe(oldPort);
    expect(new URL(page.url()).port).toBe(String(oldPort));
    await page.close();
  }, 20_000);

  it('after a start on a taken port, says which port the relay took, and Keep stores it', async () => {
    const taken = await portHeld();
    const relay = await relayOn(taken);
    const page = await accessPage(relay);
    await page.waitForSelector('#port-fallback');
    expect(await page.$eval('#port-fallback', (note) => (note as HTMLElement).innerText)).toContain(
      `Port ${taken} was in use by another program when Tabletop Relay started, so it listens on port ${relay.port}.`,
    );
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.screenshot({ path: join(SCREENSHOTS, 'access-port-fallback.png') });

    await page.click('#keep-port');

    await page.waitForFunction(() => !document.querySelector('#port-fallback'));
    expect(relay.status().portFallback).toBeUndefined();
    expect(relay.services.settings.get().port).toBe(relay.port);
    await page.close();
  }, 20_000);
});
