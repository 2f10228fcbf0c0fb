// The web client's own files: its page script's sources and its stylesheet. Found from the project folder (the nearest
// one up with a package.json), not beside this module: the demo runs this code bundled from dist/cli/.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function projectFolder(from: string): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`The sandbox web client found no package.json above ${from}`);
    folder = parent;
  }
  return folder;
}

export const WEB_FOLDER = join(projectFolder(import.meta.dirname), 'sandbox', 'web');
