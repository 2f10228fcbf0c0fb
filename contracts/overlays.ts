// What the relay and the overlay pages (overlays/, run in OBS's browser source) share: the catalog of overlays, the
// options a URL may carry, and the views the relay sends. Free of runtime imports besides this file's constants, so the
// pages' bundle stays small and ES2020.

export const OVERLAY_NAMES = ['dice', 'initiative', 'now-playing', 'character-card', 'chat'] as const;
export type OverlayName = (typeof OVERLAY_NAMES)[number];

export function isOverlayName(value: string): value is OverlayName {
  return (OVERLAY_NAMES as readonly string[]).includes(value);
}

export interface OverlayDescription {
  title: string;
  /** One line for the settings UI. */
  blurb: string;
  /** The browser source size suggested with "Copy for OBS", for a 1920×1080 canvas. */
  size: { width: number; height: number };
  /** Where the overlay sits in its box unless the URL says otherwise. */
  position: OverlayPosition;
  /**
   * The read-only scopes an overlay link for it holds (shown with the keys). The link reaches only its overlay's page,
   * view and stream, whatever these say; the now-playing view reads playlists through its own route, as no scope reads
   * them alone.
   */
  scopes: readonly string[];
}

export const OVERLAYS: Record<OverlayName, OverlayDescription> = {
  dice: {
    title: 'Dice feed',
    blurb: 'The last rolls as they happen: who, formula, total and dice, crits and fumbles highlighted',
    size: { width: 520, height: 720 },
    position: 'bottom-right',
    scopes: ['roll:read', 'chat:read', 'events:subscribe'],
  },
  initiative: {
    title: 'Initiative',
    blurb: "The active combat's order, the current turn highlighted, the round; HP bars where you allow them",
    size: { width: 420, height: 860 },
    position: 'top-left',
    scopes: ['encounter:read', 'entity:read', 'events:subscribe'],
  },
  'now-playing': {
    title: 'Now playing',
    blurb: 'The playlist and track playing now',
    size: { width: 640, height: 160 },
    position: 'bottom-left',
    scopes: ['events:subscribe'],
  },
  'character-card': {
    title: 'Character card',
    blurb: "One character's portrait, name, HP, AC and a few fields, live; or its sheet image",
    size: { width: 560, height: 320 },
    position: 'bottom-left',
    scopes: ['entity:read', 'sheet:read', 'events:subscribe'],
  },
  chat: {
    title: 'Chat ticker',
    blurb: 'Recent public chat messages',
    size: { width: 640, height: 480 },
    position: 'bottom-left',
    scopes: ['chat:read', 'events:subscribe'],
  },
};

export const OVERLAY_THEMES = ['dark', 'light', 'none'] as const;
export type OverlayTheme = (typeof OVERLAY_THEMES)[number];

export const OVERLAY_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type OverlayPosition = (typeof OVERLAY_POSITIONS)[number];

/** What a URL may change about how an overlay looks; the relay's route schema parses and defaults them. */
export interface OverlayOptions {
  theme: OverlayTheme;
  /** `#rrggbb`. */
  accent: string;
  /** Base font size in CSS pixels at 1080p. */
  fontSize: number;
  /** The most items shown at once (rolls, chat lines, combatants). */
  max: number;
  position: OverlayPosition;
  /** Seconds an item stays before it fades out; 0 keeps it. */
  hold: number;
}

/** The limits of the numeric options (a value outside is a 400). */
export const OVERLAY_OPTION_LIMITS = {
  fontSize: { min: 10, max: 96 },
  max: { min: 1, max: 50 },
  hold: { min: 0, max: 3600 },
} as const;

/** How each overlay looks without options: how many items it shows, and how long a feed's item stays. */
const LIST_DEFAULTS: Record<OverlayName, Pick<OverlayOptions, 'max' | 'hold'>> = {
  dice: { max: 5, hold: 15 },
  chat: { max: 6, hold: 30 },
  initiative: { max: 12, hold: 0 },
  'now-playing': { max: 1, hold: 0 },
  'character-card': { max: 1, hold: 0 },
};

/** The options a page takes when its URL names none. */
export function defaultOverlayOptions(overlay: OverlayName): OverlayOptions {
  return {
    theme: 'dark',
    accent: '#e0a84a',
    fontSize: 24,
    ...LIST_DEFAULTS[overlay],
    position: OVERLAYS[overlay].position,
  };
}

/** What the relay writes into an overlay page for its script (as JSON in a `<script type="application/json">`). */
export interface OverlayPageConfig {
  overlay: OverlayName;
  options: OverlayOptions;
  /** The URLs the page reads, its link already in them: the current view (JSON) and the live stream (SSE). */
  stateUrl: string;
  eventsUrl: string;
  /** The GM's custom CSS stored with the link, applied after the overlay's own. */
  customCss: string;
  /** character-card only: show the sheet image (refreshed on change) instead of the card. */
  sheetUrl?: string;
}

// Views. `GET /overlays/<name>/state` answers with the overlay's view; its stream sends `state` events with the whole
// view again (initiative, now-playing, character-card) or `item` events with one new item (dice, chat).

export interface DieView {
  faces: number;
  results: { result: number; active: boolean }[];
}

export interface RollView {
  id: string;
  /** The speaker's alias, else the user's name. */
  who: string;
  formula: string;
  total: number;
  flavor: string;
  dice: DieView[];
  critical: boolean;
  fumble: boolean;
  /** Epoch ms. */
  at: number;
}

export interface ChatLineView {
  id: string;
  who: string;
  /** Plain text: the relay strips the message's HTML. */
  text: string;
  at: number;
}

export interface CombatantView {
  id: string;
  name: string;
  initiative: number | null;
  defeated: boolean;
  /** Only where the link allows HP bars. */
  hp?: { value: number; max: number };
}

export interface InitiativeView {
  /** False when no combat is running (none, or one not begun): the overlay shows nothing. */
  active: boolean;
  round: number;
  /** Index into `combatants` of the current turn; -1 when none shows (a hidden combatant's turn). */
  turn: number;
  /** In turn order; hidden combatants are left out. */
  combatants: CombatantView[];
}

export interface NowPlayingView {
  /** Empty when nothing plays: the overlay shows nothing. */
  playing: { playlist: string; track: string }[];
}

export interface CharacterCardView {
  name: string;
  /** A data URL of the portrait, when the world has one the page may show (a file path of Foundry's is not). */
  portrait?: string;
  hp?: { value: number; max: number; temp?: number };
  ac?: number;
  /** A few system fields (level, class, ...), already labelled. */
  fields: { label: string; value: string }[];
}

/** Dice and chat views list their items oldest first (the stream's items come after); at most 20. */
export interface OverlayViews {
  dice: RollView[];
  initiative: InitiativeView;
  'now-playing': NowPlayingView;
  'character-card': CharacterCardView;
  chat: ChatLineView[];
}
