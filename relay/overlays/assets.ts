// overlay.js and overlay.css, which the settings UI's build writes to <settings UI folder>/overlays/.
import { builtFile, type BuiltFolder } from '../routing/built-files.ts';
import type { Answer } from '../routing/route.ts';

const OVERLAY_FILES: BuiltFolder = {
  folder: 'overlays',
  name: 'overlay',
  types: { 'overlay.js': 'text/javascript; charset=utf-8', 'overlay.css': 'text/css; charset=utf-8' },
  offered: 'overlay.js and overlay.css',
};

export function overlayAsset(settingsUiDir: string | undefined, file: string): Promise<Answer> {
  return builtFile(settingsUiDir, OVERLAY_FILES, file);
}
