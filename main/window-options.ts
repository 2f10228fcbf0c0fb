import type { BrowserWindowConstructorOptions } from 'electron';

export const SETTINGS_PATH = '/admin/';

/** The settings window: sandboxed, isolated, no Node, and only the allow-listed bridge from the preload script. */
export function settingsWindowOptions(preloadPath: string, iconPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1024,
    height: 720,
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Tabletop Relay',
    icon: iconPath,
    autoHideMenuBar: true,
    backgroundColor: '#f5f6f8',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The window may only show the relay's own admin pages. */
export function isRelayPage(url: string, relayUrl: string): boolean {
  const target = parsed(url);
  const relay = parsed(relayUrl);
  if (!target || !relay) return false;
  return target.origin === relay.origin && target.pathname.startsWith('/admin/');
}

/** Whether `url` is on `origin` (scheme, host and port): a capture window's Foundry, say. */
export function isOnOrigin(url: string, origin: string | undefined): boolean {
  return origin !== undefined && parsed(url)?.origin === origin;
}

/** Links that leave the relay open in the system browser, but only web links (no file:, no custom schemes). */
export function externalLinkToOpen(url: string): string | undefined {
  const target = parsed(url);
  if (!target) return undefined;
  return target.protocol === 'https:' || target.protocol === 'http:' ? target.toString() : undefined;
}
