// Where the CLI finds the project's own files. Not beside this module: bundled, the CLI runs from dist/cli/, and from
// the sources from cli/; both sit inside the project folder, the nearest one up with a package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function projectFolder(from: string): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder)
      throw new Error(`Tabletop Relay found no package.json above ${from}: run it from the project folder`);
    folder = parent;
  }
  return folder;
}

const DIST = join(projectFolder(import.meta.dirname), 'dist');

/** The settings UI's built files (npm run serve and npm run demo build them first). */
export const SETTINGS_UI_DIR = join(DIST, 'renderer');

/** Where npm run build:streamdeck and npm run build:companion put the files the settings UI offers for download. */
export const INTEGRATION_PACKAGE_DIRS = { streamDeck: join(DIST, 'streamdeck'), companion: join(DIST, 'companion') };
