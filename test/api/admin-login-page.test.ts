// Sign-in links: a used or expired one opened in a browser shows a page that says how to get a new one (real Chromium),
// scripts still get JSON, and a running relay gives a new link to the admin (POST /admin/login-links, npm run settings).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { compiledCli } from '../harness/cli.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const run = promisify(execFile);
const CLI = await compiledCli();
const SCREENSHOTS = join(import.meta.dirname, '..', 'app', 'screenshots');

let relay: TestRelay;
let browser: Browser;

beforeAll(async () => {
  await buildRenderer();
  [relay, browser] = await Promise.all([startTestRelay(), launchChromium()]);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
});

async function usedLink(): Promise<string> {
  const link = relay.relay.createAdminLoginUrl();
  expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
  return link;
}

describe('GET /admin/login with a used or expired link', () => {
  it('shows a browser a page in the settings UI style that says how to get a new link', async () => {
    const page = await browser.newPage();
    const answer = await page.goto(await usedLink());
    expect(answer!.status()).toBe(401);
    expect(answer!.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.$eval('h1', (heading) => heading.textContent)).toBe('Sign-in link not valid');
    const text = await page.$eval('main', (main) => main.textContent!);
    expect(text).toContain('This sign-in link was already used or has expired.');
    expect(text).toContain('choose Open settings… in the Tabletop Relay tray menu');
    expect(text).toContain('with npm run serve, run npm run settings in the project folder on this computer');
    // The stylesheet loaded under the admin pages' CSP: the card has the settings UI's border radius.
    expect(await page.$eval('.card', (card) => getComputedStyle(card).borderTopLeftRadius)).not.toBe('0px');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'login-link-used.png') });
    await page.close();
  });

  it('gives scripts the JSON error as before, and keeps the page to browsers', async () => {
    const answer = await call(await usedLink(), 'GET', '');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      error: expect.stringContaining('This sign-in link was already used or has expired.'),
    });
  });

  it('opened again in the browser it signed in, goes on to the settings', async () => {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const link = relay.relay.createAdminLoginUrl();
    await page.goto(link);
    expect(new URL(page.url()).pathname).toBe('/admin/');
    const again = await page.goto(link);
    expect([200, 304]).toContain(again!.status());
    expect(new URL(page.url()).pathname).toBe('/admin/');
    expect(await page.title()).not.toContain('Sign-in link not valid');
    await context.close();
  });

  it('opened again without a session of the relay, a planted cookie included, is refused', async () => {
    const answer = await fetch(await usedLink(), {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: `ttr_admin=${'0'.repeat(64)}` },
    });
    expect(answer.status).toBe(401);
  });

  it('a used link signs no one in, whatever the caller accepts', async () => {
    const answer = await fetch(await usedLink(), { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });
});

describe('a new link from a running relay', () => {
  it('POST /admin/login-links gives the admin a link that signs in once', async () => {
    const answer = await relay.admin('POST', '/admin/login-links', {});
    expect(answer.status).toBe(201);
    expect(answer.body.url).toMatch(new RegExp(`^${relay.baseUrl}/admin/login\\?code=[0-9a-f]{48}$`));
    expect((await fetch(answer.body.url, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(answer.body.url, { redirect: 'manual' })).status).toBe(401);
  });

  it('tabletop-relay settings prints one, with the admin token from the data directory', async () => {
    // Not spawnSync: the relay answering the CLI runs in this process.
    const result = await run(
      process.execPath,
      [CLI, 'settings', '--data-dir', relay.dataDir, '--port', String(relay.relay.port)],
      { env: { ...process.env, CI: 'true' } },
    );
    const link = /(http:\/\/127\.0\.0\.1:\d+\/admin\/login\?code=[0-9a-f]+)/.exec(result.stdout)![1]!;
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
  });

  it('tabletop-relay settings (or login-link) says what to do when no relay answers', async () => {
    const failure = await run(process.execPath, [CLI, 'login-link', '--data-dir', relay.dataDir, '--port', '1']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toBe(
      "No Tabletop Relay answers at http://127.0.0.1:1: start it with 'npm run serve', or give the port it listens on with --port.\n",
    );
  });
});
