// Issue 23, item 14: any web page could file a pair request that looked like the GM's own Foundry tab: the card showed
// the world it claimed and the address, and every page in the GM's browser calls from 127.0.0.1. Here a page on another
// origin files one in real Chromium, and the settings UI, in the same browser, marks it.
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openSettings } from '../ui/browser-page.ts';
import { serveOtherOriginPage, type OtherOriginPage } from './other-origin-page.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', 'ui', 'screenshots');
/** The Foundry page the sandbox world pairs from, as the module sends it (`serverOrigin`). */
const FOUNDRY_ORIGIN = 'http://localhost:30000';

let relay: TestRelay;
let browser: Browser;
let otherPage: OtherOriginPage;

beforeAll(async () => {
  await buildRenderer();
  [relay, browser, otherPage] = await Promise.all([startTestRelay(), launchChromium(), serveOtherOriginPage()]);
  // The GM paired The Keep from its Foundry page: the relay now knows that page.
  const keep = createSandboxWorld({ seed: 35, worldId: 'keep', worldTitle: 'The Keep' });
  const code = (await relay.admin('POST', '/admin/pairing-codes', {})).body.code as string;
  await exchangePairingCode(keep, { httpBase: relay.baseUrl, code });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await otherPage?.close();
  await relay?.close();
});

/** A pair request from a tab of another web page, claiming to be The Keep. */
async function requestFromOtherPage(): Promise<string> {
  const tab = await browser.newPage();
  await tab.goto(otherPage.origin);
  const answer = await tab.evaluate(async (relayUrl) => {
    const response = await fetch(`${relayUrl}/auth/pair-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ worldId: 'keep', worldTitle: 'The Keep', systemId: 'dnd5e' }),
    });
    return { status: response.status, body: await response.json() };
  }, relay.baseUrl);
  await tab.close();
  expect(answer.status).toBe(201);
  return answer.body.code;
}

const cardOf = (code: string) => `.pair-request[data-code="${code}"]`;

async function pageMark(settings: Page, code: string): Promise<{ page: string; text: string }> {
  await settings.waitForSelector(`${cardOf(code)} .pair-request-page`, { timeout: 3000 });
  return settings.$eval(`${cardOf(code)} .pair-request-page`, (mark) => ({
    page: (mark as HTMLElement).dataset.page ?? '',
    text: (mark as HTMLElement).innerText,
  }));
}

describe('item 35: a pair request says which page sent it, and one from a page that is not Foundry is marked', () => {
  it("the admin API and the settings UI show the requesting page's origin, and mark another page's", async () => {
    const fromOtherPage = await requestFromOtherPage();
    const fromFoundry = await call(relay.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'keep', worldTitle: 'The Keep' },
      headers: { origin: FOUNDRY_ORIGIN },
    });
    const fromScript = await call(relay.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'tower' } });

    const { pairRequests } = (await relay.admin('GET', '/admin/pair-requests')).body;
    const byCode = new Map(pairRequests.map((request: any) => [request.code, request]));
    expect(byCode.get(fromOtherPage)).toMatchObject({ origin: otherPage.origin, page: 'other', source: '127.0.0.1' });
    expect(byCode.get(fromFoundry.body.code)).toMatchObject({ origin: FOUNDRY_ORIGIN, page: 'foundry' });
    expect(byCode.get(fromScript.body.code)).toMatchObject({ page: 'none' });
    expect(byCode.get(fromScript.body.code)).not.toHaveProperty('origin');

    const settings = await openSettings(browser, relay.relay.createAdminLoginUrl());
    const other = await pageMark(settings, fromOtherPage);
    expect(other.page).toBe('other');
    expect(other.text).toContain(
      `Sent by the web page ${otherPage.origin}, not the Foundry page of a world you paired. Approve only if you open Foundry at this address.`,
    );
    const foundry = await pageMark(settings, fromFoundry.body.code);
    expect(foundry).toEqual({
      page: 'foundry',
      text: `Sent by ${FOUNDRY_ORIGIN}, the Foundry page of a world you paired`,
    });
    expect((await pageMark(settings, fromScript.body.code)).text).toMatch(/^Sent by no browser/);
    await settings.$eval(cardOf(fromOtherPage), (card) => card.scrollIntoView({ block: 'center' }));
    await settings.screenshot({ path: join(SCREENSHOTS, 'pair-request-origins.png') as `${string}.png` });
    await settings.close();
  });

  it("a world's Foundry address, set by the GM, makes its page a Foundry one", async () => {
    const address = 'https://foundry.example:30443';
    const before = await call(relay.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'moor' },
      headers: { origin: address },
    });
    const keep = (await relay.admin('GET', '/admin/worlds')).body.worlds[0];
    expect(
      (await relay.admin('PATCH', `/admin/worlds/${keep.clientId}`, { foundryUrl: `${address}/game` })).status,
    ).toBe(200);
    const { pairRequests } = (await relay.admin('GET', '/admin/pair-requests')).body;
    expect(pairRequests.find((request: any) => request.code === before.body.code)).toMatchObject({
      origin: address,
      page: 'foundry',
    });
  });
});
