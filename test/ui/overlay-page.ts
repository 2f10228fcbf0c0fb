// Overlay pages in real Chromium: made through the admin API as the settings UI makes them, opened through their link.
import type { Browser, Page } from 'puppeteer-core';
import type { NewOverlayLink } from '../../contracts/admin-api.ts';
import type { OverlayName } from '../../contracts/overlays.ts';
import type { WorldHarness } from '../harness/world.ts';
import { makeOverlayLink as makeLinkThroughAdmin, type LinkOptions } from '../harness/overlays.ts';

/** Makes links named as a streamer would name them. */
export function makeOverlayLink(
  harness: WorldHarness,
  overlay: OverlayName,
  options: LinkOptions = {},
): Promise<NewOverlayLink> {
  return makeLinkThroughAdmin(harness, overlay, { name: `${overlay} for the stream`, ...options });
}

export type { LinkOptions };

/** The overlay page in a window of the size "Copy for OBS" suggests, once its stream is open; `steady`: no motion. */
export async function openOverlay(
  browser: Browser,
  made: NewOverlayLink,
  query: Record<string, string> = {},
  steady = false,
): Promise<Page> {
  const url = new URL(made.url);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const page = await browser.newPage();
  await page.setViewport(made.size);
  // Without motion, items show at once in their settled look, as a screenshot wants them.
  if (steady) await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  await page.goto(url.toString());
  await page.waitForFunction(() => document.documentElement.dataset.connection === 'live', { timeout: 5000 });
  return page;
}

/** The page's text as shown, once the overlay's root holds it. */
export async function overlayText(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector('.overlay-root')?.textContent ?? '');
}

/** Waits until the overlay shows `expected`, and answers how long that took from `since`. */
export async function shownWithin(page: Page, expected: string, since: number, timeout = 2000): Promise<number> {
  await page.waitForFunction(
    (wanted) => (document.querySelector('.overlay-root')?.textContent ?? '').includes(wanted),
    { timeout, polling: 'mutation' },
    expected,
  );
  return Date.now() - since;
}

/**
 * The alpha of each of the given points of a PNG, read back by decoding the PNG in a blank page of the same browser
 * (a canvas's image data), so no PNG decoder is needed here.
 */
export async function alphaAt(browser: Browser, png: Uint8Array, points: [number, number][]): Promise<number[]> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async (base64, wanted) => {
        const image = new Image();
        image.src = `data:image/png;base64,${base64}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return wanted.map(([x, y]) => context.getImageData(x, y, 1, 1).data[3]);
      },
      Buffer.from(png).toString('base64'),
      points,
    );
  } finally {
    await page.close();
  }
}
