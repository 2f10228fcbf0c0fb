// The scope vocabulary of the reference relay (reference-relay-http-api.md §1.1), so existing keys' scope lists carry over.

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

/** Every scope a tool's key may hold: all but `world:link`, which a 2.x module's key holds alone (auth/world-link.ts). */
export const TOOL_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== 'world:link');

/**
 * Read-only scopes a new key gets when its creator names none. `execute-js` is never among them, nor `dnd5e`, whose
 * routes change actors too (rests, currency, experience, item charges).
 */
export const DEFAULT_SCOPES: readonly Scope[] = [
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
 * What a player's key from an invitation holds: the read-only scopes, plus rolling dice, writing chat and the game
 * system's actions (`dnd5e`: checks, saves, using an item), which the player page rolls with. It acts as its player in
 * one world, so the world still applies that player's permissions: it changes only what the player owns, as in
 * Foundry. It never holds `execute-js`, `world:link`, `session:manage` or any other write scope.
 */
export const PLAYER_SCOPES: readonly Scope[] = [...DEFAULT_SCOPES, 'roll:execute', 'chat:write', 'dnd5e'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
