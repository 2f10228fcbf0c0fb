// The browser port over Electron's own Chromium, so the tray app needs no second browser: each page is an offscreen
// BrowserWindow in an in-memory session of its own; screenshots come from capturePage (the page zoomed to the scale)
// and nativeImage encoding.
import { randomUUID } from 'node:crypto';
import { BrowserWindow, type WebContents } from 'electron';
import type {
  Browser,
  BrowserPage,
  LaunchBrowser,
  PageOptions,
  ScreenshotOptions,
} from '../../relay/capture/browser.ts';
import { guardWindow } from '../window-guards.ts';
import { isOnOrigin } from '../window-options.ts';

const WINDOW_SIZE = { width: 1600, height: 1200 };

export function electronLauncher(): LaunchBrowser {
  return async () => new ElectronChromium();
}

class ElectronChromium implements Browser {
  // Electron's Chromium is this process: it has no pid of its own and cannot crash apart from the app.
  readonly pid = undefined;
  readonly #pages = new Set<ElectronPage>();

  async openPage(options: PageOptions = {}): Promise<BrowserPage> {
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
    if (options.quiet) {
      window.webContents.setAudioMuted(true);
      window.webContents.setFrameRate(1);
    }
    const page = new ElectronPage(window, () => this.#pages.delete(page), options.origin);
    this.#pages.add(page);
    return page;
  }

  onCrash(): void {}

  async close(): Promise<void> {
    await Promise.all([...this.#pages].map((page) => page.close()));
  }
}

/**
 * A capture page is signed in to Foundry as the capture user or a GM, so it shows its Foundry and nothing else: the
 * origin it was opened for, or else that of the first address the relay opens in it (the Foundry address the GM
 * configured). No page there may open a
 * window, go or be redirected elsewhere, attach a webview or get a permission.
 */
class ElectronPage implements BrowserPage {
  readonly #window: BrowserWindow;
  readonly #contents: WebContents;
  readonly #forget: () => void;
  #foundryOrigin: string | undefined;
  #unzoomedPixelRatio: number | undefined;

  constructor(window: BrowserWindow, forget: () => void, foundryOrigin: string | undefined) {
    this.#window = window;
    this.#contents = window.webContents;
    this.#forget = forget;
    this.#foundryOrigin = foundryOrigin;
    guardWindow(this.#contents, { mayShow: (url) => isOnOrigin(url, this.#foundryOrigin) });
  }

  async goto(url: string, timeoutMs: number): Promise<void> {
    this.#foundryOrigin ??= new URL(url).origin;
    if (!isOnOrigin(url, this.#foundryOrigin))
      throw new Error(`A capture page stays on its Foundry (${this.#foundryOrigin}): ${url} is elsewhere`);
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

  /**
   * capturePage gives rect × the display's scale factor whatever the page renders at, so device emulation adds no
   * detail. Zooming by `scale` does: the sheet covers `scale` times as many DIPs, and the window grows as much so
   * that the page keeps its layout.
   */
  async screenshot(options: ScreenshotOptions): Promise<Uint8Array> {
    const { clip, format, quality, scale } = options;
    const layout = {
      width: Math.max(WINDOW_SIZE.width, Math.ceil(clip.x + clip.width)),
      height: Math.max(WINDOW_SIZE.height, Math.ceil(clip.y + clip.height)),
    };
    this.#unzoomedPixelRatio ??= (await this.#contents.executeJavaScript('devicePixelRatio')) as number;
    this.#window.setContentSize(Math.ceil(layout.width * scale), Math.ceil(layout.height * scale));
    this.#contents.setZoomFactor(scale);
    try {
      const rendered = { pixelRatio: this.#unzoomedPixelRatio * scale, ...layout };
      await this.#contents.executeJavaScript(`(${untilLaidOut.toString()})(${JSON.stringify(rendered)})`);
      let image = await this.#contents.capturePage({
        x: Math.floor(clip.x * scale),
        y: Math.floor(clip.y * scale),
        width: Math.ceil(clip.width * scale),
        height: Math.ceil(clip.height * scale),
      });
      // Electron answers an empty image when the page has no view to copy from.
      if (image.isEmpty()) throw new Error('The offscreen window gave an empty capture');
      const wanted = { width: Math.round(clip.width * scale), height: Math.round(clip.height * scale) };
      const size = image.getSize();
      if (size.width !== wanted.width || size.height !== wanted.height)
        image = image.resize({ ...wanted, quality: 'best' });
      return format === 'jpeg' ? image.toJPEG(Math.round(quality * 100)) : image.toPNG();
    } finally {
      this.#contents.setZoomFactor(1);
      this.#window.setContentSize(WINDOW_SIZE.width, WINDOW_SIZE.height);
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

/**
 * Runs in the page: resolves once the window's size and zoom have reached the renderer (they travel apart from this
 * script) and a frame has been painted with them.
 */
function untilLaidOut(wanted: { pixelRatio: number; width: number; height: number }): Promise<void> {
  const deadline = Date.now() + 5000;
  const laidOut = () =>
    Math.abs(devicePixelRatio - wanted.pixelRatio) < 0.01 &&
    Math.abs(innerWidth - wanted.width) <= 1 &&
    Math.abs(innerHeight - wanted.height) <= 1;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (laidOut()) requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      else if (Date.now() > deadline)
        reject(
          new Error(
            `The page did not take the capture's zoom: it is ${innerWidth} × ${innerHeight} at ${devicePixelRatio}, not ${JSON.stringify(wanted)}`,
          ),
        );
      else requestAnimationFrame(check);
    };
    check();
  });
}
