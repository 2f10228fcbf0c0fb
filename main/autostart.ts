import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of Electron's app used here (login items exist on macOS and Windows only). */
export interface LoginItems {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean }): void;
}

export interface Autostart {
  enabled(): boolean;
  set(enabled: boolean): void;
}

export interface AutostartOptions {
  platform: NodeJS.Platform;
  loginItems: LoginItems;
  /** Linux: ~/.config, where the XDG autostart folder lives. */
  configHome: string;
  /** Linux: the command that starts the app (the AppImage path when run from one). */
  command: string;
}

const DESKTOP_FILE = 'tabletop-relay.desktop';

/** The XDG autostart entry; the command is quoted as the Desktop Entry spec asks. */
export function linuxAutostartEntry(command: string): string {
  const quoted = `"${command.replace(/(["`$\\])/g, '\\$1')}"`;
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Tabletop Relay',
    'Comment=Local relay between Foundry VTT and your tools',
    `Exec=${quoted}`,
    'Icon=tabletop-relay',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function createAutostart(options: AutostartOptions): Autostart {
  if (options.platform !== 'linux') {
    return {
      enabled: () => options.loginItems.getLoginItemSettings().openAtLogin,
      set: (enabled) => options.loginItems.setLoginItemSettings({ openAtLogin: enabled, openAsHidden: true }),
    };
  }
  const folder = join(options.configHome, 'autostart');
  const file = join(folder, DESKTOP_FILE);
  return {
    enabled: () => existsSync(file),
    set(enabled) {
      if (!enabled) {
        rmSync(file, { force: true });
        return;
      }
      mkdirSync(folder, { recursive: true });
      writeFileSync(file, linuxAutostartEntry(options.command));
    },
  };
}
