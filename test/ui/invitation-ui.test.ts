// "Invite a player" in real Chromium: the GM makes an invitation on the Players page, the QR code read back from the
// canvas is the link shown beside it, and a second browser (the player's) opens the link and gets a key that works.
// UPDATE_README_IMAGES=1 also writes the card's screenshot to docs/images/invitation.png.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_STORAGE_KEY } from '../../contracts/play.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { call } from '../harness/http.ts';
import { callFrom } from '../harness/from-address.ts';
import { openSettings } from './browser-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
// jsqr is CommonJS whose types declare an ES default export: under Node's rules the default import is the module.
const jsQR = jsQRModule.default;

let harness: WorldHarness;
let browser: Browser;
let page: Page;
/** The key Alice's phone kept from her invitation. */
let phoneKey: string;

async function waitForText(target: Page, expected: string, timeout = 5000): Promise<void> {
  await target.waitForFunction((wanted) => document.body.innerText.includes(wanted), { timeout }, expected);
}

/** The QR code on the canvas, decoded from its pixels. */
async function decodedQrCode(): Promise<string | undefined> {
  const image = await page.$eval('#invitation-qr', (canvas) => {
    const element = canvas as HTMLCanvasElement;
    const pixels = element.getContext('2d')!.getImageData(0, 0, element.width, element.height);
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) };
  });
  return jsQR(Uint8ClampedArray.from(image.data), image.width, image.height)?.data;
}

/** The status GET /admin/invitations gives the newest invitation, the one the test just made. */
async function newestInvitationStatus(): Promise<string> {
  return (await harness.admin('GET', '/admin/invitations')).body.invitations.at(-1).status;
}

