// Issue 27, item 1: a browser whose connection token the relay no longer knows (revoked while the tab was closed, its
// world forgotten, the relay's data directory lost) reloads Foundry. The relay used to refuse the page's /relay upgrade
// with 403, because the page's origin was remembered only with live tokens; the module saw 1006, kept the dead token and
// retried. Now the relay closes with 1008, and the module does what module-protocol.md §2.3 says it does: it clears the
// token and opens its Connection dialog. Driven in real Chromium, with the sandbox web client's game page as Foundry's.
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { moduleStatus, openGamePage, storedToken, untilConnected } from '../harness/game-page.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { FOUNDRY_VERSION } from '../harness/world.ts';

const CLIENT_ID = 'fvtt_lostpairing0001';
/** The module retries a refused upgrade after 1 s, 2 s, 4 s...: a dialog that has not come by now never comes. */
const DIALOG_WITHIN_MS = 5000;

let browser: Browser;
let relay: TestRelay;
let web: SandboxWebClient;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  relay = await startTestRelay();
  web = await startSandboxWebClient({
    worldOptions: { seed: 7, foundryVersion: FOUNDRY_VERSION },
    clientId: CLIENT_ID,
    relayUrl: relay.baseUrl,
  });
  context = await browser.createBrowserContext();
}, 30_000);
afterEach(async () => {
  await context?.close();
  await relay?.close();
  await web?.close();
});

/** Pairs the world from its Foundry page, as the module's Enter Code does, and lets its tab connect once. */
async function pairedAndConnected(): Promise<{ tokenId: string }> {
  const { token, record } = relay.relay.services.connectionTokens.issue(CLIENT_ID, 'GM browser', 'pairing', web.url);
  const tab = await openGamePage(context, web.url, { token });
  await untilConnected(tab);
  await tab.close();
  await expect.poll(() => relay.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();
  return { tokenId: record.id };
}

/** Reopens Foundry in the same browser and waits for the module's Connection dialog. */
async function reopenedUntilDialog(): Promise<Page> {
  const tab = await openGamePage(context, web.url);
  await tab.waitForSelector('.rest-api-connection-dialog', { timeout: DIALOG_WITHIN_MS });
  return tab;
}

async function expectAskedToPairAgain(tab: Page): Promise<void> {
  expect(await tab.$eval('.rest-api-connection-dialog', (dialog) => (dialog as HTMLElement).innerText)).toMatch(
    /REST API Connection[\s\S]*Status: Not paired[\s\S]*Pair/,
  );
  expect(await storedToken(tab)).toBe('""');
  expect(await moduleStatus(tab)).toMatchObject({ connected: false, closeCode: 1008 });
  expect(await tab.$eval('#notifications', (list) => (list as HTMLElement).innerText)).toMatch(/Pair again/);
  expect(relay.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();
}

describe('a lost pairing asks the GM to pair again', () => {
  it('a token revoked while the tab was closed: the reload gets 1008, the token is cleared, the pair dialog opens', async () => {
    const { tokenId } = await pairedAndConnected();
    expect((await relay.admin('DELETE', `/admin/connection-tokens/${tokenId}`)).status).toBe(200);
    await expectAskedToPairAgain(await reopenedUntilDialog());
  });

  it('a forgotten world: the reload gets 1008 and the module asks to pair again', async () => {
    await pairedAndConnected();
    expect((await relay.admin('DELETE', `/admin/worlds/${CLIENT_ID}`)).status).toBe(200);
    await expectAskedToPairAgain(await reopenedUntilDialog());
  });

  it('a lost data directory: a relay that knows nothing on the same port closes with 1008 too', async () => {
    await pairedAndConnected();
    const port = relay.relay.port;
    await relay.close();
    relay = await startTestRelay({ port });
    await expectAskedToPairAgain(await reopenedUntilDialog());
  });

  it('a valid token still connects from its Foundry page, and the page keeps it', async () => {
    const { token } = relay.relay.services.connectionTokens.issue(CLIENT_ID, 'GM browser', 'pairing', web.url);
    const tab = await openGamePage(context, web.url, { token });
    await untilConnected(tab);
    expect(relay.relay.services.tabletop.world(CLIENT_ID)?.metadata.foundryVersion).toBe(FOUNDRY_VERSION);
    expect(await storedToken(tab)).toBe(JSON.stringify(token));
    expect(await tab.$('.rest-api-connection-dialog')).toBeNull();
  });
});
