import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAutostart, linuxAutostartEntry } from '../../main/autostart.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function loginItems() {
  let openAtLogin = false;
  return {
    getLoginItemSettings: () => ({ openAtLogin }),
    setLoginItemSettings: vi.fn((settings: { openAtLogin: boolean }) => {
      openAtLogin = settings.openAtLogin;
    }),
  };
}

describe('autostart', () => {
  it('on Linux writes and removes an XDG autostart entry', () => {
    const configHome = mkdtempSync(join(tmpdir(), 'ttr-autostart-'));
    folders.push(configHome);
    const autostart = createAutostart({
      platform: 'linux',
      loginItems: loginItems(),
      configHome,
      command: '/opt/Tabletop Relay/tabletop-relay',
    });
    expect(autostart.enabled()).toBe(false);
    autostart.set(true);
    const file = join(configHome, 'autostart', 'tabletop-relay.desktop');
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Tabletop Relay/tabletop-relay"');
    expect(autostart.enabled()).toBe(true);
    autostart.set(false);
    expect(existsSync(file)).toBe(false);
    expect(autostart.enabled()).toBe(false);
  });

  it('on macOS and Windows uses the login items, opening hidden', () => {
    const items = loginItems();
    const autostart = createAutostart({ platform: 'darwin', loginItems: items, configHome: '/nowhere', command: '' });
    autostart.set(true);
    expect(items.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true, openAsHidden: true });
    expect(autostart.enabled()).toBe(true);
  });

  it('quotes the command as the Desktop Entry spec asks', () => {
    expect(linuxAutostartEntry('/home/gm/My "Apps"/relay$1')).toContain('Exec="/home/gm/My \\"Apps\\"/relay\\$1"');
  });
});
