// The player page end to end, in real Chromium at a phone's size, against the sandbox world on Foundry 13 and on 14:
// an invitation opens it, the character shows the world's values, rolls reach the chat with the right totals, the GM's
// changes show within 2 s, others' whispers never do, a revoked device is told it was signed out; a player with several
// characters picks one; another game system shows the sheet image. Then from a phone on the LAN (a network namespace):
// the page works through the LAN address and first shows the character within a second.
// UPDATE_README_IMAGES=1 also writes the README's phone screenshots (dark and light) to docs/images/.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_STORAGE_KEY } from '../../contracts/play.ts';
import { buildRenderer, PLAYER_PAGE_BUDGET_BYTES } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { createLanPeer, type LanPeer } from './lan-peer.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
/** An iPhone 14's viewport, as the README shows the page. */
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** A bonus as the page prints it, with a true minus sign. */
const signed = (value: number) => (value < 0 ? `−${-value}` : `+${value}`);

let browser: Browser;
beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  [browser] = await Promise.all([launchChromium(), buildRenderer()]);
}, 30_000);
afterAll(() => browser?.close());

/** The sandbox world connected, with its users known to the relay. */
async function worldFor(options: Parameters<typeof startRelayWithWorld>[0] = {}): Promise<WorldHarness> {
  const harness = await startRelayWithWorld(options);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await harness.admin('GET', '/admin/status')).body.worlds[0]?.players.length) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return harness;
}

/** A new invitation's link for a player, on the address of `base` (this computer's, or one on the LAN). */
async function invitationFor(harness: WorldHarness, name: string, base?: string): Promise<string> {
  const userId = harness.world.game.users.find((user) => user.name === name)!.id;
  const created = await harness.admin('POST', '/admin/invitations', { clientId: harness.clientId, userId });
  expect(created.status).toBe(201);
  const link = new URL(created.body.url);
  return `${base ?? link.origin}${link.pathname}${link.hash}`;
}

/** A phone that opens the invitation, presses Get my key and lands on the player page showing the character. */
async function signedInPhone(context: BrowserContext, link: string): Promise<Page> {
  const phone = await context.newPage();
  await phone.setViewport(PHONE);
  await phone.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  await phone.goto(link);
  await Promise.all([phone.waitForNavigation(), phone.click('#get-key')]);
  await phone.waitForSelector('#character-name');
  return phone;
}

function textOf(phone: Page, selector: string): Promise<string> {
  return phone.$eval(selector, (element) => (element.textContent ?? '').trim());
}

async function waitForText(phone: Page, expected: string, timeout = 5000): Promise<void> {
  await phone.waitForFunction((wanted) => document.body.innerText.includes(wanted), { timeout }, expected);
}

/** The GM changes a document (PUT /update). */
async function gmUpdates(harness: WorldHarness, uuid: string, data: Record<string, unknown>): Promise<void> {
  const answer = await harness.api(harness.key, 'PUT', '/update', { body: { uuid, data } });
  expect(answer.status, answer.text).toBe(200);
}

/** The newest chat message as the GM sees it. */
async function newestMessage(harness: WorldHarness): Promise<any> {
  return (await harness.get('/chat', { limit: 1 })).body.data.messages[0];
}

/** The screenshots the README shows, one of each tab, light and dark between them. */
const README_SHOTS = ['play-character-light', 'play-roll-dark', 'play-table-light'];
const README_SHOT_MAX_BYTES = 200 * 1024;

/** A screenshot of the phone, and the README's copy of it with UPDATE_README_IMAGES=1. */
async function shoot(phone: Page, name: string): Promise<void> {
  const path = join(RENDERED, `${name}.png`);
  await phone.screenshot({ path: path as `${string}.png` });
  if (UPDATE && README_SHOTS.includes(name)) copyFileSync(path, join(COMMITTED, `${name}.png`));
}

