// The browser port: the few primitives capture needs, whichever Chromium drives them (puppeteer-core in headless mode,
// Electron's own in the tray app). Capture logic is written once, against these interfaces.

export type ImageFormat = 'png' | 'jpeg';

/** A region of the page in CSS pixels. */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ScreenshotOptions {
  clip: Clip;
  format: ImageFormat;
  /** JPEG quality, 0 to 1. */
  quality: number;
  /** Device pixel ratio: the image is clip × scale pixels. */
  scale: number;
}

/** A page in a browser context of its own (own cookies and localStorage). */
export interface BrowserPage {
  goto(url: string, timeoutMs: number): Promise<void>;
  /**
   * Runs `fn(arg)` in the page and returns its (awaited) result. `fn` is sent as source text, so it must not
   * refer to anything outside itself; `arg` and the result must survive JSON.
   */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  screenshot(options: ScreenshotOptions): Promise<Uint8Array>;
  /** Calls `listener` once if the page's renderer dies. */
  onCrash(listener: () => void): void;
  close(): Promise<void>;
}

/** A confined page tried to leave its Foundry: the navigation was refused, and the page is of no more use. */
export class LeftFoundryError extends Error {
  constructor(origin: string, target: string | undefined) {
    super(`The page at ${origin} tried to go to ${target ?? 'another address'}, which the relay does not open`);
  }
}

export interface PageOptions {
  /** The page may load documents of this origin only (its Foundry); a navigation anywhere else is refused. */
  origin?: string;
  /** Nobody looks at the page: its sound is muted and it paints as little as the browser allows. */
  quiet?: boolean;
}

/** One running browser. */
export interface Browser {
  openPage(options?: PageOptions): Promise<BrowserPage>;
  /** Calls `listener` once if the browser process dies or its connection is lost. */
  onCrash(listener: () => void): void;
  /** The browser's process id, when it is a process of its own. */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

/** Starts a browser; the capture host calls it again after a crash. */
export type LaunchBrowser = () => Promise<Browser>;
