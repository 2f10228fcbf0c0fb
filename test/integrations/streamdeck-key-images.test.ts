// The pictures of docs/STREAM-DECK.md, made from what the plugin really sends: each action is driven through the Stream
// Deck app stand-in against a relay with the sandbox world, and its key's last image (a data URL, or the manifest's
// image while the plugin set none) and title are drawn as the app draws them, title over image, on a 144 × 144 key
// face in Chromium (the volume dial: its 200 × 100 touch strip segment). Each run writes test/ui/screenshots/
// streamdeck-<name>.png; UPDATE_README_IMAGES=1 also writes docs/images/streamdeck-<name>.png.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECK_SCOPES } from '../../integrations/client/actions.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { uuidOf } from '../harness/world.ts';
import type { ActionInstance } from './stream-deck-app/stream-deck-app.ts';
import { deckAction, installedDeckPlugin, startDeck, type Deck } from './stream-deck-app/deck.ts';
import type { ManifestAction } from './stream-deck-app/protocol.ts';

const RENDERED = join(import.meta.dirname, '..', 'ui', 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
const UPDATE = process.env.UPDATE_README_IMAGES === '1';
const FOUNDRY_VERSION = '13.348';
const KEY_SIZE = 144;
/** How long a key may take to show a change: generous, for a machine busy with other suites. */
const SETTLE_MS = 8000;

let deck: Deck;
let pluginDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(RENDERED, { recursive: true });
  [deck, browser] = await Promise.all([startDeck({ foundryVersion: FOUNDRY_VERSION }), launchChromium()]);
  pluginDir = await installedDeckPlugin();
  page = await browser.newPage();
  await page.setViewport({ width: 400, height: 300, deviceScaleFactor: 1 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await deck?.close();
});

/** An image file of the plugin folder as the manifest names it (without extension): its SVG, or its PNG. */
function manifestImage(path: string): string {
  const svg = join(pluginDir, `${path}.svg`);
  if (existsSync(svg)) return `data:image/svg+xml;base64,${readFileSync(svg).toString('base64')}`;
  for (const png of [`${path}@2x.png`, `${path}.png`].map((file) => join(pluginDir, file)))
    if (existsSync(png)) return `data:image/png;base64,${readFileSync(png).toString('base64')}`;
  throw new Error(`the plugin folder has no image ${path}`);
}

/** The manifest fields the app draws a key with, besides those the stand-in reads itself. */
type DrawnAction = ManifestAction & {
  States: Array<{ Image: string; Title?: string; TitleAlignment?: 'top' | 'middle' | 'bottom' }>;
  Encoder?: { layout?: string; Icon?: string };
};

function manifestAction(instance: ActionInstance): DrawnAction {
  return deck.app.plugin.action(instance.action) as DrawnAction;
}

/** What the key shows now: the plugin's image and title for its state, or the manifest's. */
function face(instance: ActionInstance): { image: string; title: string; alignment: string } {
  const state = manifestAction(instance).States[instance.state]!;
  return {
    image: instance.images[instance.state] ?? manifestImage(state.Image),
    title: instance.titles[instance.state] ?? state.Title ?? '',
    alignment: state.TitleAlignment ?? 'middle',
  };
}

/** Writes the picture where the docs take it from and returns its path. */
async function save(name: string, element: string): Promise<string> {
  const path = join(RENDERED, `streamdeck-${name}.png`);
  const handle = (await page.$(element))!;
  await handle.screenshot({ path: path as `${string}.png`, omitBackground: true });
  if (UPDATE) copyFileSync(path, join(COMMITTED, `streamdeck-${name}.png`));
  return path;
}

/** Width and height from the PNG's IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * A key as the app draws it: the image fills the key, the title goes over it in white with a dark outline, at the
 * state's alignment (top, middle or bottom), one line per `\n`; the LCD's rounded corners.
 */
async function drawKey(name: string, instance: ActionInstance): Promise<void> {
  const { image, title, alignment } = face(instance);
  await page.setContent(`<!doctype html>
    <style>
      body { margin: 0; background: transparent; }
      #key { position: relative; width: ${KEY_SIZE}px; height: ${KEY_SIZE}px; border-radius: 18px; overflow: hidden;
        background: #000; font-family: Helvetica, Arial, 'Liberation Sans', sans-serif; }
      #key img { position: absolute; inset: 0; width: 100%; height: 100%; }
      #title { position: absolute; left: 4px; right: 4px; display: flex; flex-direction: column; align-items: center;
        color: #fff; font-size: 21px; line-height: 1.08; text-align: center; white-space: pre;
        text-shadow: 0 0 3px #000, 0 0 2px #000, 0 1px 1px #000; }
      #title.top { top: 10px; } #title.bottom { bottom: 12px; }
      #title.middle { top: 0; bottom: 0; justify-content: center; }
    </style>
    <div id="key"><img alt=""><div id="title"></div></div>`);
  await page.evaluate(
    (source, text, where) => {
      document.querySelector('img')!.src = source;
      const titleElement = document.getElementById('title')!;
      titleElement.className = where;
      titleElement.textContent = text;
      return document.querySelector('img')!.decode();
    },
    image,
    title,
    alignment,
  );
  expect(pngSize(await save(name, '#key'))).toEqual({ width: KEY_SIZE, height: KEY_SIZE });
}

/** A dial's touch strip segment in Elgato's $B1 layout: title, icon, value and the indicator bar. */
async function drawStrip(name: string, instance: ActionInstance): Promise<void> {
  const feedback = instance.feedback as { title?: string; value?: string; indicator?: { value?: number } };
  const iconPath = manifestAction(instance).Encoder!.Icon!;
  await page.setContent(`<!doctype html>
    <style>
      body { margin: 0; background: transparent; }
      #strip { position: relative; width: 200px; height: 100px; background: #000; border-radius: 10px; overflow: hidden;
        color: #fff; font-family: Helvetica, Arial, 'Liberation Sans', sans-serif; }
      #title { position: absolute; left: 16px; top: 10px; font-size: 16px; }
      #icon { position: absolute; left: 16px; top: 34px; width: 44px; height: 44px; border-radius: 6px; }
      #value { position: absolute; left: 76px; right: 16px; top: 38px; font-size: 20px; font-weight: 600; }
      #bar { position: absolute; left: 76px; right: 16px; top: 70px; height: 8px; border-radius: 4px; background: #3a3d4d; }
      #fill { height: 100%; border-radius: 4px; background: #fff; }
    </style>
    <div id="strip"><div id="title"></div><img id="icon" alt=""><div id="value"></div>
      <div id="bar"><div id="fill"></div></div></div>`);
  await page.evaluate(
    (values, icon) => {
      document.getElementById('title')!.textContent = values.title ?? '';
      document.getElementById('value')!.textContent = values.value ?? '';
      document.getElementById('fill')!.style.width = `${values.indicator?.value ?? 0}%`;
      const image = document.getElementById('icon') as HTMLImageElement;
      image.src = icon;
      return image.decode();
    },
    feedback,
    manifestImage(iconPath),
  );
  expect(pngSize(await save(name, '#strip'))).toEqual({ width: 200, height: 100 });
}

const svgOf = (dataUrl: string | undefined) =>
  dataUrl?.startsWith('data:image/svg+xml;base64,')
    ? Buffer.from(dataUrl.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8')
    : '';

async function playlistId(name: string): Promise<string> {
  const answer = await deck.harness.get('/playlists');
  const playlists = answer.body.data.playlists as { id?: string; _id?: string; name: string }[];
  const playlist = playlists.find((candidate) => candidate.name === name)!;
  return (playlist.id ?? playlist._id)!;
}

describe(`the pictures of each Stream Deck key, as the plugin draws them (Foundry ${FOUNDRY_VERSION} world)`, () => {
  it('status: green with the world title while the world is connected', async () => {
    const { app } = deck;
    const status = app.appear(deckAction('status'));
    await app.waitFor(() => svgOf(app.image(status.context)).includes('#22c55e'), {
      timeoutMs: SETTLE_MS,
      what: 'the green status',
    });
    expect(app.title(status.context)).toMatch(/^The Sandbox/);
    await drawKey('status', status);
  });

  it('roll: the total of the roll it just made, for 3 s', async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d20+5', flavor: 'Attack' });
    await app.waitFor(() => app.title(roll.context) === '1d20+5', {
      timeoutMs: SETTLE_MS,
      what: 'the formula as title',
    });
    app.press(roll.context);
    const total = await app.waitFor(() => /^\d+$/.test(app.title(roll.context) ?? '') && app.title(roll.context), {
      timeoutMs: SETTLE_MS,
      what: 'the total',
    });
    const lastRoll = await harness.get('/lastroll');
    expect(Number(total)).toBe(lastRoll.body.data.rollTotal);
    await drawKey('roll', roll);
  });

  it('next turn and previous turn: the round and whose turn it is, from the combat events', async () => {
    const { app, harness } = deck;
    harness.world.simulate.startCombat();
    const next = app.appear(deckAction('next-turn'));
    const previous = app.appear(deckAction('previous-turn'));
    const { round } = harness.world.game.activeCombat()!.source as { round: number };
    const title = await app.waitFor(
      () => app.title(next.context)?.startsWith(`Round ${round}\n`) && app.title(next.context),
      { timeoutMs: SETTLE_MS, what: 'the round and the combatant on the next-turn key' },
    );
    await app.waitFor(() => app.title(previous.context) === title, {
      timeoutMs: SETTLE_MS,
      what: 'the same on the previous-turn key',
    });
    await drawKey('next-turn', next);
    await drawKey('previous-turn', previous);
  });

  it("hit points: a bar coloured by the ratio, and on the players' deck the band only", async () => {
    const { app, harness } = deck;
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const exact = app.appear(deckAction('hp'), { actorUuid: thorin, label: 'Thorin' });
    const band = app.appear(deckAction('hp'), { actorUuid: thorin, label: 'Thorin', playersDeck: true });
    await app.waitFor(() => svgOf(app.image(exact.context)).includes('Thorin'), {
      timeoutMs: SETTLE_MS,
      what: 'the HP bar',
    });
    const max = (await harness.get('/get', { uuid: thorin })).body.data.system.attributes.hp.max as number;
    const bloodied = Math.floor(max * 0.4);
    harness.world.simulate.updateActor(thorin, { 'system.attributes.hp.value': bloodied });
    await app.waitFor(() => svgOf(app.image(exact.context)).includes(`${bloodied}/${max}`), {
      timeoutMs: SETTLE_MS,
      what: 'the damage',
    });
    await app.waitFor(() => svgOf(app.image(band.context)).includes('Bloodied'), {
      timeoutMs: SETTLE_MS,
      what: 'the band',
    });
    expect(svgOf(app.image(exact.context))).toContain('#f59e0b');
    expect(svgOf(app.image(band.context))).not.toContain(`${bloodied}/${max}`);
    await drawKey('hp', exact);
    await drawKey('hp-players', band);
  });

  it('playlist, next track and the volume dial: playing, the track playing, the volume on the touch strip', async () => {
    const { app } = deck;
    const id = await playlistId('Tavern Songs');
    const playlist = app.appear(deckAction('playlist'), { playlistId: id });
    const next = app.appear(deckAction('playlist-next'), { playlistId: id });
    const volume = app.appear(deckAction('playlist-volume'), { playlistId: id }, 'Encoder');
    await app.waitFor(() => app.title(playlist.context) === 'Tavern Songs', {
      timeoutMs: SETTLE_MS,
      what: 'the playlist name',
    });
    app.keyDown(playlist.context);
    await app.waitFor(() => playlist.state === 1, { timeoutMs: SETTLE_MS, what: 'the playing state' });
    await app.waitFor(() => app.title(next.context) !== 'Next' && app.title(next.context), {
      timeoutMs: SETTLE_MS,
      what: 'the track',
    });
    await app.waitFor(() => String(volume.feedback.value ?? '').endsWith('%'), {
      timeoutMs: SETTLE_MS,
      what: 'the volume, playing',
    });
    await drawKey('playlist', playlist);
    await drawKey('playlist-next', next);
    await drawStrip('playlist-volume', volume);
  });

  it('macro: its label; a press runs it and shows the check mark', async () => {
    const { app, harness } = deck;
    const macroUuid = await uuidOf(harness, 'Goblin Ambush', 'Macro');
    const macro = app.appear(deckAction('macro'), { macroUuid, label: 'Ambush' });
    await app.waitFor(() => app.title(macro.context) === 'Ambush', { timeoutMs: SETTLE_MS, what: 'the label' });
    app.press(macro.context);
    await app.waitFor(() => macro.oks.length === 1, { timeoutMs: SETTLE_MS, what: 'the check mark' });
    await drawKey('macro', macro);
  });

  it('with no key: every key shows the code to approve, and the request asks for exactly the deck scopes', async () => {
    const fresh = await startDeck({
      foundryVersion: FOUNDRY_VERSION,
      globalSettings: async (harness) => ({ relayUrl: harness.baseUrl }),
    });
    try {
      const roll = fresh.app.appear(deckAction('roll'), { formula: '1d20' });
      type AskedKey = { code: string; appName: string; scopes: string[] };
      const waiting = async () =>
        ((await fresh.harness.admin('GET', '/admin/key-requests')).body.keyRequests as AskedKey[])[0];
      await expect.poll(waiting, { timeout: 10_000 }).toBeDefined();
      const asked = (await waiting())!;
      expect(asked.appName).toBe('Stream Deck');
      expect([...asked.scopes].sort()).toEqual([...DECK_SCOPES].sort());
      await fresh.app.waitFor(() => svgOf(fresh.app.image(roll.context)).includes(asked.code), {
        timeoutMs: SETTLE_MS,
        what: 'the code to approve on the key',
      });
      expect(fresh.app.title(roll.context)).toBe('Approve in\nTabletop\nRelay');
      // Both decks run the same plugin, so the manifest the key is drawn with is the same.
      await drawKey('approve', roll);
    } finally {
      await fresh.close();
    }
  }, 30_000);

  it('the relay down: every key shows the offline image, and the status key says the relay is not running', async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d20' });
    const status = app.appear(deckAction('status'));
    await harness.relay.stop();
    await app.waitFor(() => svgOf(app.image(roll.context)).includes('offline'), {
      timeoutMs: 5000,
      what: 'the offline image',
    });
    await app.waitFor(() => app.title(status.context) === 'Relay not\nrunning', {
      timeoutMs: SETTLE_MS,
      what: 'the status key',
    });
    await drawKey('offline', roll);
    await drawKey('status-relay-off', status);
    await harness.restart();
  }, 20_000);
});
