import { trayPlatformOf } from './tray-platform.ts';
import { trayStateOf, type TrayState, type TrayStatus } from './tray-status.ts';

const FILE_OF_STATE: Record<TrayState, string> = {
  'no-world': 'tray-idle',
  connected: 'tray-connected',
  waiting: 'tray-waiting',
  error: 'tray-error',
};

/**
 * The file under assets/tray/ for the tray image. macOS gets the monochrome template image it tints for light and dark
 * menu bars; Electron picks the @2x file next to it on high-density screens by itself.
 */
export function trayIconFor(status: TrayStatus, platform: NodeJS.Platform): string {
  const name = FILE_OF_STATE[trayStateOf(status)];
  return trayPlatformOf(platform).templateImages ? `${name}Template.png` : `${name}.png`;
}