async function aliceId(): Promise<string> {
  const world = (await harness.admin('GET', '/admin/status')).body.worlds[0];
  return world.players.find((player: { name: string }) => player.name === 'Alice').id;
}

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([startRelayWithWorld(), launchChromium()]);
  page = await openSettings(browser, harness.relay.createAdminLoginUrl(), { width: 1024, height: 640 });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('Players: invite a player', () => {
  it('says that phones cannot reach the relay while LAN access is off, and turns it on', async () => {
    await page.click('a[data-page="players"]');
    await page.waitForSelector('#lan-off');
    await waitForText(page, "Players' phones cannot reach this relay while LAN access is off");
    await page.click('#turn-on-lan');
    await page.waitForFunction(() => !document.querySelector('#lan-off'), { timeout: 5000 });
    expect((await harness.admin('GET', '/admin/settings')).body.lanAccess).toBe(true);
  });

  it('shows the invitation as a QR code that reads back as the link beside it', async () => {
    await page.waitForSelector('#invite-player option');
    const players = await page.$$eval('#invite-player option', (options) =>
      options.map((option) => option.textContent),
    );
    expect(players).toContain('Alice · Player');
    expect(players.some((player) => player?.startsWith('Gamemaster'))).toBe(false);
    await page.select('#invite-player', await aliceId());
    await page.type('#invite-name', "Alice's phone");
    await page.click('#create-invitation');
    await page.waitForSelector('#invitation-qr');
    const link = await page.$eval('#invitation-link', (input) => (input as HTMLInputElement).value);
    const lanUrls: string[] = (await harness.admin('GET', '/admin/status')).body.lan.urls;
    const base = lanUrls[0] ?? harness.baseUrl;
    expect(link).toMatch(new RegExp(`^${base.replace(/[.]/g, '\\.')}/invite#ttr_inv_[\\w-]{43}$`));
    expect(await decodedQrCode()).toBe(link);
    await waitForText(page, 'Waiting for Alice to open it');
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    const shot = join(RENDERED, 'invitation.png');
    await page.screenshot({ path: shot as `${string}.png` });
    if (UPDATE) copyFileSync(shot, join(COMMITTED, 'invitation.png'));
  });

  it("the player's browser opens the link, keeps a key that works at once and lands on the player page", async () => {
    const link = await page.$eval('#invitation-link', (input) => (input as HTMLInputElement).value);
    const player = await browser.createBrowserContext();
    try {
      const phone = await player.newPage();
      await phone.setViewport({ width: 390, height: 760 });
      await phone.goto(link);
      expect(phone.url()).not.toContain('#');
      await phone.waitForSelector('main[data-state="ready"]');
      await waitForText(phone, 'For Alice in');
      await waitForText(phone, 'This device then shows your character, rolls your dice and follows the table');
      // Opening the page uses nothing: only the press does.
      expect(await newestInvitationStatus()).toBe('open');
      await Promise.all([phone.waitForNavigation(), phone.click('#get-key')]);
      expect(phone.url()).toBe(`${new URL(link).origin}/play/`);
      await phone.waitForSelector('#character-name');
      expect(await phone.$eval('#character-name', (name) => name.textContent)).toBe('Thorin Ironfoot');
      const kept = await phone.evaluate(
        (storageKey) => JSON.parse(localStorage.getItem(storageKey) ?? '{}'),
        PLAY_STORAGE_KEY,
      );
      expect(kept.relayUrl).toBe(new URL(link).origin);
      expect(kept.userName).toBe('Alice');
      await phone.screenshot({ path: join(RENDERED, 'invitation-phone.png') as `${string}.png` });
      const roll = await call(kept.relayUrl, 'POST', '/roll', {
        body: { formula: '1d20' },
        headers: { 'x-api-key': kept.key },
      });
      expect(roll.status).toBe(200);
      phoneKey = kept.key;
      await waitForText(page, "Opened: Alice's device \"Alice's phone\" is under Players' devices");

      // Opened again, it says at once that it was used, and offers no button that could not work.
      await phone.goto(link);
      await phone.waitForSelector('main[data-state="failed"]');
      await waitForText(phone, 'This invitation was already used: ask the GM for a new invitation');
      expect(await phone.$eval('#get-key', (button) => (button as HTMLElement).checkVisibility())).toBe(false);
    } finally {
      await player.close();
    }
  });

  it("lists each player's devices with their last use, and revokes one at once", async () => {
    // Drawn afresh: the phone used its key after the page last looked.
    await page.click('a[data-page="keys"]');
    await page.click('a[data-page="players"]');
    await page.waitForSelector('#devices tbody tr');
    const row = await page.$eval('#devices tbody tr', (element) => (element as HTMLElement).innerText);
    expect(row).toContain('Alice');
    expect(row).toContain("Alice's phone");
    expect(row).toContain('just now');
    await page.$eval('#devices', (card) => card.scrollIntoView());
    await page.screenshot({ path: join(RENDERED, 'players-devices.png') as `${string}.png` });
    await page.click('#devices tbody tr .button-danger-outline');
    await page.waitForSelector('dialog[open] .button-danger');
    await waitForText(page, 'the player page on that device says it was signed out');
    await page.click('dialog[open] .button-danger');
    await page.waitForFunction(() => !document.querySelector('#devices tbody tr'), { timeout: 5000 });
    const refused = await call(harness.baseUrl, 'GET', '/play/me', { headers: { 'x-api-key': phoneKey } });
    expect(refused.status).toBe(401);
  });

  it('shows the key to copy in a browser that keeps nothing for the page', async () => {
    await page.select('#invite-player', await aliceId());
    await page.click('#create-invitation');
    await page.waitForFunction(() => document.querySelector('#invitation-state')?.textContent?.includes('Waiting'));
    const link = await page.$eval('#invitation-link', (input) => (input as HTMLInputElement).value);
    const player = await browser.createBrowserContext();
    try {
      const phone = await player.newPage();
      // A private tab that refuses storage.
      await phone.evaluateOnNewDocument(() => {
        Storage.prototype.setItem = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      });
      await phone.goto(link);
      await phone.click('#get-key');
      await phone.waitForSelector('main[data-state="done"]');
      expect(phone.url()).toBe(`${new URL(link).origin}/invite`);
      await waitForText(phone, 'This browser keeps nothing for the page');
      const key = await phone.$eval('#api-key', (input) => (input as HTMLInputElement).value);
      expect((await call(harness.baseUrl, 'GET', '/play/me', { headers: { 'x-api-key': key } })).status).toBe(200);
    } finally {
      await player.close();
    }
  });

  it('lists open invitations, and a revoked one opens to nothing', async () => {
    await page.select('#invite-player', await aliceId());
    await page.click('#create-invitation');
    await page.waitForFunction(() => document.querySelector('#invitation-state')?.textContent?.includes('Waiting'));
    const link = await page.$eval('#invitation-link', (input) => (input as HTMLInputElement).value);
    await page.waitForSelector('#open-invitations tbody tr');
    // A link works a week unless the GM chose otherwise, and the list says when it stops.
    expect(await page.$eval('#open-invitations tbody tr', (row) => (row as HTMLElement).innerText)).toContain(
      'in 7 days',
    );
    await page.click('#open-invitations tbody tr .button-danger-outline');
    await page.waitForSelector('dialog[open] .button-danger');
    await page.click('dialog[open] .button-danger');
    await page.waitForFunction(() => !document.querySelector('#open-invitations'), { timeout: 5000 });
    // From an address of its own: this file's earlier pages spent 127.0.0.1's tries (5, then one every 6 s).
    const refused = await callFrom('127.0.0.2', new URL(link).origin, 'POST', '/auth/invitation', {
      secret: new URL(link).hash.slice(1),
    });
    expect(refused.status).toBe(404);
  });
});
