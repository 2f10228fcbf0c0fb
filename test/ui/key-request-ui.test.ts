// A tool's key request as the GM decides it: the tool asks over loopback (POST /auth/key-request), the request appears
// in the settings UI in real Chromium, the GM narrows and approves or denies, and the tool's poll says what it got.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { call } from '../harness/http.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { openSettings } from './browser-page.ts';
import { createLanPeer } from './lan-peer.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
/** The most a request may take to reach the GM's screen. */
const SHOWN_WITHIN_MS = 1000;

// Another machine on the LAN; without namespaces (outside CI only) the test that needs it is skipped.
const lanPeer = await createLanPeer();
let harness: WorldHarness;
let browser: Browser;
let page: Page;

interface Asked {
  code: string;
  pollUrl: string;
}

async function askForKey(body: Record<string, unknown>): Promise<Asked> {
  const answer = await call(harness.baseUrl, 'POST', '/auth/key-request', { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as Asked;
}

async function poll(asked: Asked): Promise<{ status: number; body: any }> {
  const answer = await fetch(asked.pollUrl);
  return { status: answer.status, body: await answer.json() };
}

const card = (code: string) => `.key-request[data-code="${code}"]`;

async function isChecked(selector: string): Promise<boolean> {
  return page.$eval(selector, (box) => (box as HTMLInputElement).checked);
}

async function waitForCard(code: string, timeout = SHOWN_WITHIN_MS): Promise<void> {
  await page.waitForSelector(`${card(code)} [data-action="approve"]`, { timeout });
}

async function waitForNoCard(code: string): Promise<void> {
  await page.waitForFunction((selector) => !document.querySelector(selector), { timeout: 3000 }, card(code));
}

async function badge(): Promise<string | null> {
  return page.$eval('#pair-badge', (element) => ((element as HTMLElement).hidden ? null : element.textContent));
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([
    startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 100 } }),
    launchChromium(),
  ]);
  page = await openSettings(browser, harness.relay.createAdminLoginUrl());
  await page.waitForSelector(`.world[data-client-id="${harness.clientId}"]`);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await lanPeer?.close();
});

