// The player page (`/play/`, a player's phone): what the relay tells it and what its stream sends, as the relay builds
// them (relay/play/) and the page (play/) shows them. Everything here is what the key's user may see in Foundry.

/** Where the page keeps its sign-in, in the storage of the relay's origin: what POST /auth/invitation answered. */
export const PLAY_STORAGE_KEY = 'tabletop-relay.player';

/** The page's address: an invitation opens it once the key is kept. */
export const PLAY_PAGE_PATH = '/play/';

export interface PlayCharacter {
  uuid: string;
  name: string;
}

/** GET /play/me: who the key acts as, in which world, and the actors that user owns. */
export interface PlaySession {
  user: { id: string; name: string };
  world: { clientId: string; title: string; systemId: string };
  /** The world's GMs, whom a roll for the GM's eyes is whispered to. */
  gmIds: string[];
  /** The actors the user owns in Foundry, the one Foundry assigns them first. */
  characters: PlayCharacter[];
}

export interface PlayCombatant {
  id: string;
  name: string;
  initiative: number | null;
  defeated: boolean;
  /** The user owns the combatant's actor: their turn is marked. */
  mine: boolean;
}

/** The combat the world runs now, as the user sees it: no combatant the GM hid but the user's own. */
export interface PlayCombat {
  /** False when no combat is running (none, or one not begun). */
  active: boolean;
  round: number;
  /** Index into `combatants` of the current turn; null while a combatant the user may not see has it. */
  turn: number | null;
  /** In turn order. */
  combatants: PlayCombatant[];
}

export interface PlayChatLine {
  id: string;
  /** The speaker's alias, else the author's name. */
  who: string;
  /** Plain text: the relay strips the message's HTML. */
  text: string;
  flavor: string;
  /** The first roll's total, for a roll. */
  total?: number;
  /** Whispered: to the user, or by them. */
  whisper: boolean;
  /** Written by the user. */
  mine: boolean;
  /** Epoch ms. */
  at: number;
}

export interface PlayTrack {
  playlist: string;
  track: string;
}

/**
 * GET /play/events sends these as whole views, each again when it changed, plus the changes of the actor it names
 * (`actor-update`, `actor-item-add`, …, as GET /actor/subscribe sends them).
 */
export interface PlayViews {
  combat: PlayCombat;
  /** The most recent messages the user sees, oldest first. */
  chat: PlayChatLine[];
  /** The sounds playing now, which every player hears. */
  playing: PlayTrack[];
}

export const PLAY_VIEWS = ['combat', 'chat', 'playing'] as const satisfies readonly (keyof PlayViews)[];

/** How a roll is posted, as Foundry's roll modes. */
export const ROLL_MODES = ['public', 'gm', 'blind', 'self'] as const;
export type RollMode = (typeof ROLL_MODES)[number];
