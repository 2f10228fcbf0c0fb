import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trayIconFor } from '../../main/tray-icon.ts';
import type { TrayStatus } from '../../main/tray-status.ts';
import { relaySnapshot, trayStatus } from './tray-fixtures.ts';

const TRAY_ASSETS = join(import.meta.dirname, '..', '..', 'assets', 'tray');
const base = trayStatus(new Date(), { relay: undefined });
const relay = relaySnapshot();
const world = { clientId: 'fvtt_a', connectedSince: new Date().toISOString() };

const STATES: [string, TrayStatus, string][] = [
  ['no world', { ...base, relay }, 'tray-idle'],
  ['a world connected', { ...base, relay: { ...relay, worlds: [world] } }, 'tray-connected'],
  [
    'a tool waiting for its key',
    { ...base, relay: { ...relay, worlds: [world], keyRequests: [{ code: 'K7P-4QX', appName: 'Stream Deck' }] } },
    'tray-waiting',
  ],
  ['a world waiting to pair', { ...base, relay: { ...relay, pairRequests: [{}] } }, 'tray-waiting'],
  ['the relay failed to start', { ...base, error: 'port 3010 is already in use' }, 'tray-error'],
  ['the relay not started yet', { ...base }, 'tray-error'],
];

describe('trayIconFor', () => {
  it.each(STATES)('with %s shows %s', (_name, status, file) => {
    expect(trayIconFor(status, 'linux')).toBe(`${file}.png`);
    expect(trayIconFor(status, 'win32')).toBe(`${file}.png`);
  });

  it.each(STATES)('on macOS with %s shows the template image of %s', (_name, status, file) => {
    expect(trayIconFor(status, 'darwin')).toBe(`${file}Template.png`);
  });

  it('every icon it names exists at 16 px with its 32 px @2x file', () => {
    for (const [, status] of STATES) {
      for (const platform of ['linux', 'darwin'] as const) {
        const file = trayIconFor(status, platform);
        expect(existsSync(join(TRAY_ASSETS, file)), file).toBe(true);
        expect(existsSync(join(TRAY_ASSETS, file.replace('.png', '@2x.png'))), file).toBe(true);
      }
    }
  });
});
