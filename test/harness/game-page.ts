// A GM's browser tab on the sandbox web client, in real Chromium: logged in as the Gamemaster, with the module running
// in the game page as it runs in Foundry's, its connection token (if any) in the page's localStorage.
import type { BrowserContext, Page } from 'puppeteer-core';

export const TOKEN_KEY = 'foundry-rest-api.connectionToken';

/** What the game page says of its module: `window.sandboxModule`. */
export interface ModuleStatus {
  connected: boolean;
  error: string;
  /** The code the relay last closed the module's socket with; 0 while it never did. */
  closeCode: number;
}

/** Logs in as the Gamemaster (no password), seeds the token the module keeps in localStorage, opens /game. */
export async function openGamePage(
  context: BrowserContext,
  webUrl: string,
  options: { token?: string } = {},
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${webUrl}/join`);
  if (options.token !== undefined) {
    await page.evaluate((key, token) => localStorage.setItem(key, JSON.stringify(token)), TOKEN_KEY, options.token);
  }
  const joined = await page.evaluate(async () => {
    const gamemaster = [...document.querySelectorAll('option')].find((option) => option.text === 'Gamemaster');
    const body = JSON.stringify({ action: 'join', userid: gamemaster?.value, password: '' });
    const response = await fetch('/join', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    return response.status;
  });
  if (joined !== 200) throw new Error(`the Gamemaster could not join: ${joined}`);
  await page.goto(`${webUrl}/game`);
  return page;
}

export function moduleStatus(page: Page): Promise<ModuleStatus | undefined> {
  return page.evaluate(() => (window as unknown as { sandboxModule?: ModuleStatus }).sandboxModule);
}

/** Waits until the page's module holds the world (its socket authenticated). */
export async function untilConnected(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { sandboxModule?: ModuleStatus }).sandboxModule?.connected === true,
    { timeout: timeoutMs },
  );
}

/** The token the page's module keeps, as stored (JSON), or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
}
