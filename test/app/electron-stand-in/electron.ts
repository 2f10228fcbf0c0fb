// A stand-in for the `electron` module of the main process, written from Electron's documentation, for running the
// compiled desktop app under Node where no Electron binary exists. It keeps the contract that breaks real apps:
// - the entry is evaluated first, and `ready` comes only once that evaluation has settled (launch.ts), so an entry that
//   awaits `ready` at its top level never starts: https://www.electronjs.org/docs/latest/tutorial/esm and
//   https://github.com/electron/electron/pull/41369 ("You must not use a top-level await with the app's whenReady promise");
// - Tray, BrowserWindow, safeStorage and screen refuse to work before `ready`
//   (https://www.electronjs.org/docs/latest/api/app#event-ready, the pages of each module);
// - the single-instance lock is a real lock between processes, and quitting runs before-quit, will-quit, quit;
// - windows are pages of a real Chromium with their preload, contextIsolation and sandbox
//   (https://www.electronjs.org/docs/latest/tutorial/process-model).
// Each module's page is cited where it is written: app.ts, web.ts, renderer-bridge.ts, desktop.ts, image-codec.ts and
// page-values.ts (what offscreen capture uses: executeJavaScript's results, nativeImage's encoders).
import { app } from './app.ts';
import {
  clipboard,
  dialog,
  Menu,
  MenuItem,
  nativeImage,
  NativeImage,
  Notification,
  safeStorage,
  screen,
  shell,
  Tray,
} from './desktop.ts';
import { BrowserWindow, ipcMain } from './web.ts';

export {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  MenuItem,
  nativeImage,
  NativeImage,
  Notification,
  safeStorage,
  screen,
  shell,
  Tray,
};

// `import electron from 'electron'` (electron-store does this) gets the same objects.
export default {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  MenuItem,
  nativeImage,
  NativeImage,
  Notification,
  safeStorage,
  screen,
  shell,
  Tray,
};
