// Item 12: by default no web page may read the relay's API answers from a browser, except the module's pairing calls
// from the Foundry page; the GM allows origins one by one, and `*` only when they choose it. In real Chromium.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { serveOtherOriginPage, type OtherOriginPage } from './other-origin-page.ts';

let relay: TestRelay;
let browser: Browser;
let overlay: OtherOriginPage;
let stranger: OtherOriginPage;
let overlayPage: Page;
let strangerPage: Page;
let key: string;

beforeAll(async () => {
  [relay, browser, overlay, stranger] = await Promise.all([
    startTestRelay(),
    launchChromium(),
    serveOtherOriginPage(),
    serveOtherOriginPage(),
  ]);
  key = await relay.createKey({ scopes: ['clients:read'] });
  [overlayPage, strangerPage] = await Promise.all([browser.newPage(), browser.newPage()]);
  await Promise.all([overlayPage.goto(overlay.origin), strangerPage.goto(stranger.origin)]);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await overlay?.close();
  await stranger?.close();
});

/** What the page's script gets from GET /clients with a valid key: the answer, or 'blocked' when CORS refuses it. */
async function readClients(page: Page): Promise<string> {
  return page.evaluate(
    async (url, apiKey) => {
      try {
        const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
        return `answered ${response.status}`;
      } catch {
        return 'blocked';
      }
    },
    `${relay.baseUrl}/clients`,
    key,
  );
}

describe('item 12: CORS answers only the origins the GM allowed, and pairing', () => {
  it('by default a page of another origin cannot read an answer even with a valid key, yet can ask to pair', async () => {
    expect((await relay.admin('GET', '/admin/settings')).body.corsOrigins).toEqual([]);
    expect(await readClients(overlayPage)).toBe('blocked');
    const pairRequest = await overlayPage.evaluate(async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ worldId: 'cors-world', worldTitle: 'CORS world' }),
      });
      return { status: response.status, code: ((await response.json()) as { code?: string }).code };
    }, `${relay.baseUrl}/auth/pair-request`);
    expect(pairRequest.status).toBeLessThan(300);
    expect(pairRequest.code).toEqual(expect.any(String));
  });

  it('an origin the GM adds can read answers; any other still cannot', async () => {
    await relay.admin('PATCH', '/admin/settings', { corsOrigins: [overlay.origin] });
    expect(await readClients(overlayPage)).toBe('answered 200');
    expect(await readClients(strangerPage)).toBe('blocked');
  });

  it('* lets any page read answers, only once the GM sets it', async () => {
    await relay.admin('PATCH', '/admin/settings', { corsOrigins: ['*'] });
    expect(await readClients(strangerPage)).toBe('answered 200');
    await relay.admin('PATCH', '/admin/settings', { corsOrigins: [] });
    expect(await readClients(strangerPage)).toBe('blocked');
  });

  it('stored settings that never chose origins get none; a stored * stays', async () => {
    const settingsOf = async (stored: object) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-cors-'));
      writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(stored));
      const earlier = await startTestRelay({ dataDir });
      try {
        return (await earlier.admin('GET', '/admin/settings')).body.corsOrigins as string[];
      } finally {
        await earlier.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    };
    expect(await settingsOf({ requestsPerMinute: 600, lanAccess: false })).toEqual([]);
    expect(await settingsOf({ corsOrigins: ['*'] })).toEqual(['*']);
  });
});
