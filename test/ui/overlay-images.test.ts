// Screenshots of each OBS overlay as a stream shows it: the page's transparent screenshot laid over a dark and a light
// scene, the dark theme on the dark one and the light theme on the light one. Each run renders them into
// test/ui/screenshots/; UPDATE_README_IMAGES=1 also writes them to docs/images/ (overlay-<name>-<dark|light>.png).
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAYS, type OverlayName } from '../../contracts/overlays.ts';
import type { EvaluatedRoll } from '../../sandbox/dice.ts';
import { createChatMessage } from '../../sandbox/world/chat.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { makeOverlayLink, openOverlay, type LinkOptions } from './overlay-page.ts';

const RENDERED = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
const MAX_BYTES = 200 * 1024;

/** The scenes behind the overlay: a dim dungeon and sunlit parchment, as plain gradients that keep the PNGs small. */
const SCENES = {
  dark: 'linear-gradient(160deg, #2a3550 0%, #151a26 55%, #2b1d17 100%)',
  light: 'linear-gradient(160deg, #f6f0e2 0%, #e6d8b8 55%, #cdb68a 100%)',
};
type Scene = keyof typeof SCENES;

let harness: WorldHarness;
let browser: Browser;

function roll(formula: string, faces: number, results: number[], modifier: number): EvaluatedRoll {
  return {
    formula,
    total: results.reduce((sum, result) => sum + result, modifier),
    dice: [{ faces, results: results.map((result) => ({ result, active: true })) }],
    firstTermFaces: faces,
    topLevelResults: results,
  } as EvaluatedRoll;
}

/** A table's evening: a fumble, a fireball, a crit; posted as the module reports rolls, newest last. */
async function rollAtTheTable(): Promise<void> {
  const rolls: [string, string, EvaluatedRoll][] = [
    ['Pip Tanglefoot', 'Stealth check', roll('1d20+7', 20, [1], 7)],
    ['Goblin King', 'Scimitar attack', roll('1d20+4', 20, [14], 4)],
    ['Lyra Moonwhisper', 'Fireball', roll('8d6', 6, [6, 3, 5, 2, 6, 4, 1, 5], 0)],
    ['Thorin Ironfoot', 'Battleaxe attack', roll('1d20+7', 20, [20], 7)],
  ];
  for (const [alias, flavor, evaluated] of rolls) {
    await pause();
    createChatMessage(harness.world.game, {
      authorId: harness.world.game.moduleUserId,
      speaker: { alias },
      flavor,
      rolls: [evaluated],
    });
  }
}

async function chatAtTheTable(): Promise<void> {
  const lines: [string, string][] = [
    ['Alice', 'Thorin plants his feet in the doorway. Nobody gets past.'],
    ['Bob', 'Lyra whispers the words and the room fills with fire!'],
    ['Gamemaster', 'The Goblin King roars, and the drums fall silent.'],
  ];
  for (const [user, line] of lines) {
    await pause();
    harness.world.simulate.chat(user, line);
  }
}

/** Messages a few milliseconds apart, so that their times order them as at a real table. */
function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

/** A portrait drawn in a page of the browser: what a world's token art would be, as the data URL the card accepts. */
async function portrait(): Promise<string> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 240;
      const context = canvas.getContext('2d')!;
      const sky = context.createLinearGradient(0, 0, 0, 240);
      sky.addColorStop(0, '#6b4b2a');
      sky.addColorStop(1, '#2a1a10');
      context.fillStyle = sky;
      context.fillRect(0, 0, 240, 240);
      context.fillStyle = '#d9a066';
      context.beginPath();
      context.arc(120, 100, 48, 0, Math.PI * 2);
      context.fill();
      context.fillStyle = '#b5651d';
      context.beginPath();
      context.moveTo(72, 112);
      context.quadraticCurveTo(120, 230, 168, 112);
      context.fill();
      context.fillStyle = '#7a7f8a';
      context.beginPath();
      context.arc(120, 78, 52, Math.PI, 0);
      context.fill();
      context.fillRect(30, 200, 180, 40);
      context.fillStyle = '#3d2b1f';
      context.fillRect(96, 92, 14, 8);
      context.fillRect(130, 92, 14, 8);
      return canvas.toDataURL('image/png');
    });
  } finally {
    await page.close();
  }
}

