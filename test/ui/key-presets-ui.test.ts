// Key presets in real Chromium: the New API key form starts with nothing granted and offers what GMs connect (Stream
// Deck, an OBS overlay page, a player's tool, a bot, read only, everything); a preset's scopes show in words with their
// names before the key is made, and the key it makes does what the preset says (a Stream Deck key rolls). A tool's key
// request offers the same presets, narrowed to what the tool asked for.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_PRESETS, SCOPE_LABELS, keyPreset } from '../../contracts/scopes.ts';
import { TOOL_SCOPES } from '../../relay/auth/scopes.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { openSettings } from './browser-page.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

let harness: WorldHarness;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([startRelayWithWorld(), launchChromium()]);
  page = await openSettings(browser, harness.relay.createAdminLoginUrl(), { width: 1024, height: 640 });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function ticked(within: string): Promise<string[]> {
  return page.$$eval(`${within} input[name="scopes"]`, (boxes) =>
    boxes.filter((box) => (box as HTMLInputElement).checked).map((box) => (box as HTMLInputElement).value),
  );
}

async function pressed(within: string): Promise<string[]> {
  return page.$$eval(`${within} [data-preset][aria-pressed="true"]`, (buttons) =>
    buttons.map((button) => (button as HTMLElement).dataset.preset!),
  );
}

async function keyNamed(name: string): Promise<{ scopes: string[] } | undefined> {
  return (await harness.admin('GET', '/admin/keys')).body.keys.find((key: { name: string }) => key.name === name);
}

const sorted = (scopes: readonly string[]) => [...scopes].sort();

describe('the presets', () => {
  it('grant only known scopes, never execute-js or world:link, and the relay gives new and invited keys theirs', () => {
    for (const preset of KEY_PRESETS) {
      for (const scope of preset.scopes) expect(TOOL_SCOPES, `${preset.id}: ${scope}`).toContain(scope);
      expect(preset.scopes).not.toContain('execute-js');
    }
    expect(sorted(keyPreset('everything').scopes)).toEqual(
      sorted(TOOL_SCOPES.filter((scope) => scope !== 'execute-js')),
    );
  });
});

describe('New API key', () => {
  it('starts with nothing granted and a choice of what the key is for', async () => {
    await page.click('a[data-page="keys"]');
    await page.waitForSelector('#new-key');
    await page.click('#new-key');
    await page.waitForSelector('#key-name');
    await page.type('#key-name', 'Stream Deck');
    expect(await ticked('.key-form')).toEqual([]);
    expect(await pressed('.key-form')).toEqual([]);
    expect(await page.$eval('#key-scope-summary', (summary) => (summary as HTMLElement).innerText)).toContain(
      'Nothing yet',
    );
    const offered = await page.$$eval('.key-form [data-preset]', (buttons) =>
      buttons.map((button) => button.querySelector('strong')!.textContent),
    );
    expect(offered).toEqual(KEY_PRESETS.map((preset) => preset.title));
    await page.click('.key-form button[type="submit"]');
    await page.waitForFunction(() => document.body.innerText.includes('Pick what the key is for'));
    expect(await keyNamed('Stream Deck')).toBeUndefined();
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  });

  it('each preset ticks exactly its scopes, shown in words beside their names before the key is made', async () => {
    for (const preset of KEY_PRESETS) {
      await page.click(`.key-form [data-preset="${preset.id}"]`);
      expect(sorted(await ticked('.key-form')), preset.id).toEqual(sorted(preset.scopes));
      expect(await pressed('.key-form'), preset.id).toEqual([preset.id]);
      const summary = await page.$$eval('#key-scope-summary li', (items) =>
        items.map((item) => [item.querySelector('span')!.textContent, item.querySelector('code')!.textContent]),
      );
      expect(summary.map(([, scope]) => scope).sort(), preset.id).toEqual(sorted(preset.scopes));
      for (const [words, scope] of summary) expect(words).toBe(SCOPE_LABELS[scope as keyof typeof SCOPE_LABELS]);
    }
  });

  it('a scope ticked by hand beyond a preset leaves no preset pressed, and shows in the summary', async () => {
    await page.click('.key-form [data-preset="read-only"]');
    await page.click('#choose-scopes summary');
    await page.click('.key-form input[name="scopes"][value="roll:execute"]');
    expect(await pressed('.key-form')).toEqual([]);
    expect(await page.$eval('#key-scope-summary', (summary) => (summary as HTMLElement).innerText)).toContain(
      'Roll dice',
    );
    expect(
      await page.$eval('.key-form input[value="roll:execute"]', (box) => box.closest('label')!.innerText),
    ).toContain('Roll dice');
  });

  it('a key made with the Stream Deck preset rolls', async () => {
    await page.click('.key-form [data-preset="stream-deck"]');
    await page.evaluate(() => document.querySelector('#choose-scopes')!.removeAttribute('open'));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SCREENSHOTS, 'key-presets.png') });
    await page.click('.key-form button[type="submit"]');
    await page.waitForSelector('#revealed-key');
    const key = await page.$eval('#revealed-key', (input) => (input as HTMLInputElement).value);
    const made = await keyNamed('Stream Deck');
    expect(sorted(made!.scopes)).toEqual(sorted(keyPreset('stream-deck').scopes));
    const roll = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20+5', createChatMessage: true } });
    expect(roll.status).toBe(200);
  });
});

describe("a tool's key request", () => {
  it('offers the same presets, each granting only what the tool asked for', async () => {
    const asked = await call(harness.baseUrl, 'POST', '/auth/key-request', {
      body: { appName: 'Deck tool', scopes: [...keyPreset('stream-deck').scopes, 'execute-js', 'scene:write'] },
    });
    expect(asked.status, asked.text).toBe(201);
    const card = `.key-request[data-code="${asked.body.code}"]`;
    await page.click('a[data-page="status"]');
    await page.waitForSelector(`${card} [data-preset="read-only"]`, { timeout: 5000 });
    // Everything it asked for but execute-js, which is no preset's whole.
    expect(await pressed(card)).toEqual([]);
    await page.click(`${card} [data-preset="stream-deck"]`);
    expect(await pressed(card)).toEqual(['stream-deck']);
    expect(sorted(await ticked(card))).toEqual(sorted(keyPreset('stream-deck').scopes));
    // Read only and the OBS page grant the same of what it asked: the one pressed stays pressed.
    await page.click(`${card} [data-preset="read-only"]`);
    expect(await pressed(card)).toEqual(['read-only']);
    const readOnly = keyPreset('read-only').scopes.filter((scope) =>
      (keyPreset('stream-deck').scopes as readonly string[]).includes(scope),
    );
    expect(sorted(await ticked(card))).toEqual(sorted(readOnly));
    expect(await page.$eval(`${card} input[value="roll:execute"]`, (box) => box.closest('label')!.innerText)).toContain(
      'Roll dice',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'key-request-presets.png') });
    await page.click(`${card} [data-action="approve"]`);
    await page.waitForFunction((selector) => !document.querySelector(selector), { timeout: 5000 }, card);
    const made = await keyNamed('Deck tool');
    expect(sorted(made!.scopes)).toEqual(sorted(readOnly));
  });
});
