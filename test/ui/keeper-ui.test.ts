// "Keep online" as a GM uses it in the settings UI, in real Chromium: the switch asks for the keeper's user first, Test
// says in words whether it can log in, and the world's line follows the keeper as the GM's browser comes and goes.
// UPDATE_README_IMAGES=1 also writes the README's picture of the switch (docs/images/keeper.png).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { CLIENT_ID, KEEPER_PASSWORD, KEEPER_USER, startKeeperHarness, type KeeperHarness } from '../keeper/harness.ts';
import { openSettings } from './browser-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');

let harness: KeeperHarness;
let browser: Browser;
let page: Page;
const row = `.known-world[data-client-id="${CLIENT_ID}"]`;

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  await buildRenderer();
  harness = await startKeeperHarness({ relay: { keeperTiming: { graceMs: 1000 } } });
  await harness.gmJoins();
  browser = await launchChromium();
  page = await openSettings(browser, harness.relay.relay.createAdminLoginUrl(), { width: 1024, height: 640 });
  await page.waitForSelector(`${row} .keeper`, { timeout: 10_000 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const rowText = () => page.$eval(row, (element) => (element as HTMLElement).innerText);
const waitForRowText = (wanted: string, timeout = 15_000) =>
  page.waitForFunction(
    (selector, text) => (document.querySelector(selector) as HTMLElement | null)?.innerText.includes(text),
    { timeout },
    row,
    wanted,
  );

describe('Keep online in the settings', () => {
  it('asks for the keeper’s own Foundry user before it switches on, and says how to make one', async () => {
    expect(await rowText()).toContain("Online through the GM's browser");
    await page.click(`${row} .keeper .switch`);
    await page.waitForSelector(`${row} .keeper-form`);
    const text = await rowText();
    expect(text).toContain('Give the keeper a Foundry user of its own');
    expect(text).toContain('User Management');
    expect(await page.$eval(`${row} .switch-input`, (input) => (input as HTMLInputElement).checked)).toBe(false);
  });

  it('Test says what is wrong in words, then that the user can keep the world online', async () => {
    await page.type(`${row} input[name="keeperUsername"]`, KEEPER_USER);
    await page.type(`${row} input[name="keeperPassword"]`, 'not-it');
    await page.click(`${row} [data-action="keeper-test"]`);
    await waitForRowText("Foundry refused the keeper's user or password");
    await page.$eval(`${row} input[name="keeperPassword"]`, (input) => ((input as HTMLInputElement).value = ''));
    await page.type(`${row} input[name="keeperPassword"]`, KEEPER_PASSWORD);
    await page.click(`${row} [data-action="keeper-test"]`);
    await waitForRowText('the keeper can keep this world online');
  });

  it('saved and switched on, it shows the keeper taking over when the GM’s browser leaves', async () => {
    await page.click(`${row} .keeper-form button[type="submit"]`);
    await waitForRowText(`Logs in as ${KEEPER_USER}`);
    expect(await rowText()).not.toContain(KEEPER_PASSWORD);
    await page.click(`${row} .keeper .switch`);
    await page.waitForFunction(
      (selector) => (document.querySelector(selector) as HTMLInputElement).checked,
      {},
      `${row} .switch-input`,
    );
    await harness.gmLeaves();
    await waitForRowText('Online through the keeper', 20_000);
    await page.evaluate((selector) => document.querySelector(selector)!.scrollIntoView({ block: 'center' }), row);
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    const path = join(RENDERED, 'readme-keeper.png');
    await page.screenshot({ path: path as `${string}.png` });
    if (process.env.UPDATE_README_IMAGES === '1') copyFileSync(path, join(COMMITTED, 'keeper.png'));
    expect(readFileSync(path).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(existsSync(join(COMMITTED, 'keeper.png')), 'docs/images/keeper.png: run with UPDATE_README_IMAGES=1').toBe(
      true,
    );
  });

  it('lists the keeper’s last changes', async () => {
    await page.click(`${row} .keeper-transitions summary`);
    const text = await rowText();
    expect(text).toContain('Keeper starting');
    expect(text).toContain('Online through the keeper');
  });
});
