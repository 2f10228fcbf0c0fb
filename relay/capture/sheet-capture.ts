// The capture session: one logged-in Foundry page that stays warm and renders sheets for GET /sheet, one at a time.
import type { BrowserPage, ImageFormat } from './browser.ts';
import type { BrowserHost } from './browser-host.ts';
import { CaptureFailure, logIn, type FoundryAccount } from './foundry-login.ts';
import { imageSize } from './image-size.ts';
import { closeSheet, openSheet, type SheetTarget } from './page-scripts.ts';
import type { GameFacts } from './page-scripts.ts';
import { originOf } from '../gate/request-gate.ts';
import { SerialQueue, withTimeout } from './serial-queue.ts';

const CAPTURE_TIMEOUT_MS = 15_000;

export interface SheetRequest extends SheetTarget {
  format: ImageFormat;
  /** JPEG quality, 0 to 1. */
  quality: number;
  /** Device pixel ratio. */
  scale: number;
}

export interface SheetImage {
  bytes: Uint8Array;
  mimeType: string;
  width: number;
  height: number;
}

interface LoggedInPage {
  page: BrowserPage;
  facts: GameFacts;
  alive: boolean;
}

export class SheetCapture {
  readonly #host: BrowserHost;
  readonly #account: FoundryAccount;
  readonly #queue = new SerialQueue();
  #session: Promise<LoggedInPage> | undefined;
  #closed = false;
  readonly #onCrash = () => this.#forget();

  constructor(host: BrowserHost, account: FoundryAccount) {
    this.#host = host;
    this.#account = account;
    host.on('crash', this.#onCrash);
  }

  /** Logs in now rather than on the first capture. */
  async warm(): Promise<GameFacts> {
    return (await this.#page()).facts;
  }

  /** The world's client id as the logged-in page knows it, once logged in. */
  async facts(): Promise<GameFacts | undefined> {
    return this.#session ? (await this.#session.catch(() => undefined))?.facts : undefined;
  }

  capture(request: SheetRequest): Promise<SheetImage> {
    return this.#queue.run(async () => {
      try {
        return await this.#captureOnce(request);
      } catch (error) {
        if (error instanceof CaptureFailure || this.#closed) throw error;
        // The page or the browser died under us: log in again and try once more.
        this.#forget();
        return this.#captureOnce(request);
      }
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#host.off('crash', this.#onCrash);
    const session = this.#session;
    this.#session = undefined;
    await (await session?.catch(() => undefined))?.page.close();
  }

  async #captureOnce(request: SheetRequest): Promise<SheetImage> {
    const { page } = await this.#page();
    const { format, quality, scale, ...target } = request;
    const opened = await withTimeout(
      page.evaluate(openSheet, target),
      CAPTURE_TIMEOUT_MS,
      'The sheet took too long to render',
    );
    if ('error' in opened) throw new CaptureFailure(400, opened.error);
    try {
      const bytes = await withTimeout(
        page.screenshot({ clip: opened.box, format, quality, scale }),
        CAPTURE_TIMEOUT_MS,
        'The screenshot took too long',
      );
      const { width, height } = imageSize(bytes);
      return { bytes, mimeType: format === 'jpeg' ? 'image/jpeg' : 'image/png', width, height };
    } finally {
      await page.evaluate(closeSheet, opened.handle).catch(() => {});
    }
  }

  async #page(): Promise<LoggedInPage> {
    if (this.#closed) throw new CaptureFailure(503, 'The capture session is closed');
    const previous = this.#session;
    if (previous) {
      const current = await previous.catch(() => undefined);
      if (current?.alive) return current;
      if (this.#session === previous) this.#session = undefined;
      if (current) void current.page.close();
    }
    this.#session ??= this.#logIn();
    return this.#session;
  }

  async #logIn(): Promise<LoggedInPage> {
    const page = await this.#host.openPage({ origin: originOf(this.#account.foundryUrl) });
    const session: LoggedInPage = { page, facts: undefined as unknown as GameFacts, alive: true };
    page.onCrash(() => {
      session.alive = false;
    });
    try {
      session.facts = await logIn(page, this.#account);
      return session;
    } catch (error) {
      await page.close();
      throw error;
    }
  }

  #forget(): void {
    const session = this.#session;
    this.#session = undefined;
    void session?.then(
      (logged) => {
        logged.alive = false;
        return logged.page.close();
      },
      () => {},
    );
  }
}
