// What runs inside the Chromium page for a window with a preload script. Electron runs the preload in an isolated
// world when contextIsolation is on, gives it a `require` of its own (in a sandboxed renderer only `electron`'s renderer
// modules), and lets it hand the page an API through contextBridge.exposeInMainWorld, nothing else:
// https://www.electronjs.org/docs/latest/tutorial/context-isolation, https://www.electronjs.org/docs/latest/tutorial/sandbox,
// https://www.electronjs.org/docs/latest/api/context-bridge, https://www.electronjs.org/docs/latest/api/ipc-renderer.
// Chromium gives the same separation to a CDP isolated world: the two worlds share the DOM and nothing else, so the
// exposed API crosses as DOM events carrying JSON (values Electron would copy; no functions as arguments).

export const ISOLATED_WORLD = 'electron-stand-in-preload';
export const IPC_BINDING = '__electronStandInIpc';
export const IPC_REPLY = '__electronStandInIpcReply';
export const IPC_DELIVER = '__electronStandInIpcDeliver';

const EVENTS = {
  expose: '__electron_stand_in:expose',
  call: '__electron_stand_in:call',
  answer: '__electron_stand_in:answer',
  mainWorldReady: '__electron_stand_in:main-world-ready',
};

interface PreloadOptions {
  events: typeof EVENTS;
  binding: string;
  reply: string;
  deliver: string;
  contextIsolation: boolean;
  sandbox: boolean;
}

/** Runs the preload (CommonJS source) where Electron would, with the renderer side of `electron`. Serialised into the page. */
function hostPreload(source: string, options: PreloadOptions): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  const binding = scope[options.binding] as (payload: string) => void;
  delete scope[options.binding];
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  let nextId = 0;
  scope[options.reply] = (id: number, ok: boolean, value: unknown) => {
    const call = pending.get(id);
    pending.delete(id);
    if (ok) call?.resolve(value);
    else call?.reject(new Error(String(value)));
  };
  const post = (message: unknown) => binding(JSON.stringify(message));
  const ipcRenderer = {
    invoke: (channel: string, ...args: unknown[]) =>
      new Promise((resolve, reject) => {
        nextId += 1;
        pending.set(nextId, { resolve, reject });
        post({ kind: 'invoke', id: nextId, channel, args });
      }),
    send: (channel: string, ...args: unknown[]) => post({ kind: 'send', channel, args }),
    sendSync: () => {
      throw new Error('ipcRenderer.sendSync blocks the renderer; the stand-in does not offer it');
    },
    on(channel: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: (...args: unknown[]) => void) {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  };
  scope[options.deliver] = (channel: string, args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: ipcRenderer }, ...args);
  };

  const exposed = new Map<string, unknown>();
  type Shape = { fn: true } | { object: Record<string, Shape> } | { value: unknown };
  const shapeOf = (value: unknown): Shape => {
    if (typeof value === 'function') return { fn: true };
    if (value && typeof value === 'object') {
      return { object: Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)])) };
    }
    return { value };
  };
  const announce = (key: string) => {
    document.dispatchEvent(
      new CustomEvent(options.events.expose, { detail: JSON.stringify({ key, shape: shapeOf(exposed.get(key)) }) }),
    );
  };
  const answer = (message: unknown) =>
    document.dispatchEvent(new CustomEvent(options.events.answer, { detail: JSON.stringify(message) }));
  document.addEventListener(options.events.mainWorldReady, () => exposed.forEach((_api, key) => announce(key)));
  document.addEventListener(options.events.call, (event) => {
    const { id, key, path, args } = JSON.parse((event as CustomEvent<string>).detail) as {
      id: number;
      key: string;
      path: string[];
      args: unknown[];
    };
    try {
      const target = path.slice(0, -1).reduce((object: any, name) => object[name], exposed.get(key));
      const result = target[path[path.length - 1]!](...args);
      if (result && typeof result.then === 'function') {
        result.then(
          (value: unknown) => answer({ id, ok: true, value }),
          (error: unknown) => answer({ id, ok: false, value: error instanceof Error ? error.message : String(error) }),
        );
      } else {
        answer({ id, ok: true, value: result, sync: true });
      }
    } catch (error) {
      answer({ id, ok: false, value: error instanceof Error ? error.message : String(error), sync: true });
    }
  });
  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown) {
      if (!options.contextIsolation)
        throw new Error('contextBridge API can only be used when contextIsolation is enabled');
      exposed.set(key, api);
      announce(key);
    },
  };
  const electron = { ipcRenderer, contextBridge };
  const preloadRequire = (name: string) => {
    if (name === 'electron' || name === 'electron/renderer') return electron;
    const why = options.sandbox
      ? 'a sandboxed preload may only require electron'
      : 'the stand-in gives preloads no Node modules';
    throw new Error(`module not found: ${name} (${why})`);
  };
  const process = {
    platform: 'linux',
    type: 'renderer',
    sandboxed: options.sandbox,
    contextIsolated: options.contextIsolation,
    versions: {},
  };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', 'process', source)(preloadRequire, module, module.exports, process);
}

