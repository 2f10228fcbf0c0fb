// The README's screenshots, made by the settings UI in real Chromium: a world asking to pair, a tool asking for a key,
// a key just made, and the changes tools made to the world.
// Each run renders them into test/ui/screenshots/; UPDATE_README_IMAGES=1 also writes them to docs/images/, the committed
// copies the README shows (a pairing code, a key and a port differ on every run, so a plain test run leaves git clean).
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import {
  connectSandbox,
  createSandboxWorld,
  pairSandbox,
  type SandboxLink,
  type SandboxWorld,
} from '../../sandbox/index.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openSettings } from './browser-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const WIDTH = 1024;
const HEIGHT = 640;
const MAX_BYTES = 200 * 1024;
const UPDATE = process.env.UPDATE_README_IMAGES === '1';

let relay: TestRelay;
let browser: Browser;
let page: Page;
let link: SandboxLink | undefined;
let world: SandboxWorld;

async function capture(name: string): Promise<string> {
  await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  const path = join(RENDERED, `readme-${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  if (UPDATE) copyFileSync(path, join(COMMITTED, `${name}.png`));
  return path;
}

/** Width and height from the PNG's IHDR chunk, which always comes first. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function expectReadmeImage(name: string): void {
  const path = join(COMMITTED, `${name}.png`);
  expect(
    existsSync(path),
    `docs/images/${name}.png is missing: run UPDATE_README_IMAGES=1 npx vitest run test/ui/readme-images.test.ts`,
  ).toBe(true);
  expect(pngSize(path)).toEqual({ width: WIDTH, height: HEIGHT });
  expect(statSync(path).size).toBeLessThan(MAX_BYTES);
}

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  mkdirSync(COMMITTED, { recursive: true });
  await buildRenderer();
  [relay, browser] = await Promise.all([startTestRelay(), launchChromium()]);
  page = await openSettings(browser, relay.relay.createAdminLoginUrl(), { width: WIDTH, height: HEIGHT });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await relay?.close();
});

describe('README screenshots', () => {
  it('a world asking to pair, with Approve, on the Status page', async () => {
    world = createSandboxWorld({ seed: 42 });
    const paired = pairSandbox(world, { httpBase: relay.baseUrl, pollIntervalMs: 50, timeoutMs: 15_000 });
    await page.waitForSelector('.pair-request [data-action="approve"]', { timeout: 5000 });
    expect(await page.evaluate(() => document.body.innerText)).toContain(world.metadata.worldTitle);
    pngSize(await capture('pair-request'));
    expectReadmeImage('pair-request');

    await page.click('.pair-request [data-action="approve"]');
    const result = await paired;
    link = await connectSandbox(world, { relayUrl: result.relayUrl, clientId: result.clientId, token: result.token });
    await page.waitForSelector(`.world[data-client-id="${result.clientId}"]`, { timeout: 5000 });
  }, 20_000);

  it('a tool asking for an API key, with its code, scopes and bindings, on the Status page', async () => {
    const asked = await fetch(`${relay.baseUrl}/auth/key-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'Stream Deck',
        appDescription: 'Rolls, the next turn and the session music from the buttons on your desk',
        appUrl: 'https://github.com/tabletop-relay/stream-deck',
        scopes: ['world:info', 'roll:read', 'roll:execute', 'encounter:manage', 'playlist:control', 'execute-js'],
      }),
    });
    expect(asked.status).toBe(201);
    const { code } = (await asked.json()) as { code: string };
    const card = `.key-request[data-code="${code}"]`;
    await page.waitForSelector(`${card} [data-action="approve"]`, { timeout: 5000 });
    await page.evaluate(() => {
      const top = document.querySelector('.key-requests-card')!.getBoundingClientRect().top;
      window.scrollTo(0, window.scrollY + top - 16);
    });
    pngSize(await capture('key-request'));
    expectReadmeImage('key-request');

    await page.click(`${card} [data-action="deny"]`);
    await page.waitForFunction((selector) => !document.querySelector(selector), { timeout: 5000 }, card);
  });

  it('a key for a Stream Deck, made in the form and shown once on the API keys page', async () => {
    await relay.admin('POST', '/admin/keys', { name: 'OBS overlay', scopes: ['events:subscribe', 'roll:read'] });
    await page.click('a[data-page="keys"]');
    await page.waitForFunction(() => document.body.innerText.includes('OBS overlay'), { timeout: 5000 });
    await page.click('#new-key');
    await page.waitForSelector('#key-name');
    await page.type('#key-name', 'Stream Deck');
    await page.click('[data-preset="stream-deck"]');
    await page.click('.key-form button[type="submit"]');
    await page.waitForSelector('#revealed-key');
    expect(await page.$eval('#revealed-key', (input) => (input as HTMLInputElement).value)).toMatch(/^ttr_/);
    await page.evaluate(() => window.scrollTo(0, 0));
    pngSize(await capture('api-keys'));
    expectReadmeImage('api-keys');
  });

  it('the Changes view: what tools changed, document by document, each with Undo', async () => {
    const actor = (name: string) => world.game.actors.find((candidate) => candidate.name === name)!.uuid;
    const asKey = async (name: string, method: string, path: string, body: Record<string, unknown>) => {
      const answer = await relay.api(await relay.createKey({ name }), method, path, { body });
      expect(answer.status, answer.text).toBe(200);
    };
    const hp = 'system.attributes.hp.value';
    await asKey('Discord bot', 'POST', '/give', {
      fromUuid: actor('Thorin Ironfoot'),
      toUuid: actor('Lyra Moonwhisper'),
      itemName: 'Battleaxe',
    });
    await asKey('Assistant', 'PUT', '/update', {
      uuid: actor('Goblin'),
      data: { name: 'Goblin Boss', 'system.attributes.ac.flat': 17 },
    });
    await asKey('Stream Deck', 'POST', '/decrease', { uuid: actor('Pip Thistledown'), attribute: hp, amount: 4 });
    await page.click('a[data-page="activity"]');
    await page.click('a.tab[href="#activity/changes"]');
    await page.waitForFunction(() => document.querySelectorAll('.change').length >= 3, { timeout: 5000 });
    expect(await page.$eval('.changes', (list) => (list as HTMLElement).innerText)).toMatch(/Pip Thistledown/);
    pngSize(await capture('changes'));
    expectReadmeImage('changes');
  });

  it('are the ones the README shows', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    for (const name of ['pair-request', 'key-request', 'api-keys', 'changes'])
      expect(readme).toContain(`](docs/images/${name}.png)`);
  });
});
