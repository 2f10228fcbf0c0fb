import type { Browser, Page } from 'puppeteer-core';

/** A page the way the UI tests look at one: a fixed window, no animations to wait for. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
  await page.goto(url);
  return page;
}

/** The settings UI signed in through a one-time link, its sidebar shown. */
export async function openSettings(
  browser: Browser,
  loginUrl: string,
  viewport = { width: 1024, height: 768 },
): Promise<Page> {
  const page = await openPage(browser, loginUrl, viewport);
  await page.waitForSelector('.sidebar');
  return page;
}