/** The page's side of contextBridge: defines each exposed API on window as copies whose functions call across. */
function receiveInMainWorld(events: typeof EVENTS): void {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const settledAtOnce = new Map<number, { ok: boolean; value: unknown }>();
  let nextId = 0;
  const call = (key: string, path: string[]) =>
    function (...args: unknown[]) {
      nextId += 1;
      const id = nextId;
      document.dispatchEvent(new CustomEvent(events.call, { detail: JSON.stringify({ id, key, path, args }) }));
      const atOnce = settledAtOnce.get(id);
      if (atOnce) {
        settledAtOnce.delete(id);
        if (!atOnce.ok) throw new Error(String(atOnce.value));
        return atOnce.value;
      }
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    };
  type Shape = { fn: true } | { object: Record<string, Shape> } | { value: unknown };
  const build = (key: string, shape: Shape, path: string[]): unknown => {
    if ('fn' in shape) return call(key, path);
    if ('object' in shape) {
      return Object.freeze(
        Object.fromEntries(
          Object.entries(shape.object).map(([name, inner]) => [name, build(key, inner, [...path, name])]),
        ),
      );
    }
    return shape.value;
  };
  document.addEventListener(events.expose, (event) => {
    const { key, shape } = JSON.parse((event as CustomEvent<string>).detail) as { key: string; shape: Shape };
    if (Object.hasOwn(window, key)) return;
    Object.defineProperty(window, key, { value: build(key, shape, []), enumerable: true });
  });
  document.addEventListener(events.answer, (event) => {
    const { id, ok, value, sync } = JSON.parse((event as CustomEvent<string>).detail) as {
      id: number;
      ok: boolean;
      value: unknown;
      sync?: boolean;
    };
    if (sync) {
      settledAtOnce.set(id, { ok, value });
      return;
    }
    const promise = waiting.get(id);
    waiting.delete(id);
    if (ok) promise?.resolve(value);
    else promise?.reject(new Error(String(value)));
  });
  document.dispatchEvent(new CustomEvent(events.mainWorldReady));
}

export interface PreloadScripts {
  /** For the isolated world (or the main world without contextIsolation). */
  preload: string;
  /** For the main world; none without contextIsolation, where the preload shares the page's world. */
  mainWorld?: string;
}

export function preloadScripts(
  source: string,
  webPreferences: { contextIsolation?: boolean; sandbox?: boolean; nodeIntegration?: boolean },
): PreloadScripts {
  // Electron's defaults: contextIsolation and sandbox are on unless the window turns them off (or turns on Node).
  const contextIsolation = webPreferences.contextIsolation !== false;
  const sandbox = webPreferences.sandbox ?? !webPreferences.nodeIntegration;
  const options: PreloadOptions = {
    events: EVENTS,
    binding: IPC_BINDING,
    reply: IPC_REPLY,
    deliver: IPC_DELIVER,
    contextIsolation,
    sandbox,
  };
  return {
    preload: `(${hostPreload.toString()})(${JSON.stringify(source)}, ${JSON.stringify(options)});`,
    mainWorld: contextIsolation ? `(${receiveInMainWorld.toString()})(${JSON.stringify(EVENTS)});` : undefined,
  };
}
