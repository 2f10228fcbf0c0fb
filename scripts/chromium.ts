// The system Chromium, driven by puppeteer-core: nothing here ever downloads a browser.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type LaunchOptions } from 'puppeteer-core';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path): path is string => Boolean(path) && existsSync(path!));
}

/** `executablePath` runs the browser through another program (a network namespace's); `pipe` drives it without a port. */
export async function launchChromium(options: Pick<LaunchOptions, 'executablePath' | 'pipe'> = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('No Chromium found: install it (scripts/setup-ci.sh) or set CHROMIUM_PATH');
  return puppeteer.launch({
    executablePath,
    ...options,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}
