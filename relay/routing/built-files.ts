// The browser files the settings UI's build writes beside it (overlays/, play/), served by name: only the names a
// page loads, each read afresh (a rebuild shows at the next load); any other name is a 404.
import { join } from 'node:path';
import { HttpError } from '../errors.ts';
import type { Answer } from './route.ts';
import { fileSystem } from '../storage/file-system.ts';

export interface BuiltFolder {
  /** The folder under the settings UI's, e.g. `overlays`. */
  folder: string;
  /** What the files are for, as the 404s say it: `overlay`, `player page`. */
  name: string;
  /** Each file served, with its content type. */
  types: Record<string, string>;
  /** What the 404 for an unknown name says is there instead. */
  offered: string;
}

export async function builtFile(settingsUiDir: string | undefined, served: BuiltFolder, file: string): Promise<Answer> {
  const contentType = Object.hasOwn(served.types, file) ? served.types[file] : undefined;
  if (!contentType) throw new HttpError(404, `No ${served.name} file ${file}: there are ${served.offered}`);
  if (settingsUiDir === undefined) throw notBuilt(served);
  const { readFile } = await fileSystem();
  let bytes: Buffer;
  try {
    bytes = await readFile(join(settingsUiDir, served.folder, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notBuilt(served);
    throw error;
  }
  return {
    kind: 'bytes',
    bytes,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
  };
}

function notBuilt(served: BuiltFolder): HttpError {
  return new HttpError(404, `The ${served.name} files are not built: run npm run build:renderer`);
}
