// The browser port over puppeteer-core driving a system Chrome/Chromium, headless, for headless mode and tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser as PuppeteerBrowser, Page } from 'puppeteer-core';
import {
  LeftFoundryError,
  type Browser,
  type BrowserPage,
  type LaunchBrowser,
  type PageOptions,
  type ScreenshotOptions,
} from './browser.ts';
import { findChrome } from './chrome-path.ts';
import { originOf } from '../gate/request-gate.ts';

const CHROME_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--hide-scrollbars',
  '--mute-audio',
];
const VIEWPORT = { width: 1600, height: 1200 };

export class ChromeNotFoundError extends Error {
  constructor() {
    super('No Chrome or Chromium was found: install one (e.g. apt-get install chromium) or set its path');
  }
}

/** Turns Chromium's sandbox off for every launch, where the OS cannot give it one (e.g. a container without user namespaces). */
export const NO_SANDBOX_VARIABLE = 'TABLETOP_RELAY_CHROME_NO_SANDBOX';

export interface SandboxContext {
  platform: NodeJS.Platform;
  /** The user id the relay runs as; undefined where there is none (Windows). */
  uid: number | undefined;
  /** The GM's explicit choice to run Chromium without its sandbox. */
  noSandbox: boolean;
}

/**
 * Chromium keeps its sandbox wherever it can work: pages it opens (Foundry, or whatever a page links to) then run
 * confined. It cannot work for root on Linux, where Chromium refuses to start sandboxed; otherwise only the GM turns it off.
 */
export function sandboxArgs(context: SandboxContext): string[] {
  return context.noSandbox || (context.platform === 'linux' && context.uid === 0) ? ['--no-sandbox'] : [];
}

function currentSandboxContext(noSandbox: boolean | undefined): SandboxContext {
  return {
    platform: process.platform,
    uid: process.getuid?.(),
    noSandbox: noSandbox ?? process.env[NO_SANDBOX_VARIABLE] === '1',
  };
}

/**
 * A launcher for `executablePath`, or for the browser `findChrome` finds. Throws ChromeNotFoundError without one.
 * `noSandbox` turns Chromium's sandbox off (default: the TABLETOP_RELAY_CHROME_NO_SANDBOX=1 environment variable).
 */
export function puppeteerLauncher(executablePath?: string, noSandbox?: boolean): LaunchBrowser {
  return async () => {
    const path = findChrome(executablePath);
    if (!path) throw new ChromeNotFoundError();
    // Loaded at the first capture, not with the relay: a relay that never captures never holds puppeteer in memory.
    const { default: puppeteer } = await import('puppeteer-core');
    const userDataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-chromium-'));
    try {
      const browser = await puppeteer.launch({
        executablePath: path,
        headless: true,
        // DevTools over the process's own pipe, never a TCP port: any local process could attach to a port and act
        // as the capture GM, or read a GM session page's connection token.
        pipe: true,
        userDataDir,
        args: [...sandboxArgs(currentSandboxContext(noSandbox)), ...CHROME_ARGS],
        // Puppeteer turns Chromium's popup blocker off; a Foundry page has no business opening windows on its own.
        ignoreDefaultArgs: ['--disable-popup-blocking'],
        defaultViewport: VIEWPORT,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      return new PuppeteerChrome(browser, userDataDir);
    } catch (error) {
      rmSync(userDataDir, { recursive: true, force: true });
      throw error;
    }
  };
}

class PuppeteerChrome implements Browser {
  readonly #browser: PuppeteerBrowser;
  readonly #userDataDir: string;
  #closing = false;

  constructor(browser: PuppeteerBrowser, userDataDir: string) {
    this.#browser = browser;
    this.#userDataDir = userDataDir;
    browser.once('disconnected', () => this.#removeProfile());
  }

  get pid(): number | undefined {
    return this.#browser.process()?.pid;
  }

  async openPage(options: PageOptions = {}): Promise<BrowserPage> {
    const context = await this.#browser.createBrowserContext();
    const page = await context.newPage();
    const confined = options.origin !== undefined ? await confine(page, options.origin) : undefined;
    return new PuppeteerPage(page, () => context.close(), confined?.left);
  }

  onCrash(listener: () => void): void {
    this.#browser.once('disconnected', () => {
      if (!this.#closing) listener();
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    const child = this.#browser.process();
    await this.#browser.close().catch(() => {});
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    this.#removeProfile();
  }

  #removeProfile(): void {
    rmSync(this.#userDataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Refuses every navigation of the page, and every window it would open, that leaves `origin`. `left` rejects at the
 * first refusal: the page then shows Chromium's error page, and nothing more can be done with it.
 */
async function confine(page: Page, origin: string): Promise<{ left: Promise<never> }> {
  page.on('popup', (popup) => void popup?.close().catch(() => undefined));
  await page.setRequestInterception(true);
  const left = new Promise<never>((_resolve, reject) => {
    page.on('request', (request) => {
      if (request.isInterceptResolutionHandled()) return;
      const leaves = request.isNavigationRequest() && originOf(request.url()) !== origin;
      if (leaves) reject(new LeftFoundryError(origin, originOf(request.url())));
      void (leaves ? request.abort('blockedbyclient') : request.continue()).catch(() => undefined);
    });
  });
  left.catch(() => undefined);
  return { left };
}

class PuppeteerPage implements BrowserPage {
  readonly #page: Page;
  readonly #closeContext: () => Promise<void>;
  /** Rejects once a navigation away from the page's origin was refused. */
  readonly #left: Promise<never> | undefined;

  constructor(page: Page, closeContext: () => Promise<void>, left: Promise<never> | undefined) {
    this.#page = page;
    this.#closeContext = closeContext;
    this.#left = left;
  }

  async goto(url: string, timeoutMs: number): Promise<void> {
    await this.#unlessLeft(this.#page.goto(url, { waitUntil: 'load', timeout: timeoutMs }));
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.#unlessLeft(this.#page.evaluate(fn as (arg: unknown) => Promise<R>, arg as unknown) as Promise<R>);
  }

  #unlessLeft<T>(work: Promise<T>): Promise<T> {
    return this.#left ? Promise.race([work, this.#left]) : work;
  }

  async screenshot(options: ScreenshotOptions): Promise<Uint8Array> {
    const { clip, format, quality, scale } = options;
    return this.#page.screenshot({
      type: format,
      quality: format === 'jpeg' ? Math.round(quality * 100) : undefined,
      clip: { ...clip, scale },
      captureBeyondViewport: true,
      optimizeForSpeed: true,
    });
  }

  onCrash(listener: () => void): void {
    this.#page.once('error', listener);
  }

  async close(): Promise<void> {
    await this.#closeContext().catch(() => {});
  }
}
