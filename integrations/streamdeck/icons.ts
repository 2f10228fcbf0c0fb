// The manifest's icons, written into the plugin folder by the build: the category and action-list icons monochrome
// white (as Elgato asks), the keys' default images on the deck's dark tile.
import { GLYPHS, COLOURS, iconSvg, keySvg, type GlyphName } from './images.ts';

export const ACTION_ICONS = Object.keys(GLYPHS) as GlyphName[];

export function categoryIconSvg(): string {
  return iconSvg(GLYPHS.roll, 28);
}

export function actionIconSvg(name: GlyphName): string {
  return iconSvg(GLYPHS[name], 20);
}

export function actionKeySvg(name: GlyphName): string {
  return keySvg(GLYPHS[name], name === 'playlist' ? COLOURS.MUTED : COLOURS.INDIGO);
}

/** The playlist key's second state: playing. */
export function playingKeySvg(): string {
  return keySvg(GLYPHS.playlist, COLOURS.GREEN);
}
