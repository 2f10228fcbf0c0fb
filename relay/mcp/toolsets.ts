// Which toolset a route's tool falls in, and what an AI assistant is told about what it does: read from the route's
// own entry (its scope, its method, whether it is destructive), so a new route becomes a tool in the right set by itself.
import type { ToolsetName } from '../../contracts/assistants.ts';
import type { Scope } from '../auth/scopes.ts';
import { scopeOf, type Route } from '../routing/route.ts';

/**
 * The toolset of each scope's routes; undefined for scopes that make no tool: event streams (events:subscribe), GM
 * browser sessions (session:manage, which take passwords sealed under a key no assistant holds) and the 2.x world link.
 */
const SCOPE_TOOLSETS: Record<Scope, ToolsetName | undefined> = {
  'roll:read': 'play',
  'roll:execute': 'play',
  'chat:read': 'play',
  'chat:write': 'play',
  'encounter:read': 'play',
  'encounter:manage': 'play',
  'playlist:control': 'play',
  'macro:list': 'play',
  'macro:execute': 'play',
  'entity:read': 'prepare',
  'entity:write': 'prepare',
  'macro:write': 'prepare',
  'scene:read': 'prepare',
  'scene:write': 'prepare',
  'canvas:read': 'prepare',
  'canvas:write': 'prepare',
  'effects:read': 'prepare',
  'effects:write': 'prepare',
  'user:read': 'prepare',
  'user:write': 'prepare',
  'world:info': 'prepare',
  'clients:read': 'prepare',
  'sheet:read': 'prepare',
  search: 'prepare',
  'structure:read': 'prepare',
  'structure:write': 'prepare',
  dnd5e: 'dnd5e',
  'file:read': 'files',
  'file:write': 'files',
  'execute-js': 'scripts',
  'events:subscribe': undefined,
  'session:manage': undefined,
  'world:link': undefined,
};

/** A route that only reads: GET. */
export function reads(route: Route): boolean {
  return route.method === 'GET';
}

/** A route that removes or overwrites what cannot be had back: a DELETE, or one whose entry says so. */
export function isDestructive(route: Route): boolean {
  return route.method === 'DELETE' || route.destructive === true;
}

/** A route that changes nothing more when called again with the same parameters. */
export function isIdempotent(route: Route): boolean {
  return route.method === 'GET' || route.method === 'PUT' || route.method === 'DELETE' || route.idempotent === true;
}

/**
 * The toolset a keyed route's tool is in, or undefined when the route makes no tool. Whatever deletes is in Delete,
 * whatever its scope, so no default toolset deletes; scripts stay in Scripts.
 */
export function toolsetOf(route: Route): ToolsetName | undefined {
  const scope = scopeOf(route);
  if (scope === undefined || route.kind === 'stream') return undefined;
  const toolset = SCOPE_TOOLSETS[scope];
  if (toolset === undefined || toolset === 'scripts') return toolset;
  return isDestructive(route) ? 'delete' : toolset;
}
