// Draws the app and tray icons in assets/ from the SVG below, rendered by Chromium with a transparent background.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium.ts';

const ASSETS = join(import.meta.dirname, '..', 'assets');

// The mark: a d20 seen face-on (hexagon outline, centre triangle).
const HEXAGON = 'M16 2.2 28.2 9.1v13.8L16 29.8 3.8 22.9V9.1z';
const TRIANGLE = 'M16 9.6 23.2 21.4H8.8z';

type TrayState = 'idle' | 'connected' | 'waiting' | 'error';

/** Colour tray icons (Linux, Windows): readable on light and dark panels alike. */
function colourTray(state: TrayState): string {
  const fill = state === 'connected' || state === 'waiting' ? '#5b54f0' : '#7b8190';
  const badge =
    state === 'connected'
      ? '<circle cx="25" cy="25" r="6.2" fill="#22c55e" stroke="#ffffff" stroke-width="2"/>'
      : state === 'error'
        ? '<circle cx="25" cy="25" r="6.6" fill="#e5383b" stroke="#ffffff" stroke-width="2"/><path d="M25 21.2v4.4M25 28.2v.4" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/>'
        : state === 'waiting'
          ? '<circle cx="25" cy="25" r="6.6" fill="#f59e0b" stroke="#ffffff" stroke-width="2"/><circle cx="25" cy="25" r="2.2" fill="#ffffff"/>'
          : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
    <path d="${HEXAGON}" fill="${fill}" stroke="#ffffff" stroke-opacity="0.9" stroke-width="1.2" stroke-linejoin="round"/>
    <path d="${TRIANGLE}" fill="none" stroke="#ffffff" stroke-width="2.4" stroke-linejoin="round"/>
    ${badge}
  </svg>`;
}

/** macOS template images: black and alpha only; the state shows in the shape, since macOS tints the colour. */
function templateTray(state: TrayState): string {
  const badgeHole = state === 'idle' ? '' : '<circle cx="25" cy="25" r="7.6" fill="black"/>';
  const badge =
    state === 'connected'
      ? '<circle cx="25" cy="25" r="5" fill="black"/>'
      : state === 'waiting'
        ? '<circle cx="25" cy="25" r="4.6" fill="none" stroke="black" stroke-width="2"/><circle cx="25" cy="25" r="1.6" fill="black"/>'
        : state === 'error'
          ? '<circle cx="25" cy="25" r="5.6" fill="none" stroke="black" stroke-width="2"/><path d="M25 22.4v3.2M25 27.6v.2" stroke="black" stroke-width="2" stroke-linecap="round"/>'
          : '';
  const body =
    state === 'connected' || state === 'waiting'
      ? `<path d="${HEXAGON}" fill="white"/><path d="${TRIANGLE}" fill="none" stroke="black" stroke-width="2.6" stroke-linejoin="round"/>`
      : `<path d="${HEXAGON}" fill="none" stroke="white" stroke-width="2.4" stroke-linejoin="round"/><path d="${TRIANGLE}" fill="none" stroke="white" stroke-width="2.2" stroke-linejoin="round"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
    <defs><mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="32" height="32">${body}${badgeHole}</mask></defs>
    <rect width="32" height="32" fill="black" mask="url(#m)"/>
    ${badge}
  </svg>`;
}

/** The app icon: the mark on an indigo tile, with the margin macOS and Windows expect around it. */
const APP_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6d6af7"/><stop offset="1" stop-color="#3f36c9"/></linearGradient>
    <filter id="shadow" x="-10%" y="-10%" width="120%" height="130%"><feDropShadow dx="0" dy="8" stdDeviation="10" flood-color="#1e1b4b" flood-opacity="0.35"/></filter>
  </defs>
  <rect x="40" y="40" width="432" height="432" rx="96" fill="url(#tile)" filter="url(#shadow)"/>
  <g transform="translate(96 92) scale(10)" fill="none" stroke="#fff" stroke-linejoin="round" stroke-linecap="round">
    <path d="${HEXAGON}" stroke-width="1.9"/>
    <path d="${TRIANGLE}" stroke-width="1.9"/>
    <path d="M16 2.2v7.4M28.2 9.1l-5 12.3M3.8 9.1l5 12.3M8.8 21.4l-5 1.5M23.2 21.4l5 1.5M8.8 21.4 16 29.8l7.2-8.4" stroke-width="1.3" stroke-opacity="0.75"/>
  </g>
  <circle cx="392" cy="392" r="50" fill="#34d399" stroke="#3f36c9" stroke-width="18"/>
</svg>`;

/**
 * The player page's icon on a phone's home screen: the tile edge to edge, as iOS and Android's maskable icons round
 * and cut it themselves, the mark within the middle 60% that every mask keeps.
 */
const PLAY_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <defs><linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6d6af7"/><stop offset="1" stop-color="#3f36c9"/></linearGradient></defs>
  <rect width="512" height="512" fill="url(#tile)"/>
  <g transform="translate(136 132) scale(7.5)" fill="none" stroke="#fff" stroke-linejoin="round" stroke-linecap="round">
    <path d="${HEXAGON}" stroke-width="1.9"/>
    <path d="${TRIANGLE}" stroke-width="1.9"/>
    <path d="M16 2.2v7.4M28.2 9.1l-5 12.3M3.8 9.1l5 12.3M8.8 21.4l-5 1.5M23.2 21.4l5 1.5M8.8 21.4 16 29.8l7.2-8.4" stroke-width="1.3" stroke-opacity="0.75"/>
  </g>
</svg>`;

async function main(): Promise<void> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  const render = async (svg: string, size: number, file: string) => {
    await page.setViewport({ width: size, height: size, deviceScaleFactor: 1 });
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><div style="width:${size}px;height:${size}px">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</div></body></html>`,
    );
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
      type: 'png',
    });
    writeFileSync(join(ASSETS, file), png);
  };
  mkdirSync(join(ASSETS, 'tray'), { recursive: true });
  for (const state of ['idle', 'connected', 'waiting', 'error'] as const) {
    await render(colourTray(state), 16, `tray/tray-${state}.png`);
    await render(colourTray(state), 32, `tray/tray-${state}@2x.png`);
    await render(templateTray(state), 16, `tray/tray-${state}Template.png`);
    await render(templateTray(state), 32, `tray/tray-${state}Template@2x.png`);
  }
  await render(APP_ICON, 512, 'icon.png');
  mkdirSync(join(ASSETS, 'play'), { recursive: true });
  for (const size of [180, 192, 512]) await render(PLAY_ICON, size, `play/icon-${size}.png`);
  writeFileSync(join(ASSETS, 'icon.svg'), APP_ICON);
  await browser.close();
  process.stdout.write('Wrote assets/icon.png, assets/icon.svg, assets/tray/*.png and assets/play/*.png\n');
}

await main();
