// What the relay and the settings UI share about AI assistants (MCP): the toolsets a GM picks when approving one, and
// what a key made for an assistant remembers of that approval.

export const TOOLSET_NAMES = ['play', 'prepare', 'dnd5e', 'files', 'delete', 'scripts'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

export function isToolsetName(value: string): value is ToolsetName {
  return (TOOLSET_NAMES as readonly string[]).includes(value);
}

export interface ToolsetDescription {
  title: string;
  /** One line for the approval card: what an assistant can do with it. */
  blurb: string;
  /** The worst a prompt-injected assistant can do with it, for the approval card and docs/SECURITY.md item 40. */
  worstCase: string;
}

export const TOOLSETS: Record<ToolsetName, ToolsetDescription> = {
  play: {
    title: 'Play',
    blurb: 'Rolls, chat, combat, playlists and macros',
    worstCase: 'rolls and chat messages in your name, a combat advanced or ended, music changed, a macro run',
  },
  prepare: {
    title: 'Prepare',
    blurb: 'Actors, items, scenes, journals, folders, effects, users and search',
    worstCase: 'documents created or changed (never deleted), the active scene switched, tokens moved',
  },
  dnd5e: {
    title: 'D&D 5e',
    blurb: 'Abilities, spells, rests, checks, saves and currency of a dnd5e world',
    worstCase: 'spell slots, charges, hit dice and currency spent, rests taken',
  },
  files: {
    title: 'Files',
    blurb: "Browse, download and upload files in Foundry's file store",
    worstCase: 'files read from the file store, and new files uploaded into it',
  },
  delete: {
    title: 'Delete',
    blurb: 'Delete documents, chat messages, scenes, users and folders, and kill creatures',
    worstCase: 'anything its other scopes reach deleted for good, the chat log wiped',
  },
  scripts: {
    title: 'Scripts',
    blurb: 'Run JavaScript in the world as the GM (execute-js)',
    worstCase: 'anything the GM can do in Foundry: the whole world and its settings',
  },
};

/** What an assistant gets when the GM changes nothing: small, and never deletes or scripts. */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['play', 'prepare'];

/** What a key made for an assistant remembers of its approval: the toolsets it was given, and whether it only reads. */
export interface AssistantGrant {
  toolsets: ToolsetName[];
  readOnly: boolean;
}
