// The change journal as the GM sees it, in real Chromium: the Activity page's Changes view with a readable diff per
// change and Undo (and the differences when the documents changed again since), a held change's card on the Status
// page with Approve and Deny, and "Ask me first" on the API keys page.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { TOOL_SCOPES } from '../harness/relay.ts';
import { latestOf } from '../harness/journal.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { openSettings } from './browser-page.ts';

const HP = 'system.attributes.hp.value';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

let harness: WorldHarness;
let browser: Browser;
let page: Page;
let goblin: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([startRelayWithWorld(), launchChromium()]);
  goblin = await uuidOf(harness, 'Goblin');
  page = await openSettings(browser, harness.relay.createAdminLoginUrl());
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const goblinName = () => harness.world.game.fromUuid(goblin)!.name;
const update = (data: Record<string, unknown>, key = harness.key) =>
  harness.api(key, 'PUT', '/update', { body: { uuid: goblin, data } });
const text = (selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText);

async function openChanges(): Promise<void> {
  await page.goto(new URL('/admin/#activity/changes', harness.baseUrl).href);
  await page.waitForSelector('.changes');
}

describe('the Changes view', () => {
  it('shows each change with who made it and a field-by-field diff, and Undo puts the world back', async () => {
    await update({ name: 'Goblin Boss', [HP]: 2 });
    const change = await latestOf(harness, 'PUT', '/update');
    await openChanges();
    const card = `.change[data-change-id="${change.id}"]`;
    await page.waitForSelector(card);
    const shown = await text(card);
    expect(shown).toContain('Update a document, or the selected tokens');
    expect(shown).toContain('test key');
    expect(shown).toMatch(/Changed\s+Goblin Boss/i);
    expect(shown).toMatch(/name\s+Goblin\s+→\s+Goblin Boss/);
    expect(shown).toMatch(new RegExp(`${HP.replaceAll('.', '\\.')}\\s+7\\s+→\\s+2`));
    expect(await page.$eval('[aria-current="page"].tab', (tab) => tab.textContent)).toBe('Changes');

    await page.click(`${card} [data-action="undo"]`);
    await page.waitForFunction(() => document.body.innerText.includes('Undid: Update a document'), { timeout: 3000 });
    expect(goblinName()).toBe('Goblin');
    await page.waitForSelector(`${card} .pill`);
    expect(await text(`${card} .pill`)).toBe('Undone');
    expect(await page.$eval(`${card} [data-action="undo"]`, (button) => (button as HTMLButtonElement).disabled)).toBe(
      true,
    );
  });

  it('a change made in the meantime shows up live; an undo refused shows what differs, and Undo anyway forces it', async () => {
    await openChanges();
    await update({ name: 'Goblin Scout' });
    const change = await latestOf(harness, 'PUT', '/update');
    const card = `.change[data-change-id="${change.id}"]`;
    await page.waitForSelector(card, { timeout: 3000 });
    await update({ name: 'Goblin Captain' });
    await page.click(`${card} [data-action="undo"]`);
    await page.waitForSelector('dialog.dialog');
    const dialog = await text('dialog.dialog');
    expect(dialog).toContain('Changed again since');
    expect(dialog).toMatch(/name\s+Goblin Scout\s+→\s+Goblin Captain/);
    expect(goblinName()).toBe('Goblin Captain');
    await page.click('dialog.dialog button[value="confirm"]');
    await page.waitForFunction(() => !document.querySelector('dialog.dialog'));
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('Undone'),
      {},
      card,
    );
    expect(goblinName()).toBe('Goblin');
  });

  it("a change that cannot be undone says why, and the journal's settings change in place", async () => {
    harness.world.game.settings.allowExecuteJs = true;
    expect((await harness.post('/execute-js', { script: 'return 6 * 7' })).status).toBe(200);
    const script = await latestOf(harness, 'POST', '/execute-js');
    await openChanges();
    const card = `.change[data-change-id="${script.id}"]`;
    await page.waitForSelector(card);
    expect(await text(card)).toMatch(/Cannot be undone: a script may change anything/);
    expect(await page.$(`${card} [data-action="undo"]`)).toBeNull();
    await page.click('.card-header-row .button-link');
    await page.waitForSelector('#journal-max-changes');
    await page.$eval('#journal-max-changes', (input) => ((input as HTMLInputElement).value = ''));
    await page.type('#journal-max-changes', '250');
    await page.click('.journal-settings button[type="submit"]');
    await page.waitForFunction(() => document.body.innerText.includes('Keeps the last 250 changes for 30 days.'));
    expect((await harness.admin('GET', '/admin/settings')).body.journalMaxChanges).toBe(250);
  });
});

describe('ask before changes', () => {
  it('a held change waits on the Status page with what it would change; Approve makes it', async () => {
    const made = await harness.admin('POST', '/admin/keys', {
      name: 'Assistant',
      scopes: TOOL_SCOPES,
      askBeforeChanges: true,
    });
    await page.goto(new URL('/admin/#status', harness.baseUrl).href);
    const call = update({ name: 'Goblin Chief' }, made.body.key);
    await page.waitForSelector('.confirmation [data-action="approve"]', { timeout: 3000 });
    const card = await text('.confirmation');
    expect(card).toContain('Assistant: Update a document, or the selected tokens');
    expect(card).toMatch(/name\s+Goblin\s+→\s+Goblin Chief/);
    expect(await page.$eval('#pair-badge', (badge) => badge.textContent)).toBe('1');
    await page.screenshot({ path: join(SCREENSHOTS, 'held-change.png') });
    expect(goblinName()).toBe('Goblin');
    await page.click('.confirmation [data-action="approve"]');
    expect((await call).status).toBe(200);
    expect(goblinName()).toBe('Goblin Chief');
    await page.waitForFunction(() => !document.querySelector('.confirmation'));
  });

  it('the API keys page turns "Ask me first" on for a key', async () => {
    const made = await harness.admin('POST', '/admin/keys', { name: 'Stream Deck', scopes: TOOL_SCOPES });
    await page.goto(new URL('/admin/#keys', harness.baseUrl).href);
    const row = `tr[data-key-id="${made.body.id}"]`;
    await page.waitForSelector(`${row} .switch`);
    await page.click(`${row} .switch`);
    await page.waitForFunction(
      async (id) => {
        const keys = (await (await fetch('/admin/keys')).json()) as {
          keys: { id: string; askBeforeChanges?: boolean }[];
        };
        return keys.keys.find((key) => key.id === id)?.askBeforeChanges === true;
      },
      { timeout: 3000 },
      made.body.id,
    );
  });
});
