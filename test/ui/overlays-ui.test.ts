// The Overlays page in real Chromium against a running relay and the sandbox world: a GM makes a dice feed link,
// watches it live in the preview, copies it for OBS, finds it with the keys, and revokes it.
// Each run renders the page into test/ui/screenshots/; UPDATE_README_IMAGES=1 also writes docs/images/overlays-page.png.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { connectSandbox, createSandboxWorld, exchangePairingCode, type SandboxLink } from '../../sandbox/index.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openSettings } from './browser-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
const VIEWPORT = { width: 1024, height: 768 };
const DOCS_VIEWPORT = { width: 1024, height: 944 };

let relay: TestRelay;
let browser: Browser;
let page: Page;
let link: SandboxLink | undefined;
const world = createSandboxWorld({ seed: 7, worldTitle: 'The Sunless Citadel' });
/** The URL "Copy for OBS" put on the clipboard. */
let obsUrl = '';

async function screenshot(name: string): Promise<string> {
  await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  const path = join(RENDERED, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  return path;
}

async function openPage(id: string): Promise<void> {
  await page.click(`a[data-page="${id}"]`);
  await page.waitForFunction((wanted) => location.hash === `#${wanted}`, {}, id);
}

async function waitForText(expected: string, timeout = 5000): Promise<void> {
  await page.waitForFunction((wanted) => document.body.innerText.includes(wanted), { timeout }, expected);
}

/** The preview's document once it shows the overlay with `query` in its URL. */
async function previewFrame(query: string): Promise<Frame> {
  await page.waitForFunction(
    (wanted) => (document.querySelector('#overlay-preview') as HTMLIFrameElement | null)?.src.includes(wanted),
    { timeout: 5000 },
    query,
  );
  const handle = await page.waitForSelector('#overlay-preview');
  const frame = (await handle!.contentFrame())!;
  await frame.waitForFunction(
    (wanted) => location.search.includes(wanted) && document.body?.classList.contains('overlay'),
    { timeout: 5000 },
    query,
  );
  return frame;
}

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  await buildRenderer();
  [relay, browser] = await Promise.all([startTestRelay(), launchChromium()]);
  await browser
    .defaultBrowserContext()
    .overridePermissions(relay.baseUrl, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  page = await openSettings(browser, relay.relay.createAdminLoginUrl(), VIEWPORT);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await relay?.close();
});

