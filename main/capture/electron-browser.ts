// The browser port over Electron's own Chromium, so the tray app needs no second browser: each page is an offscreen
// BrowserWindow in an in-memory session of its own; screenshots come from capturePage and nativeImage encoding.
import { randomUUID } from 'node:crypto';
import { BrowserWindow, type WebContents } from 'electron';
import type { Browser, BrowserPage, LaunchBrowser, ScreenshotOptions } from '../../relay/capture/browser.ts';

const WINDOW_SIZE = { width: 1600, height: 1200 };

export function electronLauncher(): LaunchBrowser {
  return async () => new ElectronChromium();
}

class ElectronChromium implements Browser {
  // Electron's Chromium is this process: it has no pid of its own and cannot crash apart from the app.
  readonly pid = undefined;
  readonly #pages = new Set<ElectronPage>();

  async openPage(): Promise<BrowserPage> {
    const window = new BrowserWindow({
      show: false,
      ...WINDOW_SIZE,
      webPreferences: {
        offscreen: true,
        partition: `capture-${randomUUID()}`,
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        backgroundThrottling: false,
      },
    });
    const page = new ElectronPage(window, () => this.#pages.delete(page));
    this.#pages.add(page);
    return page;
  }

  onCrash(): void {}

  async close(): Promise<void> {
    await Promise.all([...this.#pages].map((page) => page.close()));
  }
}

class ElectronPage implements BrowserPage {
  readonly #window: BrowserWindow;
  readonly #contents: WebContents;
  readonly #forget: () => void;

  constructor(window: BrowserWindow, forget: () => void) {
    this.#window = window;
    this.#contents = window.webContents;
    this.#forget = forget;
  }

  async goto(url: string, timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`Navigation to ${url} timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.#contents.loadURL(url), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.#contents.executeJavaScript(`(${fn.toString()})(${JSON.stringify(arg)})`, true) as Promise<R>;
  }

  async screenshot(options: ScreenshotOptions): Promise<Uint8Array> {
    const { clip, format, quality, scale } = options;
    const width = Math.max(WINDOW_SIZE.width, Math.ceil(clip.x + clip.width));
    const height = Math.max(WINDOW_SIZE.height, Math.ceil(clip.y + clip.height));
    this.#window.setContentSize(width, height);
    this.#contents.enableDeviceEmulation({
      screenPosition: 'desktop',
      screenSize: { width, height },
      viewPosition: { x: 0, y: 0 },
      viewSize: { width, height },
      deviceScaleFactor: scale,
      scale: 1,
    });
    try {
      let image = await this.#contents.capturePage({ x: Math.floor(clip.x), y: Math.floor(clip.y), width: Math.ceil(clip.width), height: Math.ceil(clip.height) });
      const wanted = { width: Math.round(clip.width * scale), height: Math.round(clip.height * scale) };
      const size = image.getSize();
      if (size.width !== wanted.width || size.height !== wanted.height) image = image.resize({ ...wanted, quality: 'best' });
      return format === 'jpeg' ? image.toJPEG(Math.round(quality * 100)) : image.toPNG();
    } finally {
      this.#contents.disableDeviceEmulation();
    }
  }

  onCrash(listener: () => void): void {
    this.#contents.once('render-process-gone', () => listener());
  }

  async close(): Promise<void> {
    this.#forget();
    if (!this.#window.isDestroyed()) this.#window.destroy();
  }
}
