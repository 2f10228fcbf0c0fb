// One browser shared by the capture session and the GM sessions: started on first use, started again after a crash,
// closed with the relay.
import { EventEmitter } from 'node:events';
import type { Browser, BrowserPage, LaunchBrowser, PageOptions } from './browser.ts';

export class BrowserHost extends EventEmitter<{ crash: [] }> {
  readonly #launch: LaunchBrowser;
  #browser: Promise<Browser> | undefined;
  #closed = false;

  constructor(launch: LaunchBrowser) {
    super();
    this.#launch = launch;
  }

  /** The running browser's process id, if one runs. */
  async pid(): Promise<number | undefined> {
    return this.#browser ? (await this.#browser.catch(() => undefined))?.pid : undefined;
  }

  /** A page in a fresh browser context, starting the browser if none runs. */
  async openPage(options?: PageOptions): Promise<BrowserPage> {
    if (this.#closed) throw new Error('The relay is stopping');
    return (await this.#running()).openPage(options);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const browser = this.#browser;
    this.#browser = undefined;
    await (await browser?.catch(() => undefined))?.close();
  }

  #running(): Promise<Browser> {
    if (this.#browser) return this.#browser;
    const launching = this.#launch().then((browser) => {
      browser.onCrash(() => {
        if (this.#browser === launching) this.#browser = undefined;
        this.emit('crash');
      });
      if (this.#closed) void browser.close();
      return browser;
    });
    launching.catch(() => {
      if (this.#browser === launching) this.#browser = undefined;
    });
    this.#browser = launching;
    return launching;
  }
}
