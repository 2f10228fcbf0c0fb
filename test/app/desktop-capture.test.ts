// "Sheets rendered through an offscreen window", end to end: the compiled desktop app on the Electron stand-in renders
// GET /sheet in its own Chromium (main/capture, offscreen BrowserWindows), logged in to the sandbox's Foundry-like
// web client as its Assistant GM.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, exchangePairingCode, type SandboxLink } from '../../sandbox/index.ts';
import { sheetBoxOf } from '../../sandbox/images/sheet-painter.ts';
import { SHEET_SWATCH } from '../../sandbox/web/flavour.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { decodePng, type DecodedPng } from '../capture/png.ts';
import {
  adminApi,
  buildPrivateApp,
  freePort,
  freshHome,
  launch,
  presetPort,
  removeHome,
  type Home,
} from './boot-support.ts';
import type { LaunchedApp } from './electron-stand-in/client.ts';

const SEED = 7;
const CAPTURE_USER = 'Assistant GM';
const CAPTURE_PASSWORD = 'desktop-capture-secret';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let appFolder: string;
let home: Home;
let app: LaunchedApp;
let web: SandboxWebClient;
let link: SandboxLink;
let relayUrl: string;
let apiKey: string;
let thorin: { uuid: string; box: { width: number; height: number } };

const admin = (method: string, path: string, body?: unknown) => adminApi(home, relayUrl)(method, path, body);

async function sheet(query: Record<string, string | number>): Promise<{ response: Response; bytes: Buffer }> {
  const url = new URL('/sheet', relayUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  appFolder = await buildPrivateApp();
  home = freshHome();
  const port = await freePort();
  presetPort(home, port);
  relayUrl = `http://127.0.0.1:${port}`;
  app = launch(appFolder, home);
  await app.waitFor('the tray', (state) => state.trays.length === 1, 5000);

  const world = createSandboxWorld({ seed: SEED });
  const { code } = await admin('POST', '/admin/pairing-codes', {});
  const paired = await exchangePairingCode(world, { httpBase: relayUrl, code });
  link = await connectSandbox(world, {
    relayUrl: relayUrl.replace(/^http/, 'ws'),
    clientId: paired.clientId,
    token: paired.token,
  });
  const actor = world.game.actors.contents.find((candidate) => candidate.name === 'Thorin Ironfoot')!;
  thorin = { uuid: actor.uuid, box: sheetBoxOf(actor) };

  web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions: { seed: SEED },
    passwords: { [CAPTURE_USER]: CAPTURE_PASSWORD },
    relayUrl,
  });
  await admin('PUT', '/admin/capture', { foundryUrl: web.url, username: CAPTURE_USER, password: CAPTURE_PASSWORD });
  apiKey = (await admin('POST', '/admin/keys', { name: 'desktop capture test', scopes: ['sheet:read'] })).key;
}, 60_000);

afterAll(async () => {
  await link?.close();
  await app?.kill();
  await web?.close();
  if (home) removeHome(home);
  if (appFolder) rmSync(appFolder, { recursive: true, force: true });
});

/** The swatch's top-left corner in device pixels: the sheet's 2 px border, then SHEET_SWATCH's offsets. */
function swatchCorner(scale: number): { x: number; y: number } {
  return {
    x: (thorin.box.width - 2 - SHEET_SWATCH.right - SHEET_SWATCH.size) * scale,
    y: (2 + SHEET_SWATCH.top) * scale,
  };
}

describe('GET /sheet from the desktop app, rendered in an offscreen window', () => {
  const images = new Map<number, DecodedPng>();

  it.each([1, 2])(
    'answers a PNG of the sheet box × scale %i, from the capture session',
    async (scale) => {
      const { response, bytes } = await sheet({ uuid: thorin.uuid, scale });
      expect(response.status, bytes.toString()).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-sheet-source')).toBe('capture');
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
      const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
      expect(size).toEqual({ width: thorin.box.width * scale, height: thorin.box.height * scale });
      mkdirSync(SCREENSHOTS, { recursive: true });
      writeFileSync(join(SCREENSHOTS, `desktop-sheet-scale-${scale}.png`), bytes);
      images.set(scale, decodePng(bytes));
    },
    30_000,
  );

  it('paints the sheet: its swatch has the v13 colour', () => {
    expect([...images.keys()]).toEqual([1, 2]);
    for (const [scale, image] of images) {
      const corner = swatchCorner(scale);
      const centre = { x: corner.x + (SHEET_SWATCH.size * scale) / 2, y: corner.y + (SHEET_SWATCH.size * scale) / 2 };
      expect(image.pixel(centre.x, centre.y), `scale ${scale}`).toEqual(SHEET_SWATCH.colour.v13);
    }
  });

  it('renders scale 2 at twice the detail, not a scale-1 image enlarged: the swatch edge is sharp to the device pixel', () => {
    const image = images.get(2)!;
    const corner = swatchCorner(2);
    const colour = SHEET_SWATCH.colour.v13;
    expect(image.pixel(corner.x, corner.y + 20)).toEqual(colour);
    expect(image.pixel(corner.x + 20, corner.y)).toEqual(colour);
    expect(image.pixel(corner.x - 1, corner.y + 20)).not.toEqual(colour);
    expect(image.pixel(corner.x + 20, corner.y - 1)).not.toEqual(colour);
  });

  it('answers format=jpeg with a JPEG encoded by Chromium', async () => {
    const { response, bytes } = await sheet({ uuid: thorin.uuid, format: 'jpeg', quality: 0.8 });
    expect(response.status, bytes.toString()).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-sheet-source')).toBe('capture');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(response.headers.get('x-image-width')).toBe(String(thorin.box.width));
  });

  it('keeps running without errors', async () => {
    expect((await app.state()).uncaught).toEqual([]);
  });
});
