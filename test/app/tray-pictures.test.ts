// The tray's menu as the GM sees it in each update state: AppTray builds it through the stand-in's Tray and Menu (the
// same modules the booted app gets), and the stand-in draws it in Chromium. The pictures land in test/app/screenshots/.
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrayHandlers } from '../../main/tray.ts';
import { failedState, type UpdateState } from '../../main/updates/update-policy.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { trays } from './electron-stand-in/desktop.ts';
import { pictureMenu } from './electron-stand-in/menu-picture.ts';
import { runtime } from './electron-stand-in/runtime.ts';
import { trayStatus } from './tray-fixtures.ts';

vi.mock('electron', () => import('./electron-stand-in/desktop.ts'));
const { AppTray } = await import('../../main/tray.ts');

const ROOT = join(import.meta.dirname, '..', '..');
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const NOW = new Date('2026-11-26T20:00:00Z');
const READY: UpdateState = { phase: 'ready', version: '0.2.0', checkedAt: NOW.toISOString() };
const doNothing = new Proxy({}, { get: () => () => undefined }) as TrayHandlers;

let browser: Browser;
beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  runtime.ready = true;
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** The tray the app shows in this update state, drawn; the lines about updates, and the picture's path. */
async function pictured(update: UpdateState, checkForUpdates = true): Promise<{ lines: string[]; path: string }> {
  trays.clear();
  new AppTray(join(ROOT, 'assets'), doNothing, trayStatus(NOW, { update, checkForUpdates }), 'linux');
  const [tray] = trays;
  const path = join(SCREENSHOTS, `tray-update-${update.phase}.png`);
  const lines = await pictureMenu(browser, tray!.contextMenu!, path);
  expect(statSync(path).size).toBeGreaterThan(1000);
  return { lines: lines.filter((line) => /update/i.test(line)), path };
}

describe('the tray’s updates, as the GM sees them', () => {
  it('shows the download in progress, greyed, below the ticked switch', async () => {
    const { lines } = await pictured({ phase: 'downloading', version: '0.2.0', percent: 40 });
    expect(lines).toEqual(['✓ Check for updates', 'Downloading update 0.2.0 (40 %) (greyed)']);
  });

  it('shows an update ready, and Restart to update as the one thing to press', async () => {
    const { lines } = await pictured(READY);
    expect(lines).toEqual([
      '✓ Check for updates',
      'Update 0.2.0 is ready: installed when you quit (greyed)',
      'Restart to update',
    ]);
  });

  it('shows a failure in the updater’s words, and a refused signature as such', async () => {
    const offline = await pictured(failedState(READY, 'net::ERR_INTERNET_DISCONNECTED', NOW));
    expect(offline.lines).toEqual(['✓ Check for updates', 'Update failed: net::ERR_INTERNET_DISCONNECTED (greyed)']);
    const unsigned = await pictured(
      failedState(READY, 'New version 0.2.0 is not signed by the application owner', NOW),
    );
    expect(unsigned.lines[1]).toBe(
      "Update failed: the update's signature was refused, so it was not installed (greyed)",
    );
  });

  it('with checks off, shows the switch unticked and nothing else about updates', async () => {
    const { lines } = await pictured({ phase: 'off' }, false);
    expect(lines).toEqual(['Check for updates']);
  });
});