/** The transparent overlay page laid over a scene, at the browser source's size. */
async function composite(overlay: Page, scene: Scene, name: string): Promise<string> {
  const png = Buffer.from(await overlay.screenshot({ omitBackground: true })).toString('base64');
  const { width, height } = overlay.viewport()!;
  const page = await browser.newPage();
  try {
    await page.setViewport({ width, height });
    await page.setContent(
      `<body style="margin:0;background:${SCENES[scene]}"><img style="display:block" src="data:image/png;base64,${png}"></body>`,
    );
    await page.waitForFunction(() => document.images[0]?.complete);
    const path = join(RENDERED, `overlay-${name}-${scene}.png`);
    await page.screenshot({ path: path as `${string}.png` });
    if (UPDATE) copyFileSync(path, join(COMMITTED, `overlay-${name}-${scene}.png`));
    return path;
  } finally {
    await page.close();
  }
}

/** A PNG of the browser source's size (from its IHDR chunk, which always comes first), and small. */
function expectImage(path: string, name: OverlayName): void {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }).toEqual(OVERLAYS[name].size);
  expect(statSync(path).size).toBeLessThan(MAX_BYTES);
}

/** The overlay opened with the theme of its scene, steady (no motion, nothing fading) so the picture is its settled look. */
async function shoot(name: OverlayName, options: LinkOptions, ready: string): Promise<void> {
  const made = await makeOverlayLink(harness, name, options);
  for (const scene of ['dark', 'light'] as const) {
    const overlay = await openOverlay(browser, made, { theme: scene, hold: '0' }, true);
    try {
      await overlay.waitForSelector(ready, { timeout: 5000 });
      await overlay.evaluate(() => document.fonts.ready);
      expectImage(await composite(overlay, scene, name), name);
      const committed = join(COMMITTED, `overlay-${name}-${scene}.png`);
      expect(
        existsSync(committed),
        `${committed} is missing: run UPDATE_README_IMAGES=1 npx vitest run test/ui/overlay-images.test.ts`,
      ).toBe(true);
      expectImage(committed, name);
    } finally {
      await overlay.close();
    }
  }
}

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  mkdirSync(COMMITTED, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([startRelayWithWorld(), launchChromium()]);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('overlay screenshots over a dark and a light scene', () => {
  it('dice feed', async () => {
    await rollAtTheTable();
    await shoot('dice', {}, '.roll.critical');
  });

  it('initiative, with HP bars', async () => {
    harness.world.simulate.startCombat();
    harness.world.simulate.nextTurn();
    const goblin = (await uuidOf(harness, 'Goblin')).split('.')[1]!;
    const lyra = (await uuidOf(harness, 'Lyra Moonwhisper')).split('.')[1]!;
    harness.world.simulate.updateActor(goblin, { 'system.attributes.hp.value': 2 });
    harness.world.simulate.updateActor(lyra, { 'system.attributes.hp.value': 9 });
    await shoot('initiative', { hpBars: true }, '.combatant.current .meter');
  });

  it('now playing', async () => {
    const played = await harness.post('/playlist/play', {
      clientId: harness.clientId,
      playlistName: 'Tavern Songs',
      soundName: 'Bardic Ballad',
    });
    expect(played.status).toBe(200);
    await shoot('now-playing', {}, '.track');
  });

  it('character card', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    harness.world.simulate.updateActor(thorin.split('.')[1]!, {
      img: await portrait(),
      'system.attributes.hp.value': 23,
    });
    await shoot('character-card', { actorUuid: thorin }, '.character .portrait img');
  });

  it('chat ticker', async () => {
    await chatAtTheTable();
    await shoot('chat', {}, '.chat-line');
  });
});
