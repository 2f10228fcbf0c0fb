/**
 * What the tray does differently on each platform, from Electron's Tray documentation
 * (https://www.electronjs.org/docs/latest/api/tray, "Platform Considerations"):
 * - Windows: a left click on the icon only raises `click`, the context menu opens on a right click; GMs expect the
 *   left click to open the app, so it opens the settings.
 * - macOS: a click opens the context menu; the menu bar tints template images (a file name ending in `Template`) for
 *   light and dark menu bars; `setTitle` shows a text next to the icon (macOS only), where the requests waiting are
 *   counted.
 * - Linux: with the AppIndicator tray, `click` is ignored and the icon shows only while it has a context menu, so
 *   everything is in the menu, which is always set.
 */
interface TrayPlatform {
  /** A left click on the icon opens the settings window. */
  clickOpensSettings: boolean;
  /** Monochrome template images that the menu bar tints. */
  templateImages: boolean;
  /** The count of waiting requests as the tray's title, next to the icon. */
  countBesideIcon: boolean;
}

export function trayPlatformOf(platform: NodeJS.Platform): TrayPlatform {
  return {
    clickOpensSettings: platform === 'win32',
    templateImages: platform === 'darwin',
    countBesideIcon: platform === 'darwin',
  };
}