describe('Overlays page', () => {
  it('has its own entry in the sidebar and, with no world paired, says to pair one first', async () => {
    expect(await page.$eval('a[data-page="overlays"]', (entry) => entry.textContent)).toBe('Overlays');
    expect(await page.$('a[data-page="overlays"] svg.icon')).not.toBeNull();
    await openPage('overlays');
    await waitForText('Pair a world first');
    expect(await page.$eval('.empty a', (button) => button.getAttribute('href'))).toBe('#status');
    expect(await page.$('#create-overlay-link')).toBeNull();
    await screenshot('overlays-no-world');
  });

  it('offers the world once it pairs, with its players, and asks for a character only for the character card', async () => {
    const { code } = (await relay.admin('POST', '/admin/pairing-codes', {})).body;
    const paired = await exchangePairingCode(world, { httpBase: relay.baseUrl, code });
    link = await connectSandbox(world, { relayUrl: relay.wsUrl, clientId: paired.clientId, token: paired.token });
    await page.waitForSelector('#create-overlay-link', { timeout: 5000 });
    expect(
      await page.$$eval('.overlay-choice', (cards) => cards.map((card) => card.getAttribute('data-overlay'))),
    ).toEqual(['dice', 'initiative', 'now-playing', 'character-card', 'chat']);
    expect(await page.$eval('#overlay-world', (select) => (select as HTMLSelectElement).value)).toBe(link.clientId);
    const viewers = await page.$$eval('#overlay-viewer option', (options) =>
      options.map((option) => option.textContent),
    );
    expect(viewers[0]).toContain('As the table sees it');
    expect(viewers).toContain('As Alice · Player');

    expect(await page.$eval('#overlay-actor', (input) => input.closest('.field')!.hasAttribute('hidden'))).toBe(true);
    await page.click('.overlay-choice[data-overlay="character-card"]');
    expect(await page.$eval('#overlay-actor', (input) => input.closest('.field')!.hasAttribute('hidden'))).toBe(false);
    expect(await page.$eval('#overlay-actor', (input) => (input as HTMLInputElement).required)).toBe(true);
    await page.click('.overlay-choice[data-overlay="initiative"]');
    expect(await page.$eval('#overlay-hp-bars', (input) => input.closest('.field')!.hasAttribute('hidden'))).toBe(
      false,
    );
    await page.click('.overlay-choice[data-overlay="dice"]');
    await screenshot('overlays-new');
  }, 20_000);

  it('creates a dice feed link whose live preview shows the overlay and follows the options', async () => {
    await page.type('#overlay-name', 'Dice on stream');
    await page.click('#create-overlay-link');
    await page.waitForSelector('.studio');
    expect(await page.$eval('#studio-title', (title) => title.textContent)).toBe('"Dice on stream" is ready');
    const records = (await relay.admin('GET', '/admin/overlay-links')).body.links;
    expect(records).toMatchObject([{ name: 'Dice on stream', overlay: 'dice', clientId: link!.clientId }]);
    expect(await page.$eval('#overlay-size', (size) => size.textContent)).toBe('520 × 720');

    const frame = await previewFrame('theme=dark');
    expect(await frame.evaluate(() => document.body.className)).toContain('overlay-dice');
    // Scaled to fit: the 520 × 720 page shows whole in the preview.
    const box = (await (await page.$('#overlay-preview'))!.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(360);
    expect(box.width / box.height).toBeCloseTo(520 / 720, 1);

    await page.click('.segment input[value="light"]');
    await page.$eval('#overlay-accent', (input) => {
      (input as HTMLInputElement).value = '#3fb8af';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.$eval('#overlay-hold', (input) => {
      (input as HTMLInputElement).value = '0';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const light = await previewFrame('theme=light');
    expect(light.url()).toContain('accent=%233fb8af');
    expect(await light.evaluate(() => document.body.className)).toContain('theme-light');

    const css = 'body { letter-spacing: 0.01em; }';
    await page.type('#overlay-css', css);
    await page.click('#apply-overlay-css');
    await waitForText('Custom CSS saved with the link');
    expect((await relay.admin('GET', '/admin/overlay-links')).body.links[0].customCss).toBe(css);
    const styled = await previewFrame('theme=light');
    await styled.waitForFunction((wanted) => document.head.innerHTML.includes(wanted), { timeout: 5000 }, css);
  }, 20_000);

  it('"Copy for OBS" copies the URL with its options, which answers 200 and carries them', async () => {
    await page.click('#copy-for-obs');
    await waitForText('give the browser source 520 × 720');
    obsUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(obsUrl).toBe(await page.$eval('#overlay-url', (input) => (input as HTMLInputElement).value));
    const url = new URL(obsUrl);
    expect(url.origin).toBe(relay.baseUrl);
    expect(url.pathname).toBe('/overlays/dice');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      theme: 'light',
      accent: '#3fb8af',
      fontSize: '24',
      max: '5',
      hold: '0',
      position: 'bottom-right',
    });
    const answer = await fetch(obsUrl);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain('theme-light');
    expect(html).toContain('#3fb8af');
    expect(await page.$eval('.obs-steps', (steps) => (steps as HTMLElement).innerText)).toMatch(
      /Sources → \+ → Browser[\s\S]*Paste the URL[\s\S]*Width 520[\s\S]*Height 720/,
    );
  });

  it('offers the LAN address for OBS on another computer once LAN access is on', async () => {
    expect(await page.$('#overlay-address')).toBeNull();
    expect(await page.$eval('.obs-copy', (copy) => (copy as HTMLElement).innerText)).toContain(
      'OBS on another computer? Turn on LAN access',
    );
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    try {
      const lanUrls: string[] = (await relay.admin('GET', '/admin/status')).body.lan.urls;
      if (lanUrls.length === 0) return; // This machine has no network address to offer.
      await page.waitForSelector('#overlay-address', { timeout: 5000 });
      await page.select('#overlay-address', lanUrls[0]!);
      const lanUrl = await page.$eval('#overlay-url', (input) => (input as HTMLInputElement).value);
      expect(new URL(lanUrl).origin).toBe(new URL(lanUrls[0]!).origin);
      expect(new URL(lanUrl).search).toBe(new URL(obsUrl).search);
      expect((await fetch(lanUrl)).status).toBe(200);
    } finally {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    }
    await page.waitForSelector('#overlay-address', { hidden: true, timeout: 5000 });
    expect(await page.$eval('#overlay-url', (input) => (input as HTMLInputElement).value)).toBe(obsUrl);
  });

  it('shows a roll in the preview as it happens; the screenshot is the docs image', async () => {
    await page.click('.segment input[value="dark"]');
    await page.$eval('#overlay-accent', (input) => {
      (input as HTMLInputElement).value = '#e0a84a';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.$eval('#overlay-hold', (input) => {
      (input as HTMLInputElement).value = '0';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const frame = await previewFrame('theme=dark');
    world.simulate.playerRoll('Alice', '1d20+5', 'Longsword attack');
    world.simulate.playerRoll('Bob', '2d6+3', 'Fire bolt');
    await frame.waitForFunction(() => document.body.innerText.includes('Fire bolt'), { timeout: 3000 });
    // Tall enough for the whole studio under the page's title; the roll's entrance animation ends first.
    await page.setViewport(DOCS_VIEWPORT);
    await page.evaluate(() => window.scrollTo(0, 0));
    await new Promise((resolve) => setTimeout(resolve, 700));
    const path = await screenshot('overlays-page');
    await page.setViewport(VIEWPORT);
    if (UPDATE) copyFileSync(path, join(COMMITTED, 'overlays-page.png'));
    expect(
      existsSync(join(COMMITTED, 'overlays-page.png')),
      'docs/images/overlays-page.png is missing: run UPDATE_README_IMAGES=1 npx vitest run test/ui/overlays-ui.test.ts',
    ).toBe(true);
    expect(readFileSync(join(COMMITTED, 'overlays-page.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 20_000);

  it('keeps the link out of the page once done, and lists it with the keys', async () => {
    await page.click('#overlay-done');
    await page.waitForSelector('#create-overlay-link');
    const secret = new URL(obsUrl).searchParams.get('link')!;
    expect(await page.content()).not.toContain(secret);
    await page.waitForSelector('tr[data-overlay-link-id]');
    const row = await page.$eval('tr[data-overlay-link-id]', (item) => (item as HTMLElement).innerText);
    expect(row).toContain('Dice on stream');
    expect(row).toContain('Dice feed');
    expect(row).toContain('The Sunless Citadel');
    expect(row).toContain('As the table sees it');
    expect(row).toContain('just now');
    await page.$eval('.overlay-list', (list) => list.scrollIntoView({ block: 'center' }));
    await screenshot('overlays-list');

    await openPage('keys');
    await page.waitForSelector('table[aria-label="Overlay links"] tr[data-overlay-link-id]');
    const listed = await page.$eval('table[aria-label="Overlay links"]', (table) => (table as HTMLElement).innerText);
    expect(listed).toContain('Dice on stream');
    expect(listed).toContain('Dice feed');
    expect(listed).toContain('The Sunless Citadel');
    expect(await page.content()).not.toContain(secret);
    await page.$eval('table[aria-label="Overlay links"]', (table) => table.scrollIntoView({ block: 'center' }));
    await screenshot('keys-overlay-links');
  });

  it('"New URL" replaces the link: the old URL is refused, the new one works', async () => {
    await openPage('overlays');
    await page.waitForSelector('tr[data-overlay-link-id] [data-action="rotate"]');
    await page.click('tr[data-overlay-link-id] [data-action="rotate"]');
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    await page.click('dialog[open] button[value="confirm"]');
    await page.waitForSelector('.studio');
    expect(await page.$eval('#studio-title', (title) => title.textContent)).toBe('"Dice on stream" has a new URL');
    const renewed = await page.$eval('#overlay-url', (input) => (input as HTMLInputElement).value);
    expect(renewed).not.toBe(obsUrl);
    expect((await fetch(obsUrl)).status).toBe(401);
    expect((await fetch(renewed)).status).toBe(200);
    obsUrl = renewed;
  });

  it('revokes from the list after a confirm: the URL answers 401 and the list is empty', async () => {
    await page.click('tr[data-overlay-link-id] [data-action="revoke"]');
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    expect(await page.$eval('dialog[open]', (dialog) => (dialog as HTMLElement).innerText)).toContain(
      'Revoke "Dice on stream"?',
    );
    await page.click('dialog[open] button[value="confirm"]');
    await page.waitForSelector('tr[data-overlay-link-id]', { hidden: true, timeout: 5000 });
    expect(await page.$('.studio')).toBeNull();
    expect((await fetch(obsUrl)).status).toBe(401);
    expect((await relay.admin('GET', '/admin/overlay-links')).body.links).toEqual([]);
  });
});
