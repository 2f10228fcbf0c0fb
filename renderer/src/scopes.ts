// How the key form groups scopes, in the tabletop's words.
import { SCOPE_LABELS, type Scope } from '../../contracts/scopes.ts';

export interface ScopeGroup {
  title: string;
  scopes: string[];
  dangerous?: boolean;
  /** Held only by the key of a 2.x module, alone: made with "Connect a 2.x module", never ticked in the key form. */
  worldLink?: boolean;
}

const GROUPS: { title: string; prefixes: string[] }[] = [
  { title: 'Actors & items', prefixes: ['entity'] },
  { title: 'Dice rolls', prefixes: ['roll'] },
  { title: 'Chat', prefixes: ['chat'] },
  { title: 'Combat', prefixes: ['encounter'] },
  { title: 'Macros', prefixes: ['macro'] },
  { title: 'Scenes & canvas', prefixes: ['scene', 'canvas'] },
  { title: 'Effects', prefixes: ['effects'] },
  { title: 'Users', prefixes: ['user'] },
  { title: 'Files', prefixes: ['file'] },
  { title: 'Playlists', prefixes: ['playlist'] },
  { title: 'World & sessions', prefixes: ['world', 'clients', 'session'] },
  { title: 'Sheets & events', prefixes: ['sheet', 'events'] },
  { title: 'Search & folders', prefixes: ['search', 'structure'] },
  { title: 'Game systems', prefixes: ['dnd5e'] },
];

/** Runs arbitrary JavaScript in the GM's world: never granted by default, always shown apart. */
export const DANGEROUS_SCOPES = ['execute-js'];

/** Lets a 2.x module connect as its world; a key holding it holds nothing else. */
export const WORLD_LINK_SCOPE = 'world:link';

/**
 * Whether a scope lets a tool change the world (write, roll, run a macro, manage combat, play music, start sessions,
 * the game system's actions such as rests and currency) rather than only read it: what a key request flags for the GM.
 */
export function isWriteScope(scope: string): boolean {
  return /:(write|execute|manage|control)$/.test(scope) || scope === 'dnd5e';
}

function prefixOf(scope: string): string {
  return scope.split(':')[0] ?? scope;
}

export function groupScopes(scopes: readonly string[]): ScopeGroup[] {
  const safe = scopes.filter((scope) => !DANGEROUS_SCOPES.includes(scope) && scope !== WORLD_LINK_SCOPE);
  const groups: ScopeGroup[] = GROUPS.map((group) => ({
    title: group.title,
    scopes: safe.filter((scope) => group.prefixes.includes(prefixOf(scope))),
  }));
  const placed = new Set(groups.flatMap((group) => group.scopes));
  groups.push({ title: 'Other', scopes: safe.filter((scope) => !placed.has(scope)) });
  groups.push({
    title: '2.x module link',
    scopes: scopes.filter((scope) => scope === WORLD_LINK_SCOPE),
    worldLink: true,
  });
  groups.push({
    title: 'Dangerous',
    scopes: scopes.filter((scope) => DANGEROUS_SCOPES.includes(scope)),
    dangerous: true,
  });
  return groups.filter((group) => group.scopes.length > 0);
}

/** What a scope lets a tool do, in words; its name for a scope the relay knows and this page does not. */
export function scopeWords(scope: string): string {
  return SCOPE_LABELS[scope as Scope] ?? scope;
}