describe('a key request in the settings UI', () => {
  it('appears within a second; approved with a scope unticked, the key works at once for what was granted only', async () => {
    const started = Date.now();
    const asked = await askForKey({
      appName: 'Stream Deck',
      appDescription: 'Rolls and turns from the buttons on your desk',
      appUrl: 'https://example.com/stream-deck',
      scopes: ['clients:read', 'roll:execute', 'entity:read', 'execute-js'],
    });
    await waitForCard(asked.code);
    expect(Date.now() - started).toBeLessThan(SHOWN_WITHIN_MS + 200);

    const shown = await page.$eval(card(asked.code), (element) => (element as HTMLElement).innerText);
    for (const text of ['Stream Deck', 'Rolls and turns from the buttons on your desk', 'example.com/stream-deck'])
      expect(shown).toContain(text);
    expect(await page.$eval(`${card(asked.code)} [data-key-request-code]`, (code) => code.textContent)).toBe(
      asked.code,
    );
    expect(await page.$eval(`${card(asked.code)} .key-request-source`, (source) => source.textContent)).toMatch(
      /127\.0\.0\.1/,
    );
    expect(await badge()).toBe('1');

    // Reading scopes and the ones that change the world come ticked, each change flagged; execute-js only when ticked.
    const box = (scope: string) => `${card(asked.code)} input[name="scopes"][value="${scope}"]`;
    for (const scope of ['clients:read', 'roll:execute', 'entity:read']) expect(await isChecked(box(scope))).toBe(true);
    expect(await isChecked(box('execute-js'))).toBe(false);
    const flagOf = (scope: string) =>
      page.$eval(box(scope), (input) => input.closest('label')?.querySelector('.scope-flag')?.textContent ?? null);
    expect(await flagOf('roll:execute')).toBe('Changes the world');
    expect(await flagOf('execute-js')).toBe('Runs any script as the GM');
    expect(await flagOf('clients:read')).toBeNull();

    // What the GM ticked survives the status redrawing around it (a call changes the counters the page shows).
    await page.click(box('entity:read'));
    const calls = await page.$eval('.stat-value', (value) => value.textContent);
    expect((await harness.get('/clients')).status).toBe(200);
    await page.waitForFunction((before) => document.querySelector('.stat-value')?.textContent !== before, {}, calls);
    expect(await isChecked(box('entity:read'))).toBe(false);

    await page.click(`${card(asked.code)} [data-action="approve"]`);
    await waitForNoCard(asked.code);
    expect(await badge()).toBeNull();

    const collected = await poll(asked);
    expect(collected.status).toBe(200);
    expect(collected.body).toMatchObject({ status: 'approved' });
    expect([...collected.body.scopes].sort()).toEqual(['clients:read', 'roll:execute']);
    const key: string = collected.body.apiKey;

    expect((await harness.api(key, 'GET', '/clients')).status).toBe(200);
    const roll = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20' } });
    expect(roll.status, roll.text).toBe(200);
    const removed = await harness.api(key, 'GET', '/get', { query: { uuid: 'Actor.none' } });
    expect(removed.status).toBe(403);
    expect(removed.headers.get('x-required-scope')).toBe('entity:read');
    const dangerous = await harness.api(key, 'POST', '/execute-js', { body: { script: 'return 1' } });
    expect(dangerous.status).toBe(403);

    // Delivered once: the key is listed under the name the GM saw, and a second poll finds nothing.
    const keys = (await harness.admin('GET', '/admin/keys')).body.keys as { name: string }[];
    expect(keys.map((entry) => entry.name)).toContain('Stream Deck');
    expect((await poll(asked)).status).toBe(404);
  }, 20_000);

  it('binds the key to the player and world the GM chose', async () => {
    const asked = await askForKey({ appName: 'Player companion', scopes: ['clients:read'] });
    await waitForCard(asked.code);
    const player = harness.world.playerList().find((user) => user.role === 1)!;
    await page.select(`${card(asked.code)} select[name="userId"]`, player.id);
    await page.click(`${card(asked.code)} input[name="clientIds"][value="${harness.clientId}"]`);
    await page.click(`${card(asked.code)} [data-action="approve"]`);
    await waitForNoCard(asked.code);

    const collected = (await poll(asked)).body;
    expect(collected).toMatchObject({ status: 'approved', userId: player.id, clientIds: [harness.clientId] });
  });

  it('with every scope unticked, Approve says what to tick and the request still waits', async () => {
    const asked = await askForKey({ appName: 'Dice tray', scopes: ['roll:read'] });
    await waitForCard(asked.code);
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.click(`${card(asked.code)} input[name="scopes"][value="roll:read"]`);
    await page.click(`${card(asked.code)} [data-action="approve"]`);
    await page.waitForFunction(() => document.getElementById('toasts')?.textContent?.includes('Tick at least one'));
    expect(
      await page.$eval(
        `${card(asked.code)} [data-action="approve"]`,
        (button) => (button as HTMLButtonElement).disabled,
      ),
    ).toBe(false);
    expect(await poll(asked)).toMatchObject({ status: 200, body: { status: 'pending' } });
    await page.click(`${card(asked.code)} [data-action="deny"]`);
    await waitForNoCard(asked.code);
  });

  it('denied from the UI, the tool is told so by its poll', async () => {
    const asked = await askForKey({ appName: 'Unknown bot', scopes: ['chat:write'] });
    await waitForCard(asked.code);
    expect(await poll(asked)).toMatchObject({ status: 200, body: { status: 'pending', code: asked.code } });
    await page.click(`${card(asked.code)} [data-action="deny"]`);
    await waitForNoCard(asked.code);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await poll(asked)).toMatchObject({ status: 200, body: { status: 'denied' } });
  });

  it("shows on the API keys page too, where the tool's approvalUrl leads, and the approved key joins the list", async () => {
    const asked = (await askForKey({ appName: 'Initiative tracker', scopes: ['encounter:read'] })) as Asked & {
      approvalUrl: string;
    };
    expect(new URL(asked.approvalUrl).hash).toBe('#keys');
    await page.goto(asked.approvalUrl);
    await waitForCard(asked.code, 3000);
    expect(await page.$eval('#page-title', (title) => title.textContent)).toBe('API keys');
    await page.$eval(`${card(asked.code)} input[name="name"]`, (input) => ((input as HTMLInputElement).value = ''));
    await page.type(`${card(asked.code)} input[name="name"]`, 'Initiative on the TV');
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    await page.click(`${card(asked.code)} [data-action="approve"]`);
    await waitForNoCard(asked.code);
    await page.waitForFunction(() => document.body.innerText.includes('Initiative on the TV'), { timeout: 3000 });
    expect((await poll(asked)).body).toMatchObject({ status: 'approved', scopes: ['encounter:read'] });
  });

  it('opens on the request the desktop notification names, signed in through a one-time link', async () => {
    const asked = await askForKey({ appName: 'Foundry bot', scopes: ['chat:read'] });
    await waitForCard(asked.code);
    await page.goto(`${harness.relay.createAdminLoginUrl()}#status/key-request/${asked.code}`);
    await page.waitForFunction(
      (code) => (document.activeElement as HTMLElement | null)?.dataset.code === code,
      { timeout: 3000 },
      asked.code,
    );
    expect(await page.$eval('#page-title', (title) => title.textContent)).toBe('Status');
    await page.screenshot({ path: join(SCREENSHOTS, 'key-request-focused.png') as `${string}.png` });
    await page.click(`${card(asked.code)} [data-action="deny"]`);
    await waitForNoCard(asked.code);
  });

  it.skipIf(!lanPeer)(
    'one click denies every request from another machine, and the GM can allow it again',
    async () => {
      const local = await askForKey({ appName: 'Companion', scopes: ['chat:read'] });
      await setLanAccess(harness, true);
      const ask = {
        method: 'POST',
        path: '/auth/key-request',
        body: { appName: 'Stranger bot', scopes: ['chat:read'] },
      };
      const [asked, paired] = await fromLan(harness, lanPeer!, [
        ask,
        { method: 'POST', path: '/auth/pair-request', body: { worldId: 'stranger', worldTitle: 'Stranger world' } },
      ]);
      const code = asked!.json.code as string;
      await page.goto(`${harness.baseUrl}/admin/#status`);
      await waitForCard(code);
      const pairCard = `.pair-request[data-code="${paired!.json.code}"]`;
      await page.waitForSelector(pairCard);
      // This computer's requests are the GM's own: they are denied one by one.
      expect(await page.$(`${card(local.code)} [data-action="deny-address"]`)).toBeNull();
      expect(await page.$(`${pairCard} [data-action="deny-address"]`)).not.toBeNull();

      await page.click(`${card(code)} [data-action="deny-address"]`);
      await waitForNoCard(code);
      await page.waitForFunction((selector) => !document.querySelector(selector), { timeout: 3000 }, pairCard);
      const listed = `#denied-addresses [data-address="${lanPeer!.peerAddress}"]`;
      await page.waitForSelector(listed, { timeout: 3000 });
      await page.screenshot({ path: join(SCREENSHOTS, 'denied-address.png') as `${string}.png` });
      expect((await fromLan(harness, lanPeer!, [ask]))[0]!.status).toBe(403);

      await page.click(`${listed} button`);
      await page.waitForFunction(() => !document.querySelector('#denied-addresses'), { timeout: 3000 });
      const [again] = await fromLan(harness, lanPeer!, [ask]);
      expect(again!.status).toBe(201);
      await harness.admin('POST', `/admin/key-requests/${again!.json.code}/deny`);
      await harness.admin('POST', `/admin/key-requests/${local.code}/deny`);
      await setLanAccess(harness, false);
    },
    20_000,
  );
});
