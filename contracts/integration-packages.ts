// The Stream Deck integrations the relay hands out for download, as the admin API and the settings UI share them.

export const INTEGRATION_PACKAGE_NAMES = ['stream-deck', 'companion'] as const;

/** `stream-deck`: Elgato's Stream Deck app plugin; `companion`: the Bitfocus Companion module. */
export type IntegrationPackageName = (typeof INTEGRATION_PACKAGE_NAMES)[number];

/** One package (GET /admin/downloads): whether its file was built, and where to download it. */
export interface IntegrationPackageView {
  name: IntegrationPackageName;
  /** What the settings UI calls it, e.g. "Elgato Stream Deck plugin". */
  title: string;
  /** The admin route that sends the file as an attachment. */
  path: string;
  /** The command that builds the file in the project folder. */
  buildCommand: string;
  /** The file's name and size and when it was built; absent when it was not built. */
  file?: { name: string; bytes: number; builtAt: string };
}

/**
 * The scopes a deck of buttons needs, and no more: rolling (and the last roll), turns and rounds, playlists, macros,
 * actors' hit points, the event streams and whether the world is connected. The plugin and the Companion module ask
 * for exactly these in their key request; the settings UI's "Make a key for Companion" grants them.
 */
export const DECK_SCOPES = [
  'roll:execute',
  'roll:read',
  'encounter:read',
  'encounter:manage',
  'playlist:control',
  'macro:execute',
  'entity:read',
  'events:subscribe',
  'clients:read',
] as const;

/** Where the plugin and the module look for the relay until told otherwise: its default port on this computer. */
export const DEFAULT_RELAY_URL = 'http://127.0.0.1:3010';
