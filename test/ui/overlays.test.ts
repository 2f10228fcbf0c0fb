// The OBS overlays in real Chromium, each opened through its overlay link against a relay and the sandbox world: a
// transparent page, live within half a second of the world, quiet once its link is revoked, private to its player.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox } from '../../sandbox/index.ts';
import { evaluateRoll } from '../../sandbox/dice.ts';
import { createChatMessage } from '../../sandbox/world/chat.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { alphaAt, makeOverlayLink, openOverlay, overlayText, shownWithin } from './overlay-page.ts';

/** How soon a change in the world must show in an overlay, and a revoked link must go quiet. */
const LIVE_MS = 500;
const REVOKED_MS = 1000;

let harness: WorldHarness;
let browser: Browser;
const pages: Page[] = [];

async function open(...args: Parameters<typeof openOverlay>): Promise<Page> {
  const page = await openOverlay(...args);
  pages.push(page);
  return page;
}

function userId(name: string): string {
  const user = harness.world.game.users.contents.find((candidate) => candidate.name === name);
  if (!user) throw new Error(`no user ${name}`);
  return user.id;
}

beforeAll(async () => {
  await buildRenderer();
  [harness, browser] = await Promise.all([startRelayWithWorld(), launchChromium()]);
}, 30_000);

