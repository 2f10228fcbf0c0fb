// Item 31: a page served on another port of 127.0.0.1 sets its own `ttr_admin` cookie for the settings UI's path
// (cookies keep no ports apart), which the browser then sends before the GM's session. The settings must still work
// once the GM signs in with a fresh link, in real Chromium.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_COOKIE } from '../../relay/auth/admin-sessions.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openPage } from '../ui/browser-page.ts';
import { serveOtherOriginPage, type OtherOriginPage } from './other-origin-page.ts';

const TOSSED_COOKIE = `${ADMIN_COOKIE}=tossed-by-another-page; Path=/admin/; Max-Age=86400`;
const KEY_NAME = 'Stream Deck on the desk';

let relay: TestRelay;
let browser: Browser;
let other: OtherOriginPage;

beforeAll(async () => {
  await buildRenderer();
  [relay, browser, other] = await Promise.all([
    startTestRelay(),
    launchChromium(),
    serveOtherOriginPage(
      `<!doctype html><title>Another page</title><script>document.cookie = ${JSON.stringify(TOSSED_COOKIE)};</script>`,
    ),
  ]);
  await relay.createKey({ name: KEY_NAME });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await other?.close();
});

/** What the settings UI's keys page ends up showing: the key list, or the page that asks to sign in again. */
async function keysPageOutcome(page: Page): Promise<'keys listed' | 'signed out'> {
  await page.evaluate(() => (location.hash = '#keys'));
  const outcome = await page.waitForFunction(
    (keyName: string) => {
      if (document.querySelector('.signed-out')) return 'signed out';
      return document.body.textContent?.includes(keyName) ? 'keys listed' : false;
    },
    {},
    KEY_NAME,
  );
  return (await outcome.jsonValue()) as 'keys listed' | 'signed out';
}

describe('item 31: a cookie tossed from another port of 127.0.0.1 does not sign the GM out', () => {
  it('after another page set its ttr_admin for /admin/, a fresh sign-in link opens working settings', async () => {
    const tossing = await browser.newPage();
    await tossing.goto(other.origin);
    await tossing.close();

    const settings = await openPage(browser, relay.relay.createAdminLoginUrl(), { width: 1024, height: 768 });
    const sent = (await settings.cookies(`${relay.baseUrl}/admin/status`)).filter(({ name }) => name === ADMIN_COOKIE);
    expect(sent.map(({ path }) => path).sort()).toEqual(['/', '/admin/']);

    expect(await keysPageOutcome(settings)).toBe('keys listed');
    const status = await settings.evaluate(async () => (await fetch('/admin/status')).status);
    expect(status).toBe(200);
    await settings.close();
  });

  it('the tossed cookie alone opens nothing', async () => {
    const answer = await fetch(`${relay.baseUrl}/admin/status`, {
      headers: { cookie: `${ADMIN_COOKIE}=tossed-by-another-page` },
    });
    expect(answer.status).toBe(401);
  });

  it('a session is accepted wherever it stands among several ttr_admin cookies; a near miss is not', async () => {
    const session = await signedInSession();
    for (const cookie of [
      `${ADMIN_COOKIE}=x; ${ADMIN_COOKIE}=${session}`,
      `${ADMIN_COOKIE}=${session}; ${ADMIN_COOKIE}=x`,
      `other=1; ${ADMIN_COOKIE}=; ${ADMIN_COOKIE}=y; ${ADMIN_COOKIE}=${session}`,
    ]) {
      const answer = await fetch(`${relay.baseUrl}/admin/status`, { headers: { cookie } });
      expect(answer.status).toBe(200);
    }
    const forged = await fetch(`${relay.baseUrl}/admin/status`, {
      headers: { cookie: `${ADMIN_COOKIE}=x; ${ADMIN_COOKIE}=${session.slice(1)}x` },
    });
    expect(forged.status).toBe(401);
  });
});

/** A session cookie from a one-time link, as the browser receives it. */
async function signedInSession(): Promise<string> {
  const login = await fetch(relay.relay.createAdminLoginUrl(), { redirect: 'manual' });
  const setCookie = login.headers.get('set-cookie') ?? '';
  const match = new RegExp(`^${ADMIN_COOKIE}=([^;]+)`).exec(setCookie);
  expect(match).not.toBeNull();
  return match![1]!;
}
