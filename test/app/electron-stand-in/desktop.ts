// The desktop-integration modules: Tray (https://www.electronjs.org/docs/latest/api/tray), Menu and MenuItem
// (https://www.electronjs.org/docs/latest/api/menu, .../menu-item), nativeImage (.../native-image), clipboard
// (.../clipboard), shell (.../shell), safeStorage (.../safe-storage), screen (.../screen), dialog (.../dialog),
// Notification (.../notification). What they show or do outside the app is recorded in runtime.ts, trays and
// notifications, where the test reads it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { encodeNow } from './image-codec.ts';
import { requireReady, runtime } from './runtime.ts';

const PNG_SIGNATURE = '89504e470d0a1a0a';

export class NativeImage {
  readonly #png: Buffer | undefined;
  /** Not Electron API: the file the image came from, so the test can tell which icon the tray shows. */
  readonly standInPath: string | undefined;

  constructor(png: Buffer | undefined, path?: string) {
    this.#png = png;
    this.standInPath = path;
  }

  isEmpty(): boolean {
    return this.#png === undefined;
  }

  getSize(): { width: number; height: number } {
    if (!this.#png) return { width: 0, height: 0 };
    return { width: this.#png.readUInt32BE(16), height: this.#png.readUInt32BE(20) };
  }

  toPNG(): Buffer {
    return this.#png ?? Buffer.alloc(0);
  }

  /** Encoded by Chromium's own JPEG encoder; quality is 0 to 100. */
  toJPEG(quality: number): Buffer {
    return this.#png ? encodeNow({ kind: 'jpeg', png: this.#png, quality }) : Buffer.alloc(0);
  }

  /** "If only the height or the width are specified then the current aspect ratio will be preserved." */
  resize({
    width,
    height,
    quality = 'best',
  }: {
    width?: number;
    height?: number;
    quality?: 'good' | 'better' | 'best';
  }): NativeImage {
    if (!this.#png) return this;
    const size = this.getSize();
    const ratio = size.width / size.height;
    const wanted = {
      width: Math.round(width ?? (height === undefined ? size.width : height * ratio)),
      height: Math.round(height ?? (width === undefined ? size.height : width / ratio)),
    };
    const smoothing = ({ good: 'low', better: 'medium', best: 'high' } as const)[quality];
    return new NativeImage(encodeNow({ kind: 'resize', png: this.#png, ...wanted, smoothing }));
  }

  toDataURL(): string {
    return `data:image/png;base64,${this.toPNG().toString('base64')}`;
  }
}

/** Reads PNG files; "If the path does not exist or the image cannot be read, an empty image is returned" (no throw). */
export const nativeImage = {
  createFromPath(path: string): NativeImage {
    if (!existsSync(path)) return new NativeImage(undefined, path);
    const bytes = readFileSync(path);
    return new NativeImage(bytes.subarray(0, 8).toString('hex') === PNG_SIGNATURE ? bytes : undefined, path);
  },
  createFromBuffer(buffer: Buffer): NativeImage {
    return new NativeImage(buffer.subarray(0, 8).toString('hex') === PNG_SIGNATURE ? Buffer.from(buffer) : undefined);
  },
  createEmpty(): NativeImage {
    return new NativeImage(undefined);
  },
};

function imageOf(image: NativeImage | string): NativeImage {
  return typeof image === 'string' ? nativeImage.createFromPath(image) : image;
}

export interface MenuItemOptions {
  label?: string;
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox' | 'radio';
  enabled?: boolean;
  visible?: boolean;
  checked?: boolean;
  id?: string;
  click?: (item: MenuItem, window: unknown, event: unknown) => void;
  submenu?: MenuItemOptions[] | Menu;
}

export class MenuItem {
  readonly label: string;
  readonly type: NonNullable<MenuItemOptions['type']>;
  readonly id: string | undefined;
  readonly submenu: Menu | undefined;
  readonly click: (event?: unknown) => void;
  enabled: boolean;
  visible: boolean;
  checked: boolean;

  constructor(options: MenuItemOptions) {
    this.label = options.label ?? '';
    this.type = options.type ?? (options.submenu ? 'submenu' : 'normal');
    this.id = options.id;
    this.enabled = options.enabled ?? true;
    this.visible = options.visible ?? true;
    this.checked = options.checked ?? false;
    this.submenu =
      options.submenu instanceof Menu ? options.submenu : options.submenu && Menu.buildFromTemplate(options.submenu);
    // A checkbox item flips its own `checked` before its click handler runs.
    this.click = (event = {}) => {
      if (this.type === 'checkbox') this.checked = !this.checked;
      options.click?.(this, undefined, event);
    };
  }
}

export class Menu extends EventEmitter {
  static buildFromTemplate(template: (MenuItemOptions | MenuItem)[]): Menu {
    const menu = new Menu();
    for (const item of template) menu.append(item instanceof MenuItem ? item : new MenuItem(item));
    return menu;
  }

  readonly items: MenuItem[] = [];

  append(item: MenuItem): void {
    this.items.push(item);
  }
}

export const trays = new Set<Tray>();

export class Tray extends EventEmitter {
  image: NativeImage;
  toolTip = '';
  contextMenu: Menu | null = null;
  #destroyed = false;

  constructor(image: NativeImage | string) {
    requireReady('Cannot create Tray before app is ready');
    super();
    this.image = imageOf(image);
    trays.add(this);
  }

  setImage(image: NativeImage | string): void {
    this.image = imageOf(image);
  }

  setToolTip(toolTip: string): void {
    this.toolTip = toolTip;
  }

  setContextMenu(menu: Menu | null): void {
    this.contextMenu = menu;
  }

  destroy(): void {
    this.#destroyed = true;
    trays.delete(this);
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  getBounds() {
    return { x: 0, y: 0, width: 22, height: 22 };
  }
}

export const clipboard = {
  writeText(text: string): void {
    runtime.clipboard = text;
  },
  readText(): string {
    return runtime.clipboard;
  },
};

export const shell = {
  /** Resolves to '' on success, to the error's words otherwise. */
  async openPath(path: string): Promise<string> {
    runtime.opened.push({ how: 'openPath', target: path });
    return existsSync(path) ? '' : `Failed to open path`;
  },
  async openExternal(url: string): Promise<void> {
    runtime.opened.push({ how: 'openExternal', target: url });
  },
};

// A headless Linux desktop has no keyring: Chromium then seals with a fixed built-in password ('basic_text').
const BASIC_TEXT_KEY = randomBytes(32);
const NOT_READY = 'safeStorage cannot be used before app is ready';

export const safeStorage = {
  /** "On Linux, returns true if the app has emitted the ready event and the secret key is available." */
  isEncryptionAvailable(): boolean {
    return runtime.ready;
  },
  getSelectedStorageBackend(): string {
    requireReady(NOT_READY);
    return 'basic_text';
  },
  encryptString(plain: string): Buffer {
    requireReady(NOT_READY);
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', BASIC_TEXT_KEY, iv);
    return Buffer.concat([Buffer.from('v10'), iv, cipher.update(plain, 'utf8'), cipher.final()]);
  },
  decryptString(sealed: Buffer): string {
    requireReady(NOT_READY);
    const decipher = createDecipheriv('aes-256-cbc', BASIC_TEXT_KEY, sealed.subarray(3, 19));
    return Buffer.concat([decipher.update(sealed.subarray(19)), decipher.final()]).toString('utf8');
  },
};

const DISPLAY = {
  id: 1,
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1050 },
  size: { width: 1920, height: 1080 },
  workAreaSize: { width: 1920, height: 1050 },
  scaleFactor: 1,
  rotation: 0,
  internal: false,
};

/** "This module cannot be used until the ready event of the app module is emitted." */
export const screen = new Proxy(
  Object.assign(new EventEmitter(), {
    getPrimaryDisplay: () => DISPLAY,
    getAllDisplays: () => [DISPLAY],
  }),
  {
    get(target, property, receiver) {
      requireReady("The 'screen' module can't be used before the app 'ready' event");
      return Reflect.get(target, property, receiver);
    },
  },
);

export interface MessageBoxOptions {
  message: string;
  type?: string;
  buttons?: string[];
  defaultId?: number;
  cancelId?: number;
  title?: string;
  detail?: string;
}

export const dialog = {
  /** "This API can be called safely before the ready event"; on Linux without a display it prints to stderr. */
  showErrorBox(title: string, content: string): void {
    runtime.dialogs.push({ title, content });
    process.stderr.write(`${title}\n${content}\n`);
  },
  /**
   * "Shows a message box" and resolves with the button pressed. Recorded; the stand-in's user dismisses it, which
   * Electron answers with `cancelId` (by default the button labelled Cancel or No, else 0).
   */
  async showMessageBox(options: MessageBoxOptions): Promise<{ response: number; checkboxChecked: boolean }> {
    requireReady("The 'dialog' module can't be used before the app 'ready' event");
    runtime.dialogs.push({ title: options.title ?? '', content: [options.message, options.detail].join('\n') });
    const cancel = options.buttons?.findIndex((label) => /^(cancel|no)$/i.test(label)) ?? -1;
    return { response: options.cancelId ?? (cancel >= 0 ? cancel : 0), checkboxChecked: false };
  },
};

export interface NotificationConstructorOptions {
  title?: string;
  subtitle?: string;
  body?: string;
  silent?: boolean;
  icon?: string | NativeImage;
  hasReply?: boolean;
  timeoutType?: 'default' | 'never';
  replyPlaceholder?: string;
  sound?: string;
  urgency?: 'normal' | 'critical' | 'low';
  closeButtonText?: string;
  toastXml?: string;
}

/** The notifications on screen now, for the test to click as the GM would. */
export const notifications = new Set<Notification>();

/**
 * https://www.electronjs.org/docs/latest/api/notification: "Unlike the web notification API, instantiating a new
 * Notification does not immediately show it to the user. Instead, you need to call this method before the OS will
 * display it. If the notification has been shown before, this method will dismiss the previously shown notification
 * and create a new one with identical properties." Events: show, click, close (not guaranteed on every platform).
 */
export class Notification extends EventEmitter {
  /** A Linux desktop with a notification server, as the tests' desktop is taken to be. */
  static isSupported(): boolean {
    return true;
  }

  title: string;
  subtitle: string;
  body: string;
  silent: boolean;
  #record: (typeof runtime.notifications)[number] | undefined;

  constructor(options: NotificationConstructorOptions = {}) {
    super();
    this.title = options.title ?? '';
    this.subtitle = options.subtitle ?? '';
    this.body = options.body ?? '';
    this.silent = options.silent ?? false;
  }

  show(): void {
    if (this.#record && !this.#record.closed) this.#dismiss();
    this.#record = { title: this.title, body: this.body, closed: false };
    runtime.notifications.push(this.#record);
    notifications.add(this);
    this.emit('show', { defaultPrevented: false, preventDefault() {} });
  }

  /** "Dismisses the notification." */
  close(): void {
    if (!this.#record || this.#record.closed) return;
    this.#dismiss();
    this.emit('close', { defaultPrevented: false, preventDefault() {} });
  }

  /** Not Electron API: the GM clicks the notification on screen. */
  standInClick(): void {
    if (!this.#record || this.#record.closed) throw new Error(`the notification "${this.title}" is not on screen`);
    this.emit('click', { defaultPrevented: false, preventDefault() {} });
  }

  #dismiss(): void {
    this.#record!.closed = true;
    notifications.delete(this);
  }
}