/** Width and height from a PNG's IHDR chunk, which always comes first. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each(['13.348', '14.366'])('the player page on a Foundry %s world, on a phone', (foundryVersion) => {
  let harness: WorldHarness;
  let context: BrowserContext;
  let phone: Page;
  let thorin: string;

  beforeAll(async () => {
    harness = await worldFor({ foundryVersion });
    context = await browser.createBrowserContext();
    thorin = await uuidOf(harness, 'Thorin Ironfoot');
  });
  afterAll(async () => {
    await context?.close();
    await harness?.close();
  });

  it("opens from the invitation and shows the character with the world's values", async () => {
    phone = await signedInPhone(context, await invitationFor(harness, 'Alice'));
    expect(phone.url()).toBe(`${harness.baseUrl}/play/`);
    const details = (
      await harness.get('/dnd5e/get-actor-details', { actorUuid: thorin, details: 'stats,abilities,skills' })
    ).body.data;
    const actor = (await harness.get('/get', { uuid: thorin })).body.data;
    expect(await textOf(phone, '#character-name')).toBe('Thorin Ironfoot');
    expect(await textOf(phone, '#hp-value')).toBe(String(details.stats.hp.value));
    expect(await textOf(phone, '#stat-ac .stat-value')).toBe(String(details.stats.ac));
    for (const ability of ['str', 'dex', 'con', 'int', 'wis', 'cha'])
      expect(await textOf(phone, `[data-ability="${ability}"] .ability-mod`)).toBe(
        signed(details.abilities[ability].mod),
      );
    expect(await textOf(phone, '[data-skill="ath"] .row-value')).toBe(signed(details.skills.ath.total));
    expect(await textOf(phone, '#currency')).toContain(`${actor.system.currency.gp} gp`);
    expect(await textOf(phone, '#resources')).toContain('Second Wind');
    expect(await textOf(phone, '#inventory')).toContain('Battleaxe');
    expect(await textOf(phone, '#inventory')).toContain('Equipped');
    await waitForText(phone, 'Alice');
  });

  it('posts a skill check and a saving throw to the chat with the totals it shows', async () => {
    await phone.click('[data-tab="roll"]');
    for (const [roll, label, flavor] of [
      ['skill:ath', 'Athletics check', 'Athletics Skill Check'],
      ['save:con', 'Constitution saving throw', 'Constitution Saving Throw'],
    ] as const) {
      await phone.click(`[data-roll="${roll}"]`);
      await phone.waitForFunction(
        (wanted) => document.querySelector('#result .result-label')?.textContent === wanted,
        {},
        label,
      );
      const shown = Number(await textOf(phone, '#result-total'));
      const message = await newestMessage(harness);
      expect(message.flavor).toBe(flavor);
      expect(message.rolls[0].total).toBe(shown);
      expect(message.speaker.alias).toBe('Thorin Ironfoot');
    }
  });

  it("whispers a roll for the GM's eyes as Alice's own message", async () => {
    await phone.click('#roll-mode [data-value="gm"]');
    await phone.click('[data-roll="skill:prc"]');
    await phone.waitForFunction(
      () => document.querySelector('#result .result-label')?.textContent === 'Perception check',
    );
    const shown = await textOf(phone, '#result-total');
    const message = await newestMessage(harness);
    const gm = harness.world.game.users.find((user) => user.name === 'Gamemaster')!.id;
    expect(message.author.name).toBe('Alice');
    expect(message.whisper).toContain(gm);
    expect(message.content).toContain(`<strong>${shown}</strong>`);
    await phone.click('#roll-mode [data-value="public"]');
  });

  it('shows HP the GM changes within 2 s', async () => {
    await phone.click('[data-tab="character"]');
    await phone.waitForSelector('#hp-value');
    const started = Date.now();
    await gmUpdates(harness, thorin, { 'system.attributes.hp.value': 12 });
    await phone.waitForFunction(() => document.querySelector('#hp-value')?.textContent === '12', { timeout: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never shows a whisper to another player', async () => {
    const bob = await harness.keyWith(['chat:write'], { userId: 'Bob', worldIds: [harness.clientId] });
    const carol = harness.world.game.users.find((user) => user.name === 'Carol')!.id;
    await harness.api(bob, 'POST', '/chat', { body: { content: 'Only Carol reads this', whisper: carol } });
    await harness.post('/chat', { content: 'After the whisper, for everyone' });
    await phone.click('[data-tab="table"]');
    await waitForText(phone, 'After the whisper, for everyone');
    expect(await phone.evaluate(() => document.body.innerText)).not.toContain('Only Carol reads this');
  });

  it('lets a player with several characters pick one, and follows it', async () => {
    const pip = await uuidOf(harness, 'Pip Thistledown');
    const alice = harness.world.game.users.find((user) => user.name === 'Alice')!.id;
    await gmUpdates(harness, pip, { [`ownership.${alice}`]: 3 });
    try {
      await phone.reload();
      await phone.waitForSelector('#character-picker');
      await phone.select('#character-picker', pip);
      await phone.waitForFunction(() => document.querySelector('#character-name')?.textContent === 'Pip Thistledown');
      await gmUpdates(harness, pip, { 'system.attributes.hp.value': 9 });
      await phone.waitForFunction(() => document.querySelector('#hp-value')?.textContent === '9', { timeout: 2000 });
      await phone.select('#character-picker', thorin);
      await phone.waitForFunction(() => document.querySelector('#character-name')?.textContent === 'Thorin Ironfoot');
    } finally {
      await gmUpdates(harness, pip, { [`ownership.${alice}`]: 0 });
    }
  });

  it('tells a device the GM revoked that it was signed out, and forgets its key', async () => {
    const keys = (await harness.admin('GET', '/admin/keys')).body.keys as { id: string; invitationId?: string }[];
    const device = keys.find((key) => key.invitationId !== undefined)!;
    await harness.admin('DELETE', `/admin/keys/${device.id}`);
    await phone.waitForSelector('[data-notice="signed-out"]', { timeout: 5000 });
    await waitForText(phone, 'This device was signed out');
    await waitForText(phone, "The GM revoked this device's key");
    expect(await phone.evaluate((name) => localStorage.getItem(name), PLAY_STORAGE_KEY)).toBeNull();
  });
});

describe('the player page for another game system', () => {
  let harness: WorldHarness;
  let context: BrowserContext;
  beforeAll(async () => {
    harness = await worldFor({ system: { id: 'pf2e', title: 'Pathfinder Second Edition', version: '6.0.0' } });
    context = await browser.createBrowserContext();
  });
  afterAll(async () => {
    await context?.close();
    await harness?.close();
  });

  it("shows the character's sheet as an image, and rolls any formula", async () => {
    const phone = await signedInPhone(context, await invitationFor(harness, 'Bob'));
    expect(await textOf(phone, '#character-name')).toBe('Lyra Moonwhisper');
    await phone.waitForSelector('#sheet-image');
    const loaded = await phone.$eval('#sheet-image', (image) => (image as HTMLImageElement).naturalWidth > 0);
    expect(loaded).toBe(true);
    await phone.click('[data-tab="roll"]');
    expect(await phone.$('[data-roll^="skill:"]')).toBeNull();
    await phone.click('[data-die="20"]');
    await phone.waitForSelector('#result-total');
    const message = await newestMessage(harness);
    expect(message.rolls[0].total).toBe(Number(await textOf(phone, '#result-total')));
  });
});

describe('the player page on a phone on the LAN', () => {
  let harness: WorldHarness;
  let peer: LanPeer | undefined;
  let phoneBrowser: Browser | undefined;
  beforeAll(async () => {
    harness = await worldFor();
    peer = await createLanPeer();
    if (!peer) return;
    expect((await harness.admin('PATCH', '/admin/settings', { lanAccess: true })).status).toBe(200);
    phoneBrowser = await peer.chromium();
  }, 30_000);
  afterAll(async () => {
    await phoneBrowser?.close();
    await peer?.close();
    await harness?.close();
  });

  it('works through the LAN address, and first shows the character within a second', async (test) => {
    if (!peer || !phoneBrowser) return test.skip();
    const base = `http://${peer.hostAddress}:${harness.relay.port}`;
    const phone = await signedInPhone(
      phoneBrowser.defaultBrowserContext(),
      await invitationFor(harness, 'Alice', base),
    );
    expect(phone.url()).toBe(`${base}/play/`);
    expect(await phone.evaluate(() => window.isSecureContext)).toBe(false);
    const started = Date.now();
    await phone.goto(`${base}/play/`);
    await phone.waitForSelector('#hp-value');
    const firstRender = Date.now() - started;
    expect(await textOf(phone, '#character-name')).toBe('Thorin Ironfoot');
    expect(firstRender).toBeLessThan(1000);
    console.log(`player page, first render on the LAN: ${firstRender} ms`);
    await phone.click('[data-tab="roll"]');
    await phone.click('[data-roll="skill:ste"]');
    await phone.waitForSelector('#result-total');
    expect((await newestMessage(harness)).rolls[0].total).toBe(Number(await textOf(phone, '#result-total')));

    // No service worker over http on a LAN address: the open page says itself that the relay stopped answering.
    expect(await phone.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
    await harness.relay.stop();
    await phone.waitForSelector('#not-live:not([hidden])', { timeout: 5000 });
  });
});

describe('the player page when the relay cannot be reached, and its weight', () => {
  let harness: WorldHarness;
  let context: BrowserContext;
  beforeAll(async () => {
    harness = await worldFor();
    context = await browser.createBrowserContext();
  });
  afterAll(async () => {
    await context?.close();
    await harness?.close();
  });

  it('weighs under 150 KB gzipped, HTML, script and style sheet as the relay serves them', async () => {
    const files = await Promise.all(
      ['/play/', '/play/assets/play.js', '/play/assets/play.css'].map(async (path) => {
        const answer = await fetch(new URL(path, harness.baseUrl));
        expect(answer.status).toBe(200);
        return new Uint8Array(await answer.arrayBuffer());
      }),
    );
    const weight = files.reduce((sum, file) => sum + gzipSync(file).length, 0);
    console.log(`player page, HTML + JS + CSS gzipped: ${weight} bytes`);
    expect(weight).toBeLessThan(PLAYER_PAGE_BUDGET_BYTES);
  });

  it('opens from its service worker on this computer and says the relay cannot be reached', async () => {
    const phone = await signedInPhone(context, await invitationFor(harness, 'Alice'));
    expect(await phone.evaluate(() => window.isSecureContext)).toBe(true);
    await phone.evaluate(() => navigator.serviceWorker.ready);
    await phone.reload();
    await phone.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await phone.waitForSelector('#character-name');
    await harness.relay.stop();
    await phone.reload();
    await phone.waitForSelector('[data-notice="unreachable"]', { timeout: 5000 });
    await waitForText(phone, 'The relay cannot be reached');
  });
});

describe("the README's screenshots of the player page", () => {
  let harness: WorldHarness;
  let context: BrowserContext;
  beforeAll(async () => {
    harness = await worldFor();
    context = await browser.createBrowserContext();
  });
  afterAll(async () => {
    await context?.close();
    await harness?.close();
  });

  it('shows a character, a roll and the table at a phone size, dark and light', async () => {
    const phone = await signedInPhone(context, await invitationFor(harness, 'Bob'));
    const combat = harness.world.simulate.startCombat();
    const lyra = harness.world.game.actors.find((actor) => actor.name === 'Lyra Moonwhisper')!;
    const order = (await harness.get('/encounters')).body.encounters.find((e: { id: string }) => e.id === combat.id);
    const turnOrder = [...order.combatants].sort(
      (a: { initiative: number | null }, b: { initiative: number | null }) =>
        (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity),
    );
    harness.world.game.updateDocument(combat, {
      turn: turnOrder.findIndex((combatant: { actorUuid: string }) => combatant.actorUuid === lyra.uuid),
    });
    harness.world.simulate.changeTrack();
    await gmUpdates(harness, lyra.uuid, { 'system.attributes.hp.value': 15, 'system.attributes.hp.temp': 5 });
    await harness.post('/chat', { content: 'The goblins charge from the gatehouse!' });
    for (const scheme of ['light', 'dark'] as const) {
      await phone.emulateMediaFeatures([
        { name: 'prefers-color-scheme', value: scheme },
        { name: 'prefers-reduced-motion', value: 'reduce' },
      ]);
      await phone.click('[data-tab="character"]');
      await phone.waitForFunction(() => document.querySelector('#hp-value')?.textContent === '15');
      await shoot(phone, `play-character-${scheme}`);
      await phone.click('[data-tab="roll"]');
      await phone.click('[data-roll="skill:arc"]');
      await phone.waitForSelector('#result-total');
      await shoot(phone, `play-roll-${scheme}`);
      await phone.click('[data-tab="table"]');
      await phone.waitForSelector('#your-turn');
      await shoot(phone, `play-table-${scheme}`);
    }
    for (const name of README_SHOTS) {
      const path = join(COMMITTED, `${name}.png`);
      expect(existsSync(path), `run UPDATE_README_IMAGES=1 npx vitest run test/ui/play-ui.test.ts`).toBe(true);
      expect(pngSize(path)).toEqual({ width: PHONE.width * 2, height: PHONE.height * 2 });
      expect(statSync(path).size).toBeLessThan(README_SHOT_MAX_BYTES);
    }
  });
});
