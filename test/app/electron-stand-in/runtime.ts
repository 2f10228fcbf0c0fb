// The stand-in's own bookkeeping, apart from Electron's API: whether `ready` has come, and what the app did that a
// test wants to read back (clipboard, shell, dialogs, notifications, login items). Only launch.ts and control.ts use it
// directly.

export type Phase = 'evaluating' | 'ready' | 'load-failed' | 'quitting';

export interface ElectronEvent {
  preventDefault(): void;
  readonly defaultPrevented: boolean;
}

export function electronEvent(): ElectronEvent {
  let prevented = false;
  return {
    preventDefault: () => void (prevented = true),
    get defaultPrevented() {
      return prevented;
    },
  };
}

export const runtime = {
  phase: 'evaluating' as Phase,
  /** Once `ready` has been emitted; stays true while quitting. */
  ready: false,
  appPath: process.cwd(),
  clipboard: '',
  opened: [] as { how: 'openPath' | 'openExternal'; target: string }[],
  dialogs: [] as { title: string; content: string }[],
  /** Every notification shown, in order; `closed` once the app (or the GM) dismissed it. */
  notifications: [] as { title: string; body: string; closed: boolean }[],
  loginItems: [] as unknown[],
  loadError: undefined as string | undefined,
  /** Errors nobody handled: Electron reports them (a dialog, a warning) and keeps running. */
  uncaught: [] as string[],
};

/** Electron refuses these before `ready`; the messages are the ones Electron throws. */
export function requireReady(what: string): void {
  if (runtime.ready) return;
  throw new Error(what);
}