afterEach(async () => {
  // Chromium opens at most six connections to one host, and each overlay's stream holds one.
  await Promise.all(pages.splice(0).map((page) => page.close()));
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('OBS overlays through their link', () => {
  it('dice: a transparent page, and a roll made at the table shows within 500 ms', async () => {
    const made = await makeOverlayLink(harness, 'dice');
    const page = await open(browser, made);
    const since = Date.now();
    harness.world.simulate.playerRoll('Alice', '1d20+5', 'Battleaxe attack');
    expect(await shownWithin(page, 'Battleaxe attack', since)).toBeLessThan(LIVE_MS);
    const roll = await page.$eval('.roll:last-child', (entry) => ({
      who: entry.querySelector('.who')?.textContent,
      formula: entry.querySelector('.formula')?.textContent,
      faces: entry.querySelectorAll('.die').length,
    }));
    expect(roll).toEqual({ who: 'Thorin Ironfoot', formula: '1d20+5', faces: 1 });

    // The card is drawn once it slid in, and the page around it stays see-through.
    await page.$eval('.roll:last-child', (entry) =>
      Promise.all(entry.getAnimations().map((animation) => animation.finished)),
    );
    const shown = await page.screenshot({ omitBackground: true });
    const card = await page.$eval('.roll:last-child', (entry) => {
      const box = entry.getBoundingClientRect();
      return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)] as [number, number];
    });
    const { width, height } = made.size;
    const around: [number, number][] = [
      [0, 0],
      [width - 1, 0],
      [width / 2, 8],
      [0, height / 2],
    ];
    const [cardAlpha, ...aroundAlpha] = await alphaAt(browser, shown, [card, ...around]);
    expect(cardAlpha).toBeGreaterThan(150);
    expect(aroundAlpha).toEqual([0, 0, 0, 0]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight)).toBe(true);
  });

  it('dice: a natural 20 is marked critical and a natural 1 a fumble, every other roll neither', async () => {
    const page = await open(browser, await makeOverlayLink(harness, 'dice'), { max: '50', hold: '0' });
    const wanted = new Map<number, string>();
    for (let attempt = 0; attempt < 200 && wanted.size < 2; attempt += 1) {
      const flavor = `Luck ${attempt}`;
      const message = harness.world.simulate.playerRoll('Bob', '1d20', flavor);
      const total = (message.source.rolls as { total: number }[])[0]!.total;
      if ((total === 20 || total === 1) && !wanted.has(total)) wanted.set(total, flavor);
    }
    expect([...wanted.keys()].sort()).toEqual([1, 20]);
    await shownWithin(page, wanted.get(1)!, Date.now());
    await shownWithin(page, wanted.get(20)!, Date.now());
    const marked = await page.$$eval('.roll', (entries) =>
      entries
        .filter((entry) => entry.classList.contains('critical') || entry.classList.contains('fumble'))
        .map(
          (entry) => `${entry.className.match(/critical|fumble/)![0]} ${entry.querySelector('.flavor')?.textContent}`,
        ),
    );
    expect(marked).toContain(`critical ${wanted.get(20)}`);
    expect(marked).toContain(`fumble ${wanted.get(1)}`);
    const lines = await page.$$eval('.roll', (entries) =>
      entries.map(
        (entry) => `${entry.querySelector('.flavor')?.textContent}=${entry.querySelector('.total-value')?.textContent}`,
      ),
    );
    for (const line of lines.filter((entry) => entry.startsWith('Luck'))) {
      const [flavor, total] = line.split('=');
      const expected = total === '20' ? 'critical' : total === '1' ? 'fumble' : undefined;
      expect(marked.filter((entry) => entry.endsWith(` ${flavor}`)).map((entry) => entry.split(' ')[0])).toEqual(
        expected ? [expected] : [],
      );
    }
  });

  it('initiative: a turn change and an HP change show within 500 ms, the current turn highlighted', async () => {
    harness.world.simulate.startCombat();
    const page = await open(browser, await makeOverlayLink(harness, 'initiative', { hpBars: true }));
    await page.waitForSelector('.combatant.current');
    const current = () => page.$eval('.combatant.current .name', (name) => name.textContent ?? '');
    const before = await current();

    const since = Date.now();
    harness.world.simulate.nextTurn();
    await page.waitForFunction(
      (previous) => document.querySelector('.combatant.current .name')?.textContent !== previous,
      { timeout: 2000, polling: 'mutation' },
      before,
    );
    expect(Date.now() - since).toBeLessThan(LIVE_MS);
    expect(await page.$$eval('.combatant.current', (rows) => rows.length)).toBe(1);
    expect(await page.$eval('.round', (round) => round.textContent)).toMatch(/^Round \d+$/);

    const thorin = (await uuidOf(harness, 'Thorin Ironfoot')).split('.')[1]!;
    const row = `.combatant[data-id] .name`;
    expect(await page.$$eval(row, (names) => names.map((name) => name.textContent))).toContain('Thorin Ironfoot');
    const width = () =>
      page.evaluate(() => {
        const names = [...document.querySelectorAll('.combatant .name')];
        const thorinRow = names.find((name) => name.textContent === 'Thorin Ironfoot')?.closest('.combatant');
        return (thorinRow?.querySelector('.meter-fill') as HTMLElement | null)?.style.width ?? '';
      });
    expect(await width()).toBe('100%');
    const hurt = Date.now();
    harness.world.simulate.updateActor(thorin, { 'system.attributes.hp.value': 17 });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.combatant')].some(
          (entry) =>
            entry.querySelector('.name')?.textContent === 'Thorin Ironfoot' &&
            (entry.querySelector('.meter-fill') as HTMLElement | null)?.style.width === '50%',
        ),
      { timeout: 2000, polling: 'mutation' },
    );
    expect(Date.now() - hurt).toBeLessThan(LIVE_MS);
    harness.world.simulate.endCombat();
    await page.waitForFunction(() => document.querySelector('.overlay-root')?.childElementCount === 0, {
      timeout: 2000,
    });
  });

  it('now playing: a track started in the world shows within 500 ms', async () => {
    const page = await open(browser, await makeOverlayLink(harness, 'now-playing'));
    expect(await overlayText(page)).toBe('');
    const since = Date.now();
    const played = harness.post('/playlist/play', {
      clientId: harness.clientId,
      playlistName: 'Battle Music',
      soundName: 'Goblin War Drums',
    });
    expect(await shownWithin(page, 'Goblin War Drums', since)).toBeLessThan(LIVE_MS);
    expect((await played).status).toBe(200);
    expect(await overlayText(page)).toContain('Battle Music');
    await harness.post('/playlist/stop', { clientId: harness.clientId, playlistName: 'Battle Music' });
  });

  it("character card: an HP change of its actor shows within 500 ms, with name, AC and the system's fields", async () => {
    const actorUuid = await uuidOf(harness, 'Lyra Moonwhisper');
    const page = await open(browser, await makeOverlayLink(harness, 'character-card', { actorUuid }));
    await page.waitForSelector('.character .hp-value');
    expect(await page.$eval('.character .name', (name) => name.textContent)).toBe('Lyra Moonwhisper');
    expect(await page.$$eval('.armour-value', (values) => values.length)).toBe(1);
    const since = Date.now();
    harness.world.simulate.updateActor(actorUuid.split('.')[1]!, { 'system.attributes.hp.value': 9 });
    expect(await shownWithin(page, '9 / 22', since)).toBeLessThan(LIVE_MS);
  });

  it('character card as the sheet image: loaded through the link, and loaded again when the actor changes', async () => {
    const actorUuid = await uuidOf(harness, 'Lyra Moonwhisper');
    const page = await open(browser, await makeOverlayLink(harness, 'character-card', { actorUuid }), { sheet: '1' });
    const sheet = () =>
      page.evaluate(() => {
        const image = document.querySelector<HTMLImageElement>('.overlay-root img.sheet');
        return image && image.complete ? { src: image.src, width: image.naturalWidth } : undefined;
      });
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.sheet')?.naturalWidth, {
      timeout: 5000,
    });
    const first = (await sheet())!;
    expect(first.width).toBeGreaterThan(100);
    expect(new URL(first.src).pathname).toBe('/overlays/character-card/sheet');
    expect(await page.$$('.character')).toEqual([]);

    harness.world.simulate.updateActor(actorUuid.split('.')[1]!, { 'system.attributes.hp.value': 4 });
    await page.waitForFunction(
      (before) => {
        const image = document.querySelector<HTMLImageElement>('img.sheet');
        return image !== null && image.src !== before && image.naturalWidth > 0;
      },
      { timeout: 3000 },
      first.src,
    );
    expect(await page.$$eval('.overlay-root img', (images) => images.length)).toBe(1);
  });

  it('chat: a message said at the table shows within 500 ms, as text, never as HTML', async () => {
    const page = await open(browser, await makeOverlayLink(harness, 'chat'));
    const since = Date.now();
    harness.world.simulate.chat('Bob', 'The goblins flee <img src=x onerror="document.title=1"> into the woods!');
    expect(await shownWithin(page, 'into the woods', since)).toBeLessThan(LIVE_MS);
    expect(await page.$$eval('.overlay-root img', (images) => images.length)).toBe(0);
    expect(await page.title()).not.toBe('1');
  });

  it("a link made for one player never shows another player's private roll", async () => {
    const page = await open(browser, await makeOverlayLink(harness, 'dice', { userId: userId('Bob') }));
    const whisperedRoll = (author: string, to: string[], flavor: string) =>
      createChatMessage(harness.world.game, {
        authorId: userId(author),
        speaker: { alias: author },
        flavor,
        whisper: to.map(userId),
        rolls: [evaluateRoll('1d20', harness.world.game.diceRandom)],
      });
    whisperedRoll('Alice', ['Gamemaster'], 'Secret insight check');
    whisperedRoll('Gamemaster', ['Alice'], 'Hidden trap for Alice');
    whisperedRoll('Gamemaster', ['Bob'], 'Whispered to Bob');
    harness.world.simulate.playerRoll('Bob', '1d8', 'Open damage roll');
    await shownWithin(page, 'Open damage roll', Date.now());
    // The whispers went out first: had they reached the page, they would be there by now.
    const seen = async () => {
      const text = await overlayText(page);
      return ['Secret insight check', 'Hidden trap for Alice', 'Whispered to Bob'].filter((flavor) =>
        text.includes(flavor),
      );
    };
    expect(await seen()).toEqual(['Whispered to Bob']);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.connection === 'live');
    await shownWithin(page, 'Open damage roll', Date.now());
    expect(await seen()).toEqual(['Whispered to Bob']);
  });

  it('a revoked link empties its overlay and ends its stream within a second, and stays quiet', async () => {
    const made = await makeOverlayLink(harness, 'chat');
    const page = await open(browser, made);
    harness.world.simulate.chat('Alice', 'Still on screen');
    await shownWithin(page, 'Still on screen', Date.now());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    const since = Date.now();
    expect((await harness.admin('DELETE', `/admin/overlay-links/${made.record.id}`)).status).toBeLessThan(300);
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.connection === 'refused' &&
        document.querySelector('.overlay-root')?.textContent === '',
      { timeout: 3000, polling: 50 },
    );
    expect(Date.now() - since).toBeLessThan(REVOKED_MS);
    expect(harness.relay.services.events.countOwnedBy(made.record.id)).toBe(0);
    harness.world.simulate.chat('Alice', 'After the revocation');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await overlayText(page)).toBe('');
    expect(await page.evaluate(() => document.body.innerText.trim())).toBe('');
    expect(errors).toEqual([]);
  });

  it("applies the URL's options and the link's custom CSS, which stays CSS", async () => {
    const customCss = '.roll .who { color: rgb(1, 2, 3); } body::after { content: "<img src=x>"; }';
    const made = await makeOverlayLink(harness, 'dice', { customCss });
    const page = await open(browser, made, {
      max: '2',
      hold: '1',
      position: 'top-left',
      accent: '#00ff88',
      fontSize: '30',
      theme: 'none',
    });
    for (const flavor of ['First of three', 'Second of three', 'Third of three']) {
      harness.world.simulate.playerRoll('Alice', '1d6', flavor);
      await shownWithin(page, flavor, Date.now());
    }
    const look = await page.evaluate(() => ({
      classes: [...document.body.classList].sort(),
      accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
      fontSize: getComputedStyle(document.body).fontSize,
      who: getComputedStyle(document.querySelector('.roll .who')!).color,
      images: document.querySelectorAll('img').length,
      shown: [...document.querySelectorAll('.roll:not(.leaving) .flavor')].map((flavor) => flavor.textContent),
      // top-left: the newest roll is the highest on screen.
      newestOnTop:
        document.querySelector('.roll:last-child')!.getBoundingClientRect().top <
        document.querySelector('.roll:not(.leaving)')!.getBoundingClientRect().top,
    }));
    expect(look).toEqual({
      classes: ['overlay', 'overlay-dice', 'position-top-left', 'theme-none'],
      accent: '#00ff88',
      fontSize: '30px',
      who: 'rgb(1, 2, 3)',
      images: 0,
      shown: ['Second of three', 'Third of three'],
      newestOnTop: true,
    });
    // hold=1: every roll fades out a second after it came.
    await page.waitForFunction(() => document.querySelectorAll('.roll').length === 0, { timeout: 2500 });
  });

  it('an API key in the URL is refused, with a message that says why', async () => {
    const answer = await fetch(`${harness.baseUrl}/overlays/dice?link=${encodeURIComponent(harness.key)}`);
    expect(answer.status).toBe(401);
    const { error } = (await answer.json()) as { error: string };
    expect(error).toMatch(/API key/i);
    expect(error).not.toContain(harness.key);
  });

  it('shows nothing while the relay and the world are away, and comes back by itself', async () => {
    const page = await open(browser, await makeOverlayLink(harness, 'chat'));
    harness.world.simulate.chat('Bob', 'Before the storm');
    await shownWithin(page, 'Before the storm', Date.now());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    await harness.link.close();
    await harness.restart();
    await page.waitForFunction(
      () =>
        document.documentElement.dataset.connection === 'retrying' &&
        document.querySelector('.overlay-root')?.textContent === '',
      { timeout: 3000, polling: 50 },
    );
    expect(await page.evaluate(() => document.body.innerText.trim())).toBe('');

    const { token } = harness.relay.services.connectionTokens.issue(harness.clientId, 'Sandbox world', 'demo');
    const back = await connectSandbox(harness.world, { relayUrl: harness.wsUrl, clientId: harness.clientId, token });
    try {
      await page.waitForFunction(() => document.documentElement.dataset.connection === 'live', { timeout: 8000 });
      harness.world.simulate.chat('Bob', 'After the storm');
      await shownWithin(page, 'After the storm', Date.now());
      expect(errors).toEqual([]);
    } finally {
      await back.close();
    }
  });
});
