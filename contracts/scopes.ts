// The scopes a key can hold, what each lets a tool do in a GM's words, and the presets named for what GMs connect:
// the relay's defaults, the settings UI's key form and key-request cards, the CLI's `key create` and the tests share
// them.
import { DECK_SCOPES } from './integration-packages.ts';

/** The scope vocabulary of the reference relay (reference-relay-http-api.md §1.1), so existing keys' scope lists carry over. */
export const SCOPES = [
  'entity:read',
  'entity:write',
  'roll:read',
  'roll:execute',
  'chat:read',
  'chat:write',
  'encounter:read',
  'encounter:manage',
  'macro:list',
  'macro:execute',
  'macro:write',
  'scene:read',
  'scene:write',
  'canvas:read',
  'canvas:write',
  'effects:read',
  'effects:write',
  'user:read',
  'user:write',
  'file:read',
  'file:write',
  'playlist:control',
  'world:info',
  'clients:read',
  'sheet:read',
  'events:subscribe',
  'session:manage',
  'execute-js',
  'search',
  'structure:read',
  'structure:write',
  'dnd5e',
  'world:link',
] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope lets a tool do, shown beside its name. */
export const SCOPE_LABELS: Record<Scope, string> = {
  'entity:read': 'Read actors, items and journals',
  'entity:write': 'Create, change and delete actors, items and journals',
  'roll:read': 'See recent rolls',
  'roll:execute': 'Roll dice',
  'chat:read': 'Read the chat log',
  'chat:write': 'Post to chat',
  'encounter:read': 'See combats',
  'encounter:manage': 'Run combat: turns, rounds, combatants',
  'macro:list': 'List macros',
  'macro:execute': 'Run macros',
  'macro:write': 'Create, change and delete macros',
  'scene:read': 'See scenes',
  'scene:write': 'Create, change and switch scenes',
  'canvas:read': 'See tokens, walls, lights and notes',
  'canvas:write': 'Move tokens and change the canvas',
  'effects:read': 'See status effects',
  'effects:write': 'Add and remove status effects',
  'user:read': "See the world's users",
  'user:write': 'Create, change and delete users',
  'file:read': 'Browse and download files',
  'file:write': 'Upload files',
  'playlist:control': 'Play, stop and list playlists',
  'world:info': "Read the world's title and system",
  'clients:read': 'List the connected worlds',
  'sheet:read': 'Render character sheets as images',
  'events:subscribe': 'Follow live events: rolls, chat, combat',
  'session:manage': "Start and end GM sessions in the relay's browser",
  'execute-js': 'Run any script as the GM',
  search: 'Search the world',
  'structure:read': 'Browse folders and compendiums',
  'structure:write': 'Create and delete folders',
  dnd5e: 'D&D 5e: checks, saves, rests, spells, currency',
  'world:link': "Connect a 2.x module's world (held alone)",
};

export interface KeyPreset {
  id: string;
  /** What the GM connects, as the key form's button says it. */
  title: string;
  /** One line on what the key may do. */
  description: string;
  scopes: readonly Scope[];
}

const READ_ONLY: readonly Scope[] = [
  'entity:read',
  'roll:read',
  'chat:read',
  'encounter:read',
  'macro:list',
  'scene:read',
  'canvas:read',
  'effects:read',
  'user:read',
  'file:read',
  'world:info',
  'clients:read',
  'sheet:read',
  'events:subscribe',
  'search',
  'structure:read',
];

/**
 * Presets never hold `execute-js` (a script as the GM: ticked by hand only) or `world:link` (made with "Connect a 2.x
 * module", alone).
 */
export const KEY_PRESETS = [
  {
    id: 'stream-deck',
    title: 'Stream Deck',
    description: 'Buttons that roll, move combat on, play music and run macros, and show hit points',
    scopes: DECK_SCOPES,
  },
  {
    id: 'obs-page',
    title: 'OBS overlay page',
    description:
      "A page of your own in an OBS browser source: reads rolls, chat, combat and actors as they happen (the relay's own overlays need no key)",
    scopes: [
      'roll:read',
      'chat:read',
      'encounter:read',
      'entity:read',
      'scene:read',
      'sheet:read',
      'world:info',
      'clients:read',
      'events:subscribe',
    ],
  },
  {
    id: 'player',
    title: "A player's tool",
    description:
      "Reads the world, rolls dice, chats and uses the game system's checks, saves and items: bind it to the player below, so it sees what they see",
    scopes: [...READ_ONLY, 'roll:execute', 'chat:write', 'dnd5e'],
  },
  {
    id: 'bot',
    title: 'A bot',
    description: 'A chat bot (Discord, Twitch): reads the world, rolls dice, posts to chat and runs macros',
    scopes: [...READ_ONLY, 'roll:execute', 'chat:write', 'macro:execute'],
  },
  {
    id: 'read-only',
    title: 'Read only',
    description: 'Reads the world and follows its events; changes nothing',
    scopes: READ_ONLY,
  },
  {
    id: 'everything',
    title: 'Everything',
    description: 'Every scope but execute-js, which runs any script as the GM: tick that one by hand if you must',
    scopes: SCOPES.filter((scope) => scope !== 'execute-js' && scope !== 'world:link'),
  },
] as const satisfies readonly KeyPreset[];

export type KeyPresetId = (typeof KEY_PRESETS)[number]['id'];

export function keyPreset(id: KeyPresetId): KeyPreset {
  return KEY_PRESETS.find((preset) => preset.id === id)!;
}
