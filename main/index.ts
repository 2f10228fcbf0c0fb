// The desktop app's entry. It only schedules the start: Electron emits `ready` after this module has been evaluated,
// so awaiting `ready` here would wait forever (https://www.electronjs.org/docs/latest/tutorial/esm).
import { app, dialog } from 'electron';
import { startDesktopApp } from './desktop-app.ts';
import { createFileLogger } from './logger.ts';
import { boot } from './startup.ts';

function failToStart(error: unknown): void {
  const logger = createFileLogger({ folder: app.getPath('logs') });
  logger.error('The app could not start', error);
  const reason = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Tabletop Relay could not start', `${reason}\n\nThe log in ${logger.folder} tells more.`);
  app.exit(1);
}

boot(app, { start: startDesktopApp, fail: failToStart });
