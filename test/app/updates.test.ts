// The desktop app's update policy and its updater, with a stand-in for electron-updater's AppUpdater written from its
// documented events (https://www.electron.build/auto-update#events): every state a GM's table can be in.
import { EventEmitter } from 'node:events';
import type { AppUpdater } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import { DesktopUpdates, type DesktopUpdatesOptions } from '../../main/updates/app-updater.ts';
import {
  CHECK_INTERVAL_MS,
  checkDue,
  failedState,
  restartDecision,
  updateText,
  type TableState,
  type UpdateState,
} from '../../main/updates/update-policy.ts';
import { menuFor } from '../../main/tray-menu.ts';
import type { TrayStatus } from '../../main/tray-status.ts';
import { trayStatus } from './tray-fixtures.ts';

const NOW = new Date('2026-11-26T20:00:00Z');
const QUIET: TableState = { worldsOnline: 0, keepersRunning: 0 };
const WORLD_ONLINE: TableState = { worldsOnline: 1, keepersRunning: 0 };
const KEEPER_RUNNING: TableState = { worldsOnline: 0, keepersRunning: 1 };
const READY: UpdateState = { phase: 'ready', version: '0.2.0', checkedAt: NOW.toISOString() };

/** electron-updater's updater as the app uses it: checks, emits its events, and quits to install when told. */
class RecordingUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  logger: unknown = undefined;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  nextCheck: () => void = () => this.emit('update-not-available', { version: '0.1.0' });

  async checkForUpdates() {
    this.checks += 1;
    this.emit('checking-for-update');
    this.nextCheck();
    return null;
  }

  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

function updates(overrides: Partial<DesktopUpdatesOptions> = {}) {
  const updater = new RecordingUpdater();
  const states: UpdateState[] = [];
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const confirm = vi.fn(async () => false);
  const desktop = new DesktopUpdates({
    packaged: true,
    enabled: () => true,
    log,
    table: () => QUIET,
    confirmRestart: confirm,
    changed: (state) => states.push(state),
    loadUpdater: async () => updater as unknown as AppUpdater,
    ...overrides,
  });
  return { desktop, updater, states, log, confirm };
}

describe('the update policy', () => {
  it('checks an installed app with checks on, at most every few hours, and never during a download or once ready', () => {
    const checked = { phase: 'up-to-date', checkedAt: NOW.toISOString() } as const;
    expect(checkDue({ phase: 'idle' }, true, true, NOW)).toBe(true);
    expect(checkDue({ phase: 'idle' }, false, true, NOW)).toBe(false);
    expect(checkDue({ phase: 'idle' }, true, false, NOW)).toBe(false);
    expect(checkDue(checked, true, true, new Date(NOW.getTime() + CHECK_INTERVAL_MS - 1))).toBe(false);
    expect(checkDue(checked, true, true, new Date(NOW.getTime() + CHECK_INTERVAL_MS))).toBe(true);
    for (const phase of ['checking', 'downloading', 'ready'] as const)
      expect(checkDue({ phase }, true, true, NOW)).toBe(false);
  });

  it('restarts to update at once only when nothing is online; with a world or a keeper it asks first', () => {
    expect(restartDecision(READY, QUIET)).toBe('restart');
    expect(restartDecision(READY, WORLD_ONLINE)).toBe('confirm-first');
    expect(restartDecision(READY, KEEPER_RUNNING)).toBe('confirm-first');
    for (const phase of ['idle', 'downloading', 'failed', 'off', 'unpackaged'] as const)
      expect(restartDecision({ phase }, QUIET)).toBe('unavailable');
  });

  it('says a refused signature as such, and any other failure in the updater’s words', () => {
    expect(
      failedState(
        { phase: 'downloading', version: '0.2.0' },
        'New version 0.2.0 is not signed by the application owner: publisherNames: Tabletop Relay',
        NOW,
      ),
    ).toEqual({
      phase: 'failed',
      version: '0.2.0',
      error: "the update's signature was refused, so it was not installed",
      checkedAt: NOW.toISOString(),
    });
    expect(failedState({ phase: 'checking' }, 'net::ERR_INTERNET_DISCONNECTED', NOW).error).toBe(
      'net::ERR_INTERNET_DISCONNECTED',
    );
  });

  it('puts each state in words for the tray', () => {
    expect(updateText({ phase: 'downloading', version: '0.2.0', percent: 41.6 })).toBe(
      'Downloading update 0.2.0 (42 %)',
    );
    expect(updateText(READY)).toBe('Update 0.2.0 is ready: installed when you quit');
    expect(updateText({ phase: 'failed', error: 'offline' })).toBe('Update failed: offline');
    for (const phase of ['off', 'unpackaged', 'idle'] as const) expect(updateText({ phase })).toBeUndefined();
  });
});

