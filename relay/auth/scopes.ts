// The scope vocabulary and the key presets are in contracts/scopes.ts, shared with the settings UI and the CLI.
import { keyPreset, SCOPES, type Scope } from '../../contracts/scopes.ts';

export { SCOPES, type Scope };

/** Every scope a tool's key may hold: all but `world:link`, which a 2.x module's key holds alone (auth/world-link.ts). */
export const TOOL_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== 'world:link');

/**
 * Read-only scopes a new key gets when its creator names none (the "Read only" preset). `execute-js` is never among
 * them, nor `dnd5e`, whose routes change actors too (rests, currency, experience, item charges).
 */
export const DEFAULT_SCOPES: readonly Scope[] = keyPreset('read-only').scopes;

/**
 * What a player's key from an invitation holds (the "A player's tool" preset): the read-only scopes, plus rolling dice,
 * writing chat and the game system's actions (`dnd5e`: checks, saves, using an item), which the player page rolls with.
 * It acts as its player in one world, so the world still applies that player's permissions: it changes only what the
 * player owns, as in Foundry. It never holds `execute-js`, `world:link`, `session:manage` or any other write scope.
 */
export const PLAYER_SCOPES: readonly Scope[] = keyPreset('player').scopes;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
