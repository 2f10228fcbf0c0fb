// The settings UI's Stream Deck page in real Chromium: the Elgato plugin and the Companion package built by their own
// build scripts, each explained and downloaded by a click; a relay without the builds says how to make them; a key
// for Companion made on the page; the plugin's key request approved there. Its screenshot is docs/images/
// stream-deck-page.png (UPDATE_README_IMAGES=1 writes it; otherwise test/ui/screenshots/ only).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { buildCompanion } from '../../scripts/build-companion.ts';
import { buildStreamDeck } from '../../scripts/build-streamdeck.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { DECK_SCOPES } from '../../contracts/integration-packages.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openSettings } from './browser-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
const WIDTH = 1024;
const HEIGHT = 768;

let builds: string;
let downloads: string;
let companionFile: string;
let pluginFile: string;
let relay: TestRelay;
let unbuilt: TestRelay;
let browser: Browser;
let page: Page;
let unbuiltContext: BrowserContext | undefined;

beforeAll(async () => {
  builds = mkdtempSync(join(tmpdir(), 'tabletop-relay-deck-builds-'));
  downloads = join(builds, 'downloaded');
  mkdirSync(downloads);
  mkdirSync(RENDERED, { recursive: true });
  // Built by the scripts behind npm run build:companion and build:streamdeck, into folders of this test's own.
  const [companion, plugin] = await Promise.all([
    buildCompanion(join(builds, 'companion')),
    buildStreamDeck(join(builds, 'streamdeck')),
    buildRenderer(),
  ]);
  companionFile = companion.tgz;
  pluginFile = plugin.pluginFile;
  [relay, unbuilt, browser] = await Promise.all([
    startTestRelay({
      integrationPackages: { streamDeck: join(builds, 'streamdeck'), companion: join(builds, 'companion') },
    }),
    startTestRelay({ integrationPackages: { streamDeck: join(builds, 'none'), companion: join(builds, 'none') } }),
    launchChromium(),
  ]);
  page = await openSettings(browser, relay.relay.createAdminLoginUrl(), { width: WIDTH, height: HEIGHT });
  const session = await page.createCDPSession();
  await session.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
}, 60_000);

afterAll(async () => {
  await unbuiltContext?.close();
  await browser?.close();
  await Promise.all([relay?.close(), unbuilt?.close()]);
  if (builds) rmSync(builds, { recursive: true, force: true });
});

async function openStreamDeckPage(on: Page): Promise<void> {
  await on.click('a[data-page="stream-deck"]');
  await on.waitForSelector('.deck-package[data-package="companion"]', { timeout: 5000 });
}

const cardText = (name: string) =>
  page.$eval(`.deck-package[data-package="${name}"]`, (card) => card.textContent ?? '');

/** Waits for a finished download (Chromium writes `<name>.crdownload` until it is complete). */
async function downloaded(name: string): Promise<Buffer> {
  const path = join(downloads, name);
  await expect
    .poll(() => existsSync(path) && readdirSync(downloads).every((file) => !file.endsWith('.crdownload')), {
      timeout: 10_000,
    })
    .toBe(true);
  return readFileSync(path);
}