describe('the desktop updater', () => {
  it('in a build run from the sources looks for nothing', async () => {
    const { desktop, updater } = updates({ packaged: false });
    await desktop.checkIfDue(NOW);
    expect(desktop.state.phase).toBe('unpackaged');
    expect(updater.checks).toBe(0);
  });

  it('with checks off looks for nothing, and looks at once when they are turned on', async () => {
    let enabled = false;
    const { desktop, updater } = updates({ enabled: () => enabled });
    await desktop.checkIfDue(NOW);
    expect(desktop.state.phase).toBe('off');
    expect(updater.checks).toBe(0);
    enabled = true;
    desktop.enabledChanged();
    await vi.waitFor(() => expect(updater.checks).toBe(1));
    expect(desktop.state.phase).toBe('up-to-date');
  });

  it('downloads in the background and, with a world online, installs only at quit: never restarting by itself', async () => {
    const { desktop, updater, states } = updates({ table: () => WORLD_ONLINE });
    updater.nextCheck = () => {
      updater.emit('update-available', { version: '0.2.0' });
      updater.emit('download-progress', { percent: 50 });
      updater.emit('update-downloaded', { version: '0.2.0' });
    };
    await desktop.checkIfDue(NOW);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(states.map((state) => state.phase)).toEqual(['checking', 'downloading', 'downloading', 'ready']);
    expect(desktop.state).toMatchObject({ phase: 'ready', version: '0.2.0' });
    expect(updater.installs).toEqual([]);
  });

  it('Restart to update with a world online asks first, and Later installs nothing', async () => {
    const { desktop, updater, confirm } = updates({ table: () => WORLD_ONLINE });
    updater.nextCheck = () => updater.emit('update-downloaded', { version: '0.2.0' });
    await desktop.checkIfDue(NOW);
    await desktop.restartToUpdate();
    expect(confirm).toHaveBeenCalledWith(WORLD_ONLINE);
    expect(updater.installs).toEqual([]);
    confirm.mockResolvedValueOnce(true);
    await desktop.restartToUpdate();
    expect(updater.installs).toEqual([[false, true]]);
  });

  it('Restart to update with nothing online restarts at once; with no update ready it does nothing', async () => {
    const idle = updates();
    await idle.desktop.restartToUpdate();
    expect(idle.updater.installs).toEqual([]);
    const { desktop, updater, confirm } = updates();
    updater.nextCheck = () => updater.emit('update-downloaded', { version: '0.2.0' });
    await desktop.checkIfDue(NOW);
    await desktop.restartToUpdate();
    expect(confirm).not.toHaveBeenCalled();
    expect(updater.installs).toEqual([[false, true]]);
  });

  it('a failed download or a refused signature leaves nothing to install, says why, and is tried again later', async () => {
    const { desktop, updater, log } = updates();
    updater.nextCheck = () => {
      updater.emit('update-available', { version: '0.2.0' });
      updater.emit('error', new Error('sha512 checksum mismatch, expected abc'));
    };
    await desktop.checkIfDue(NOW);
    expect(desktop.state).toMatchObject({ phase: 'failed', error: 'sha512 checksum mismatch, expected abc' });
    expect(log.warn).toHaveBeenCalledWith('Update failed: sha512 checksum mismatch, expected abc');
    updater.nextCheck = () =>
      updater.emit('error', new Error('New version 0.2.0 is not signed by the application owner'));
    // The failure is dated by the clock, so the next check is due a full interval after now.
    await desktop.checkIfDue(new Date(Date.now() + CHECK_INTERVAL_MS));
    expect(desktop.state.error).toBe("the update's signature was refused, so it was not installed");
    await desktop.restartToUpdate();
    expect(updater.installs).toEqual([]);
  });
});

describe('the tray’s updates', () => {
  const tray = (update: UpdateState, checkForUpdates = true) => trayStatus(NOW, { update, checkForUpdates });
  const labels = (status: TrayStatus) => menuFor(status).flatMap((item) => ('label' in item ? [item.label] : []));

  it('has a Check for updates switch, ticked as the setting is', () => {
    const menu = menuFor(tray({ phase: 'off' }, false));
    expect(menu.find((item) => 'label' in item && item.label === 'Check for updates')).toMatchObject({
      type: 'checkbox',
      checked: false,
    });
  });

  it('says what the updater does, and offers Restart to update once an update is ready', () => {
    expect(labels(tray({ phase: 'downloading', version: '0.2.0', percent: 10 }))).toContain(
      'Downloading update 0.2.0 (10 %)',
    );
    expect(labels(tray({ phase: 'downloading', version: '0.2.0', percent: 10 }))).not.toContain('Restart to update');
    expect(labels(tray(READY))).toEqual(
      expect.arrayContaining(['Update 0.2.0 is ready: installed when you quit', 'Restart to update']),
    );
    expect(labels(tray({ phase: 'failed', error: 'offline' }))).toContain('Update failed: offline');
  });
});
