// BrowserWindow, webContents, session and ipcMain, over a real headless Chromium (puppeteer-core):
// https://www.electronjs.org/docs/latest/api/browser-window, https://www.electronjs.org/docs/latest/api/web-contents,
// https://www.electronjs.org/docs/latest/api/session, https://www.electronjs.org/docs/latest/api/ipc-main.
// Each window is a Chromium page sized as the window; webPreferences.preload, contextIsolation and sandbox are honoured
// through renderer-bridge.ts; a partition other than the default gets a browser context of its own (in memory).
// Offscreen windows (webPreferences.offscreen, https://www.electronjs.org/docs/latest/tutorial/offscreen-rendering)
// are pages like any other, never shown; executeJavaScript, capturePage and setZoomFactor work on the page itself.
// will-navigate (a navigation the main frame starts by itself: a link, a form, `location`) and will-redirect (a server
// redirect of a main-frame navigation, loadURL's included) fire before the request leaves, and preventDefault() cancels
// it (https://www.electronjs.org/docs/latest/api/web-contents#event-will-navigate); a window.open that the window open
// handler denies is closed at once. Not reproduced: frames other than the main one (will-frame-navigate), the paint
// event, and native window chrome.
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';
import { launchChromium } from '../../../scripts/chromium.ts';
import { app } from './app.ts';
import { nativeImage, screen, type NativeImage } from './desktop.ts';
import { encodeWithChromium } from './image-codec.ts';
import { structuredCloneOf, thrownBy } from './page-values.ts';
import { IPC_BINDING, IPC_DELIVER, IPC_REPLY, ISOLATED_WORLD, preloadScripts } from './renderer-bridge.ts';
import { electronEvent, requireReady, type ElectronEvent } from './runtime.ts';

let chromium: Promise<Browser> | undefined;
/** The stand-in's one Chromium, launched at first use: every window's page and every drawn menu are pages of it. */
export function browser(): Promise<Browser> {
  chromium ??= launchChromium().then((launched) => {
    encodeWithChromium(launched.wsEndpoint());
    return launched;
  });
  return chromium;
}
app.standInHooks.beforeExit = async () => {
  if (chromium) await (await chromium).close();
};

type InvokeHandler = (event: IpcEvent, ...args: unknown[]) => unknown;

export interface IpcEvent {
  sender: WebContents;
  senderFrame: { url: string; routingId: number };
  processId: number;
  frameId: number;
  returnValue?: unknown;
}

class IpcMain extends EventEmitter {
  readonly #handlers = new Map<string, InvokeHandler>();

  handle(channel: string, handler: InvokeHandler): void {
    if (this.#handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.#handlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    this.#handlers.delete(channel);
  }

  /** What ipcRenderer.invoke gets: the handler's value, or the rejection Electron words this way. */
  async standInInvoke(channel: string, event: IpcEvent, args: unknown[]): Promise<unknown> {
    const handler = this.#handlers.get(channel);
    try {
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return await handler(event, ...args);
    } catch (error) {
      throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, { cause: error });
    }
  }
}

export const ipcMain = new IpcMain();

type PermissionHandler = (
  contents: WebContents,
  permission: string,
  grant: (granted: boolean) => void,
  details: unknown,
) => void;

class Session {
  readonly partition: string;
  permissionRequestHandler: PermissionHandler | null = null;
  #context: Promise<BrowserContext> | undefined;

  constructor(partition: string) {
    this.partition = partition;
  }

  setPermissionRequestHandler(handler: PermissionHandler | null): void {
    this.permissionRequestHandler = handler;
  }

  standInContext(): Promise<BrowserContext> {
    this.#context ??= browser().then((chromium) =>
      this.partition === '' ? chromium.defaultBrowserContext() : chromium.createBrowserContext(),
    );
    return this.#context;
  }
}

const sessions = new Map<string, Session>();
function sessionFor(partition = ''): Session {
  if (!sessions.has(partition)) sessions.set(partition, new Session(partition));
  return sessions.get(partition)!;
}

