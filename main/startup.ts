// The boot sequence, apart from Electron so it can be tested. Electron evaluates an ES-module entry first and emits
// `ready` only once that evaluation has finished, so nothing here may wait for `ready` while the entry is evaluated:
// https://www.electronjs.org/docs/latest/tutorial/esm ("the ready event … after the ESM entry point has loaded").

/** The part of Electron's app the boot sequence uses. */
export interface BootApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  readonly dock?: { hide(): void } | undefined;
  whenReady(): Promise<void>;
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
}

/** What a running app offers the boot sequence. */
export interface StartedApp {
  /** A second launch brings the running app forward instead of starting another relay. */
  focus(): void;
}

/**
 * Started again with this argument, the app quits the copy that runs instead of showing it: for installers and scripts
 * that must close Tabletop Relay (an update, an uninstall, a release's smoke test), on every system alike.
 */
export const QUIT_ARGUMENT = '--quit';

export interface BootSteps {
  /** Everything that needs `ready`: the relay, the tray, the windows. */
  start(): Promise<StartedApp>;
  /** Tells the GM the app could not start (there is no tray to show it on). */
  fail(error: unknown): void;
}

/**
 * Runs the steps that must come before `ready` at once (the single-instance lock, hiding from the Dock), then starts
 * the app when Electron is ready. Returns without waiting: the entry must finish evaluating for `ready` to come.
 */
export function boot(app: BootApp, steps: BootSteps): void {
  if (!app.requestSingleInstanceLock()) {
    // Another copy runs: it gets `second-instance` and shows itself (or quits, for --quit); this one leaves.
    app.quit();
    return;
  }
  app.dock?.hide();
  let started: StartedApp | undefined;
  app.on('second-instance', (_event, argv) => (argv.includes(QUIT_ARGUMENT) ? app.quit() : started?.focus()));
  app
    .whenReady()
    .then(steps.start)
    .then(
      (running) => {
        started = running;
      },
      (error: unknown) => steps.fail(error),
    );
}
