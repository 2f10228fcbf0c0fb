// An overlay's URL as OBS gets it: the link the relay made, the options the GM picked, on the address OBS reaches.
import type { OverlayName, OverlayOptions } from '../../contracts/overlays.ts';

/** The overlays that list items (rolls, chat lines, combatants) and so take `max`. */
const LISTS: readonly OverlayName[] = ['dice', 'initiative', 'chat'];
/** The overlays whose items fade out after a while and so take `hold`. */
const FADING: readonly OverlayName[] = ['dice', 'chat'];

export function takesOption(overlay: OverlayName, option: keyof OverlayOptions): boolean {
  if (option === 'max') return LISTS.includes(overlay);
  if (option === 'hold') return FADING.includes(overlay);
  return true;
}

/**
 * The link's URL with the options in its query, on `origin` when given (the LAN address for OBS on another computer).
 * Options the overlay does not take stay out, so the URL says only what counts.
 */
export function overlayUrl(linkUrl: string, overlay: OverlayName, options: OverlayOptions, origin?: string): string {
  const url = new URL(linkUrl);
  if (origin) {
    const target = new URL(origin);
    url.protocol = target.protocol;
    url.host = target.host;
  }
  for (const name of Object.keys(options) as (keyof OverlayOptions)[])
    if (takesOption(overlay, name)) url.searchParams.set(name, String(options[name]));
  return url.href;
}

/** The largest scale, at most 1, at which a box of `size` fits in `room`. */
export function fitScale(size: { width: number; height: number }, room: { width: number; height: number }): number {
  return Math.min(1, room.width / size.width, room.height / size.height);
}
