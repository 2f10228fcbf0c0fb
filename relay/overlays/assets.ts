// overlay.js and overlay.css, which the settings UI's build writes to <settings UI folder>/overlays/.
import { join } from 'node:path';
import { HttpError } from '../errors.ts';
import type { Answer } from '../routing/route.ts';
import { fileSystem } from '../storage/file-system.ts';

const ASSETS: Record<string, string> = {
  'overlay.js': 'text/javascript; charset=utf-8',
  'overlay.css': 'text/css; charset=utf-8',
};

/** One of the two files by its name, read afresh each time (a rebuild shows at the next load); anything else is a 404. */
export async function overlayAsset(settingsUiDir: string | undefined, file: string): Promise<Answer> {
  const contentType = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!contentType) throw new HttpError(404, `No overlay file ${file}: there are overlay.js and overlay.css`);
  if (settingsUiDir === undefined) throw notBuilt();
  const { readFile } = await fileSystem();
  let bytes: Buffer;
  try {
    bytes = await readFile(join(settingsUiDir, 'overlays', file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notBuilt();
    throw error;
  }
  return {
    kind: 'bytes',
    bytes,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' },
  };
}

function notBuilt(): HttpError {
  return new HttpError(404, 'The overlay pages are not built: run npm run build:renderer');
}