export interface WebPreferences {
  preload?: string;
  contextIsolation?: boolean;
  sandbox?: boolean;
  nodeIntegration?: boolean;
  partition?: string;
  offscreen?: boolean;
  [other: string]: unknown;
}

type WindowOpenHandler = (details: { url: string; frameName: string; disposition: string }) => {
  action: 'allow' | 'deny';
};

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

let nextWebContentsId = 1;

export class WebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly session: Session;
  readonly #window: BrowserWindow;
  readonly #preferences: WebPreferences;
  #page: Promise<Page> | undefined;
  #openHandler: WindowOpenHandler | undefined;
  /** A loadURL whose first request is on its way: that request is the app's own, not one the page started. */
  #loadingFromApp = false;
  #destroyed = false;
  #url = '';
  #title = '';
  #cdp: CDPSession | undefined;
  readonly #isolatedContexts = new Set<number>();
  #devtoolsSession: Promise<CDPSession> | undefined;
  #loading: Promise<unknown> = Promise.resolve();
  #zoomFactor = 1;
  #audioMuted = false;
  #frameRate = 60;
  /** Size and zoom changes reach Chromium in the order they were made, before any capture made after them. */
  #metrics: Promise<void> = Promise.resolve();

  constructor(window: BrowserWindow, preferences: WebPreferences) {
    super();
    this.#window = window;
    this.#preferences = preferences;
    this.session = sessionFor(preferences.partition);
  }

  /** Resolves when the page has loaded (did-finish-load), rejects when it fails to (did-fail-load), as the page says. */
  loadURL(url: string): Promise<void> {
    const loaded = this.#load(url);
    this.#loading = loaded.catch(() => undefined);
    return loaded;
  }

  async #load(url: string): Promise<void> {
    const page = await this.standInPage();
    this.#loadingFromApp = true;
    this.emit('did-start-loading');
    try {
      await page.goto(url, { waitUntil: 'load' });
    } catch (error) {
      this.#loadingFromApp = false;
      this.emit('did-fail-load', electronEvent(), -2, String(error), url, true);
      throw new Error(`ERR_FAILED (-2) loading '${url}': ${String(error)}`, { cause: error });
    }
    this.emit('dom-ready', electronEvent());
    this.emit('did-finish-load', electronEvent());
    this.#window.standInLoaded();
  }

  getURL(): string {
    return this.#url;
  }

  /**
   * "Evaluates code in page … Code execution will be suspended until web page stop loading." Runs in the page's main
   * world; resolves with the (awaited) result as a structured clone, rejects with what the code threw or rejected with.
   */
  async executeJavaScript(code: string, userGesture = false): Promise<unknown> {
    await this.#loading;
    const devtools = await this.#devtools();
    const { result, exceptionDetails } = await devtools.send('Runtime.evaluate', {
      expression: code,
      awaitPromise: true,
      userGesture,
      serializationOptions: { serialization: 'deep' },
    });
    if (exceptionDetails) throw thrownBy(exceptionDetails);
    return structuredCloneOf(result.deepSerializedValue);
  }

  /**
   * "Captures a snapshot of the page within rect. Omitting rect will capture the whole visible page." rect is in DIPs of
   * the visible page and must be whole numbers; the bitmap is rect × the display's scale factor, whatever scale the page
   * renders at (WebContents::CapturePage in shell/browser/api/electron_api_web_contents.cc).
   */
  capturePage(rect?: Rectangle): Promise<NativeImage> {
    if (rect && ![rect.x, rect.y, rect.width, rect.height].every(Number.isInteger)) {
      throw new TypeError('Error processing argument at index 0, conversion failure from [object Object]');
    }
    return this.#capture(rect);
  }

  /** "Zoom factor is zoom percent divided by 100, so 300% = 3.0. The factor must be greater than 0.0." */
  setZoomFactor(factor: number): void {
    if (!(factor > Number.EPSILON)) throw new Error("'zoomFactor' must be a double greater than 0.0");
    this.#zoomFactor = factor;
    this.#applyMetrics();
  }

  getZoomFactor(): number {
    return this.#zoomFactor;
  }

  /** "Mute the audio on the current web page." Recorded: headless Chromium plays no sound either way. */
  setAudioMuted(muted: boolean): void {
    this.#audioMuted = muted;
  }

  isAudioMuted(): boolean {
    return this.#audioMuted;
  }

  /**
   * "If offscreen rendering is enabled sets the frame rate to the specified number. Only values between 1 and 240 are
   * accepted." Recorded; the page paints as headless Chromium does.
   */
  setFrameRate(fps: number): void {
    if (this.#preferences.offscreen && Number.isInteger(fps) && fps >= 1 && fps <= 240) this.#frameRate = fps;
  }

  /** "If offscreen rendering is enabled returns the current frame rate." */
  getFrameRate(): number {
    return this.#frameRate;
  }

  /** The window's content size changed. */
  standInResized(): void {
    this.#applyMetrics();
  }

  getTitle(): string {
    return this.#title;
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.#openHandler = handler;
  }

  /** Main to renderer: reaches ipcRenderer.on listeners of the preload. */
  send(channel: string, ...args: unknown[]): void {
    void this.#isolatedWorldEvaluate(
      `globalThis[${JSON.stringify(IPC_DELIVER)}]?.(${JSON.stringify(channel)}, ${JSON.stringify(args)})`,
    );
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  /**
   * The Chromium page behind this webContents: not Electron API. The boot test reads the page through it, and Electron
   * methods built on a page (executeJavaScript, capturePage, enableDeviceEmulation) are written over it.
   */
  standInPage(): Promise<Page> {
    this.#page ??= this.#openPage();
    return this.#page;
  }

  standInClose(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.emit('destroyed');
    void this.#page?.then((page) => page.close()).catch(() => undefined);
  }

  async #openPage(): Promise<Page> {
    const context = await this.session.standInContext();
    const page = await context.newPage();
    const [width, height] = this.#window.getContentSize();
    await page.setViewport({ width: width!, height: height! });
    // DevTools tells of a crashed renderer, not how it ended.
    page.on('error', () => this.emit('render-process-gone', electronEvent(), { reason: 'crashed', exitCode: 0 }));
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.#url = frame.url();
      this.emit('did-navigate', electronEvent(), this.#url);
    });
    page.on(
      'load',
      () =>
        void page.title().then(
          (title) => (this.#title = title),
          () => undefined,
        ),
    );
    page.on('popup', (popup) => void this.#onPopup(popup));
    await this.#askBeforeNavigating(page);
    if (this.#preferences.preload) await this.#installPreload(page, this.#preferences.preload);
    return page;
  }

  /**
   * Holds each main-frame document request until will-navigate (one the page started) or will-redirect (a server's
   * redirect) has been emitted, and cancels it when a listener called preventDefault(), as Electron does.
   */
  async #askBeforeNavigating(page: Page): Promise<void> {
    const cdp = await page.createCDPSession();
    const { frameTree } = await cdp.send('Page.getFrameTree');
    cdp.on('Fetch.requestPaused', ({ requestId, request, frameId, redirectedRequestId }) => {
      const event = Object.assign(electronEvent(), { url: request.url, isMainFrame: true, isSameDocument: false });
      // Frames other than the main one are not reproduced.
      if (frameId === frameTree.frame.id) this.#beforeNavigating(event, request.url, redirectedRequestId !== undefined);
      const decided = event.defaultPrevented
        ? cdp.send('Fetch.failRequest', { requestId, errorReason: 'Aborted' })
        : cdp.send('Fetch.continueRequest', { requestId });
      void decided.catch(() => undefined);
    });
    await cdp.send('Fetch.enable', {
      patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }],
    });
  }

  #beforeNavigating(event: ElectronEvent, url: string, redirected: boolean): void {
    if (redirected) this.emit('will-redirect', event, url, false, true);
    else if (this.#loadingFromApp) this.#loadingFromApp = false;
    else this.emit('will-navigate', event, url, false, true);
  }

  async #onPopup(popup: Page | null): Promise<void> {
    if (!popup) return;
    const decision = this.#openHandler?.({ url: popup.url(), frameName: '', disposition: 'new-window' }) ?? {
      action: 'allow',
    };
    if (decision.action === 'deny') await popup.close();
  }

  async #installPreload(page: Page, preloadPath: string): Promise<void> {
    const scripts = preloadScripts(readFileSync(preloadPath, 'utf8'), this.#preferences);
    const isolated = scripts.mainWorld !== undefined;
    const cdp = await page.createCDPSession();
    this.#cdp = cdp;
    cdp.on('Runtime.executionContextCreated', ({ context }) => {
      if (context.name === ISOLATED_WORLD) this.#isolatedContexts.add(context.id);
    });
    cdp.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      if (name === IPC_BINDING) void this.#fromRenderer(page, JSON.parse(payload), executionContextId);
    });
    // Scripts for new documents run only for a session that has the Page domain on.
    await cdp.send('Page.enable');
    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', {
      name: IPC_BINDING,
      ...(isolated ? { executionContextName: ISOLATED_WORLD } : {}),
    });
    if (scripts.mainWorld) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: scripts.mainWorld });
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
      source: scripts.preload,
      ...(isolated ? { worldName: ISOLATED_WORLD } : {}),
    });
  }

  async #fromRenderer(
    page: Page,
    message: { kind: string; id?: number; channel: string; args: unknown[] },
    contextId: number,
  ): Promise<void> {
    const event: IpcEvent = {
      sender: this,
      senderFrame: { url: page.mainFrame().url(), routingId: 1 },
      processId: 1,
      frameId: 1,
    };
    if (message.kind === 'send') {
      ipcMain.emit(message.channel, event, ...message.args);
      return;
    }
    const [ok, value] = await ipcMain.standInInvoke(message.channel, event, message.args).then(
      (result) => [true, result] as const,
      (error: Error) => [false, error.message] as const,
    );
    const reply = `globalThis[${JSON.stringify(IPC_REPLY)}](${message.id}, ${ok}, ${JSON.stringify(value) ?? 'undefined'})`;
    // The page may have moved on meanwhile; Electron drops such a reply too.
    await this.#cdp?.send('Runtime.evaluate', { expression: reply, contextId }).catch(() => undefined);
  }

  #devtools(): Promise<CDPSession> {
    this.#devtoolsSession ??= this.standInPage().then((page) => page.createCDPSession());
    return this.#devtoolsSession;
  }

  /**
   * Chromium's zoom makes a CSS pixel `factor` DIPs and raises devicePixelRatio by as much: the page is laid out in the
   * window's size ÷ factor, at factor × the display's scale factor.
   */
  #applyMetrics(): void {
    const [width, height] = this.#window.getContentSize();
    const zoom = this.#zoomFactor;
    const metrics = {
      width: Math.round(width! / zoom),
      height: Math.round(height! / zoom),
      deviceScaleFactor: zoom * screen.getPrimaryDisplay().scaleFactor,
      mobile: false,
    };
    // Set through the session that captures: DevTools sizes a screenshot by its own session's device metrics.
    this.#metrics = this.#metrics
      .then(async () => (await this.#devtools()).send('Emulation.setDeviceMetricsOverride', metrics))
      .then(
        () => undefined,
        () => undefined,
      );
  }

  async #capture(rect: Rectangle | undefined): Promise<NativeImage> {
    await this.#metrics;
    const [width, height] = this.#window.getContentSize();
    const area = rect ?? { x: 0, y: 0, width: width!, height: height! };
    const devtools = await this.#devtools();
    // DevTools clips in CSS pixels of the document; rect is in DIPs of what is visible.
    const { cssVisualViewport } = await devtools.send('Page.getLayoutMetrics');
    const zoom = this.#zoomFactor;
    const { data } = await devtools.send('Page.captureScreenshot', {
      format: 'png',
      clip: {
        x: cssVisualViewport.pageX + area.x / zoom,
        y: cssVisualViewport.pageY + area.y / zoom,
        width: area.width / zoom,
        height: area.height / zoom,
        // The page renders at zoom × the display's scale factor; the bitmap is at the display's.
        scale: 1,
      },
    });
    return nativeImage.createFromBuffer(Buffer.from(data, 'base64'));
  }

  async #isolatedWorldEvaluate(expression: string): Promise<void> {
    for (const contextId of this.#isolatedContexts) {
      await this.#cdp?.send('Runtime.evaluate', { expression, contextId }).catch(() => undefined);
    }
  }
}

