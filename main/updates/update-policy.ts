// When the desktop app looks for, fetches and installs an update: a plain module, no Electron. The rule a table needs is
// that nothing restarts the app by itself: an update is installed when the GM quits, or when the GM presses "Restart to
// update", and a press while a world is online or kept asks first.

/**
 * - `off`: the GM turned update checks off.
 * - `unpackaged`: a build run from the sources, which has no release feed to check.
 * - `idle`: waiting for the next check.
 * - `checking`, `downloading` (with `percent`), `ready` (downloaded, installed at quit or on "Restart to update").
 * - `up-to-date`: the last check found nothing newer.
 * - `failed`: the last check or download failed (`error`), or the download's signature was refused; tried again at the
 *   next check, and nothing is installed meanwhile.
 */
export type UpdatePhase =
  'off' | 'unpackaged' | 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed';

export interface UpdateState {
  phase: UpdatePhase;
  /** The version being fetched or ready. */
  version?: string;
  percent?: number;
  /** Why the last check or download failed, in words. */
  error?: string;
  /** ISO time of the last finished check. */
  checkedAt?: string;
}

/** What is going on at the table: a restart now would take these offline for a few seconds. */
export interface TableState {
  worldsOnline: number;
  keepersRunning: number;
}

/** How often a running app looks again. */
export const CHECK_INTERVAL_MS = 4 * 60 * 60_000;
/** The first check waits until the app has settled after start. */
export const FIRST_CHECK_DELAY_MS = 60_000;

/** Whether to look for an update now. */
export function checkDue(state: UpdateState, enabled: boolean, packaged: boolean, now: Date): boolean {
  if (!enabled || !packaged) return false;
  if (state.phase === 'checking' || state.phase === 'downloading' || state.phase === 'ready') return false;
  return state.checkedAt === undefined || now.getTime() - Date.parse(state.checkedAt) >= CHECK_INTERVAL_MS;
}

/**
 * What "Restart to update" does: nothing without a verified update; at once when nothing is online; after the GM
 * confirms when a world is online or kept, since the restart takes it offline for a few seconds.
 */
export function restartDecision(state: UpdateState, table: TableState): 'unavailable' | 'confirm-first' | 'restart' {
  if (state.phase !== 'ready') return 'unavailable';
  return table.worldsOnline > 0 || table.keepersRunning > 0 ? 'confirm-first' : 'restart';
}

/** The state an updater's error leaves: a refused signature said as such, anything else in the updater's words. */
export function failedState(previous: UpdateState, message: string, now: Date): UpdateState {
  const signature = /signature|code sign|not signed|publisher/i.test(message);
  return {
    phase: 'failed',
    ...(previous.version ? { version: previous.version } : {}),
    error: signature ? "the update's signature was refused, so it was not installed" : message,
    checkedAt: now.toISOString(),
  };
}

function updateName(state: UpdateState): string {
  return state.version ? `update ${state.version}` : 'the update';
}

/** One line for the tray: what the updater is doing, or undefined when there is nothing to say. */
export function updateText(state: UpdateState): string | undefined {
  switch (state.phase) {
    case 'checking':
      return 'Checking for updates…';
    case 'downloading':
      return `Downloading ${updateName(state)} (${Math.round(state.percent ?? 0)} %)`;
    case 'ready':
      return `${updateName(state)} is ready: installed when you quit`.replace(/^u/, 'U');
    case 'failed':
      return `Update failed: ${state.error ?? 'unknown error'}`;
    case 'up-to-date':
      return 'Tabletop Relay is up to date';
    case 'off':
    case 'unpackaged':
    case 'idle':
      return undefined;
  }
}
