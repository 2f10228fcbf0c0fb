import type { WebContents } from 'electron';

/** What a window may show, and what becomes of anything else. */
export interface WindowGuard {
  /** Whether the window may show this page, whether the page went there itself or was redirected. */
  mayShow(url: string): boolean;
  /** A link or a new window the window may not show (the settings window sends web links to the system browser). */
  elsewhere?(url: string): void;
  /** The permissions its pages get; none otherwise. */
  permissions?: readonly string[];
}

/**
 * Keeps a window on its own pages: no new windows, no navigation or redirect to a page it may not show, no webviews, and
 * only the permissions named (Electron's security checklist: https://www.electronjs.org/docs/latest/tutorial/security).
 */
export function guardWindow(contents: WebContents, guard: WindowGuard): void {
  contents.setWindowOpenHandler(({ url }) => {
    guard.elsewhere?.(url);
    return { action: 'deny' };
  });
  const stayOnItsPages = (event: Electron.Event, url: string) => {
    if (guard.mayShow(url)) return;
    event.preventDefault();
    guard.elsewhere?.(url);
  };
  contents.on('will-navigate', stayOnItsPages);
  contents.on('will-redirect', stayOnItsPages);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((_contents, permission, grant) =>
    grant(guard.permissions?.includes(permission) ?? false),
  );
}
