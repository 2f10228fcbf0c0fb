// The page the module opens in a new tab when it asks to pair, in real Chromium: it follows the request by itself.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openPage } from './browser-page.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
/** Longer than the page's 2 s between looks, so a state it should reach on its own has had time to show. */
const FOLLOWS_WITHIN_MS = 6000;

let relay: TestRelay;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [relay, browser] = await Promise.all([startTestRelay(), launchChromium()]);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
});

async function askToPair(
  base: string,
  worldId: string,
  worldTitle: string,
): Promise<{ code: string; pairUrl: string }> {
  const answer = await call(base, 'POST', '/auth/pair-request', { body: { worldId, worldTitle } });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function openPairPage(url: string): Promise<Page> {
  return openPage(browser, url, { width: 800, height: 600 });
}

/** Waits until the page shows this state, and only it. */
async function showsState(page: Page, state: string): Promise<string> {
  await page.waitForFunction(
    (wanted) =>
      document.querySelector('main')?.dataset.state === wanted &&
      [...document.querySelectorAll<HTMLElement>('[data-for]')].every(
        (section) => section.hidden === (section.dataset.for !== wanted),
      ),
    { timeout: FOLLOWS_WITHIN_MS },
    state,
  );
  return page.$eval('.card', (card) => (card as HTMLElement).innerText);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png` });
}

describe('the /pair/<code> page', () => {
  it('waits for approval with a way to the settings, shows pairing… once approved and Paired once the world holds its token', async () => {
    const { code, pairUrl } = await askToPair(relay.baseUrl, 'winter-march', 'Winter March');
    const page = await openPairPage(pairUrl);
    let shown = await showsState(page, 'waiting');
    expect(await page.title()).toBe('Pair “Winter March” · Tabletop Relay');
    expect(shown).toContain('Waiting for approval');
    expect(await page.$eval('a.button', (link) => [link.textContent, link.getAttribute('href')])).toEqual([
      'Open the settings',
      '/admin/',
    ]);
    expect(await page.$eval('.card', (card) => getComputedStyle(card).borderRadius)).toBe('10px');
    await screenshot(page, 'pair-waiting');

    await relay.admin('POST', `/admin/pair-requests/${code}/approve`);
    shown = await showsState(page, 'approved');
    expect(shown).toContain('Pairing…');
    expect(shown).not.toContain('Approve this world');
    await screenshot(page, 'pair-approved');

    // The page never takes the pairing code: the module's own poll still gets it, once.
    const polled = await call(relay.baseUrl, 'GET', `/auth/pair-request/${code}/status`);
    expect(polled.body).toEqual({ status: 'approved', pairingCode: expect.any(String) });
    expect(await page.content()).not.toContain(polled.body.pairingCode);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await page.$eval('main', (main) => main.dataset.state)).toBe('approved');

    const paired = await call(relay.baseUrl, 'POST', '/auth/pair', {
      body: { code: polled.body.pairingCode, worldId: 'winter-march', worldTitle: 'Winter March' },
    });
    expect(paired.status).toBe(200);
    shown = await showsState(page, 'paired');
    expect(shown).toContain('Paired: you can close this tab');
    expect(shown).not.toContain('Approve');
    await screenshot(page, 'pair-paired');
    await page.close();
  }, 30_000);

  it('shows a denied request as denied, with how to ask again', async () => {
    const { code, pairUrl } = await askToPair(relay.baseUrl, 'summer-court', 'Summer Court');
    const page = await openPairPage(pairUrl);
    await showsState(page, 'waiting');
    await relay.admin('POST', `/admin/pair-requests/${code}/deny`);
    const shown = await showsState(page, 'denied');
    expect(shown).toContain('This request was denied');
    expect(shown).toContain('press Pair');
    await screenshot(page, 'pair-denied');
    await page.close();
  }, 20_000);

  it('shows a request that ran out as expired', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-pair-page-'));
    const now = Date.now();
    const code = 'EXPIRESSOONABCDE';
    const request = {
      code,
      status: 'pending',
      world: { worldId: 'autumn', worldTitle: 'Autumn Keep' },
      upgradeOnly: false,
      source: '127.0.0.1',
      createdAt: now,
      expiresAt: now + 1500,
    };
    writeFileSync(join(dataDir, 'pair-requests.json'), JSON.stringify({ requests: [request], codes: [] }));
    const shortLived = await startTestRelay({ dataDir });
    try {
      const page = await openPairPage(`${shortLived.baseUrl}/pair/${code}`);
      const shown = await showsState(page, 'expired');
      expect(shown).toContain('This request expired');
      await screenshot(page, 'pair-expired');
      await page.close();
    } finally {
      await shortLived.close();
    }
  }, 20_000);

  it('says an unknown request is unknown, and stops asking', async () => {
    const page = await openPairPage(`${relay.baseUrl}/pair/UNKNOWNREQUEST22`);
    const looks: string[] = [];
    page.on('request', (request) => looks.push(request.url()));
    const shown = await showsState(page, 'unknown');
    expect(shown).toContain('Tabletop Relay does not know this request');
    await screenshot(page, 'pair-unknown');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(looks).toEqual([]);
    await page.close();
  }, 20_000);
});
