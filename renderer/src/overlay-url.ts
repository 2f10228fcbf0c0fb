// An overlay's URL as OBS gets it: the link the relay made, the options the GM picked, on the address OBS reaches.
import { OVERLAYS, type OverlayName, type OverlayOptions } from '../../contracts/overlays.ts';

/** What the Overlays page starts from: the defaults of the overlay pages (relay/overlays/page.ts), position aside. */
export const DEFAULT_OPTIONS: Omit<OverlayOptions, 'position' | 'max' | 'hold'> = {
  theme: 'dark',
  accent: '#e0a84a',
  fontSize: 24,
};

/** Each overlay's own defaults for how many items it shows and how long a feed's item stays. */
const LIST_DEFAULTS: Record<OverlayName, Pick<OverlayOptions, 'max' | 'hold'>> = {
  dice: { max: 5, hold: 15 },
  chat: { max: 6, hold: 30 },
  initiative: { max: 12, hold: 0 },
  'now-playing': { max: 1, hold: 0 },
  'character-card': { max: 1, hold: 0 },
};

/** The limits the overlay pages take (a value outside is a 400). */
export const OPTION_LIMITS = {
  fontSize: { min: 10, max: 96 },
  max: { min: 1, max: 50 },
  hold: { min: 0, max: 3600 },
} as const;

export function defaultOptions(overlay: OverlayName): OverlayOptions {
  return { ...DEFAULT_OPTIONS, ...LIST_DEFAULTS[overlay], position: OVERLAYS[overlay].position };
}

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