export interface BrowserWindowOptions {
  width?: number;
  height?: number;
  show?: boolean;
  title?: string;
  webPreferences?: WebPreferences;
  [other: string]: unknown;
}

let nextWindowId = 1;
const openWindows = new Set<BrowserWindow>();

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return [...openWindows];
  }

  static getFocusedWindow(): BrowserWindow | null {
    return [...openWindows].find((window) => window.isFocused()) ?? null;
  }

  static fromWebContents(contents: WebContents): BrowserWindow | null {
    return [...openWindows].find((window) => window.webContents === contents) ?? null;
  }

  readonly id = nextWindowId++;
  readonly webContents: WebContents;
  #size: [number, number];
  #title: string;
  #visible = false;
  #focused = false;
  #minimized = false;
  #destroyed = false;
  #shownOnce = false;

  constructor(options: BrowserWindowOptions = {}) {
    requireReady('Cannot create BrowserWindow before app is ready');
    super();
    this.#size = [options.width ?? 800, options.height ?? 600];
    this.#title = options.title ?? app.getName();
    this.webContents = new WebContents(this, options.webPreferences ?? {});
    openWindows.add(this);
    if (options.show !== false) this.show();
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }

  show(): void {
    this.#visible = true;
    this.#minimized = false;
    this.emit('show');
    this.focus();
  }

  hide(): void {
    this.#visible = false;
    this.#focused = false;
    this.emit('hide');
  }

  focus(): void {
    for (const other of openWindows) if (other !== this) other.#focused = false;
    this.#focused = true;
    this.emit('focus');
  }

  blur(): void {
    this.#focused = false;
    this.emit('blur');
  }

  minimize(): void {
    this.#minimized = true;
    this.#focused = false;
    this.emit('minimize');
  }

  restore(): void {
    this.#minimized = false;
    this.emit('restore');
  }

  isVisible(): boolean {
    return this.#visible && !this.#minimized;
  }

  isFocused(): boolean {
    return this.#focused;
  }

  isMinimized(): boolean {
    return this.#minimized;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  getTitle(): string {
    return this.webContents.getTitle() || this.#title;
  }

  setTitle(title: string): void {
    this.#title = title;
  }

  getContentSize(): number[] {
    return [...this.#size];
  }

  setContentSize(width: number, height: number): void {
    this.#size = [width, height];
    this.webContents.standInResized();
  }

  /** "Try to close the window": `close` may be prevented; otherwise the window is destroyed and `closed` follows. */
  close(): boolean {
    if (this.#destroyed) return true;
    const event = electronEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#visible = false;
    openWindows.delete(this);
    this.webContents.standInClose();
    this.emit('closed');
    if (openWindows.size === 0 && !quittingNow) allWindowsClosed();
  }

  /** `ready-to-show`: once, when the first page has been rendered and the window was not shown yet. */
  standInLoaded(): void {
    if (this.#shownOnce) return;
    this.#shownOnce = true;
    if (!this.#visible) this.emit('ready-to-show', electronEvent());
  }
}

let quittingNow = false;

/** "If you do not subscribe to this event and all windows are closed, the default behavior is to quit the app." */
function allWindowsClosed(): void {
  if (app.listenerCount('window-all-closed') === 0) app.quit();
  else app.emit('window-all-closed');
}

app.standInHooks.closeWindows = () => {
  quittingNow = true;
  try {
    return [...openWindows].every((window) => window.close());
  } finally {
    quittingNow = false;
  }
};