describe('Settings UI: Stream Deck page', () => {
  it('is in the navigation and offers both packages, each in three lines: what it is, how to install, first use', async () => {
    await openStreamDeckPage(page);
    expect(await page.$eval('#page-title', (title) => title.textContent)).toBe('Stream Deck');
    const plugin = await cardText('stream-deck');
    expect(plugin).toContain('Elgato Stream Deck plugin');
    expect(plugin).toContain("double-click the file: Elgato's Stream Deck app installs it");
    expect(plugin).toContain('"Approve in Tabletop Relay" and the request appears here');
    const companion = await cardText('companion');
    expect(companion).toContain('Bitfocus Companion module');
    expect(companion).toContain('Companion 4.3 or later');
    expect(companion).toContain('Modules → Import module package');
    expect(companion).toContain('the request from Bitfocus Companion appears here');
    for (const name of ['stream-deck', 'companion']) {
      const labels = await page.$$eval(`.deck-package[data-package="${name}"] .deck-fact-label`, (nodes) =>
        nodes.map((node) => node.textContent),
      );
      expect(labels).toEqual(['What it is', 'Install', 'First use']);
    }
    const notes = await page.$eval('.deck-notes', (node) => node.textContent ?? '');
    expect(notes).toContain('docs/STREAM-DECK.md');
    // The test relay is not on the default port: the page gives its address to set as the Relay URL.
    expect(notes).toContain(`this relay is at ${relay.baseUrl}: set that as their Relay URL`);
  });

  it.each([
    ['stream-deck', 'application/octet-stream', () => pluginFile],
    ['companion', 'application/gzip', () => companionFile],
  ])('downloads the %s file by a click: 200, its own name, the bytes its build wrote', async (name, type, built) => {
    const link = `.deck-package[data-package="${name}"] a[data-download]`;
    const href = await page.$eval(link, (anchor) => (anchor as HTMLAnchorElement).href);
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        disposition: response.headers.get('content-disposition'),
      };
    }, href);
    const fileName = basename(built());
    expect(answer).toEqual({ status: 200, type, disposition: `attachment; filename="${fileName}"` });
    if (name === 'stream-deck') expect(fileName).toBe('org.tabletoprelay.deck.streamDeckPlugin');
    expect(await page.$eval(`.deck-package[data-package="${name}"] .deck-file-name`, (node) => node.textContent)).toBe(
      fileName,
    );
    await page.click(link);
    expect(await downloaded(fileName)).toEqual(readFileSync(built()));
  });

  it('makes a key for Companion with exactly the scopes the deck needs, shown once', async () => {
    await page.click('#companion-key');
    await page.waitForSelector('#companion-key-value');
    const key = await page.$eval('#companion-key-value', (input) => (input as HTMLInputElement).value);
    expect(key).toMatch(/^ttr_/);
    const { keys } = (await relay.admin('GET', '/admin/keys')).body as { keys: { name: string; scopes: string[] }[] };
    expect(keys.find((made) => made.name === 'Companion')?.scopes.sort()).toEqual([...DECK_SCOPES].sort());
    const works = await relay.api(key, 'GET', '/clients');
    expect(works.status).toBe(200);
  });

  it("shows the plugin's key request on this page, where approving it hands the plugin its key", async () => {
    const asked = await fetch(`${relay.baseUrl}/auth/key-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'Stream Deck', scopes: DECK_SCOPES }),
    });
    const { code, pollUrl } = (await asked.json()) as { code: string; pollUrl: string };
    const card = `.key-request[data-code="${code}"]`;
    await page.waitForSelector(`${card} [data-action="approve"]`, { timeout: 5000 });
    await page.click(`${card} [data-action="approve"]`);
    await page.waitForFunction((selector) => !document.querySelector(selector), { timeout: 5000 }, card);
    const collected = (await (await fetch(pollUrl)).json()) as { apiKey?: string };
    expect(collected.apiKey).toMatch(/^ttr_/);
  });

  it('looks finished: both cards side by side, file names and sizes, the notes below (screenshot)', async () => {
    await page.reload();
    await openStreamDeckPage(page);
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    const path = join(RENDERED, 'stream-deck-page.png');
    await page.screenshot({ path: path as `${string}.png` });
    const boxes = await page.$$eval('.deck-package', (cards) =>
      cards.map((card) => {
        const box = card.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom };
      }),
    );
    expect(boxes).toHaveLength(2);
    expect(boxes[0]!.top).toBe(boxes[1]!.top);
    const notesBottom = await page.$eval('.deck-notes', (node) => node.getBoundingClientRect().bottom);
    expect(notesBottom).toBeLessThanOrEqual(HEIGHT);
    if (UPDATE) copyFileSync(path, join(COMMITTED, 'stream-deck-page.png'));
    expect(existsSync(join(COMMITTED, 'stream-deck-page.png'))).toBe(true);
  });

  it('stays tidy at 800×600 (the cards stack) and in the dark theme', async () => {
    await page.setViewport({ width: 800, height: 600 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    const cramped = await page.$$eval('.card', (cards) =>
      cards.filter((card) => card.scrollWidth > card.clientWidth + 1).map((card) => card.className),
    );
    expect(cramped).toEqual([]);
    const lefts = await page.$$eval('.deck-package', (cards) => cards.map((card) => card.getBoundingClientRect().left));
    expect(lefts[0]).toBe(lefts[1]);
    await page.screenshot({ path: join(RENDERED, 'stream-deck-page-800x600-dark.png') as `${string}.png` });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    await page.setViewport({ width: WIDTH, height: HEIGHT });
  });

  it('says how to build each file on a relay that has none', async () => {
    unbuiltContext = await browser.createBrowserContext();
    const other = await unbuiltContext.newPage();
    await other.setViewport({ width: WIDTH, height: HEIGHT });
    await other.goto(unbuilt.relay.createAdminLoginUrl());
    await other.waitForSelector('.sidebar');
    await openStreamDeckPage(other);
    const banners = await other.$$eval('.deck-not-built', (nodes) => nodes.map((node) => node.textContent));
    expect(banners).toEqual([
      expect.stringContaining('Build it with npm run build:streamdeck'),
      expect.stringContaining('Build it with npm run build:companion'),
    ]);
    expect(await other.$$('a[data-download]')).toHaveLength(0);
  });
});
