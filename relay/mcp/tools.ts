// Every keyed world operation as an MCP tool, made from its route's entry: the name is the operation (as on /ws/api),
// the input schema the route's own parameters, the description its summary, the annotations what its entry says.
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOLSETS, isToolsetName, TOOLSET_NAMES, type ToolsetName } from '../../contracts/assistants.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { Scope } from '../auth/scopes.ts';
import { CALLER_PARAMETERS, parameterSchema } from '../api/openapi.ts';
import { HttpError } from '../errors.ts';
import { changesWorld, scopeOf, type Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { isDestructive, isIdempotent, reads, toolsetOf } from './toolsets.ts';

/** A route that makes a tool: the toolset it is in, and the tool's name. Cheap: no input schema is made. */
export interface ToolRoute {
  route: Route;
  toolset: ToolsetName;
  name: string;
}

/** One tool: its route, and what `tools/list` says of it, input schema included. */
export interface RouteTool extends ToolRoute {
  tool: Tool;
}

/** `get-scene` → `get_scene`: the operation's name in the form MCP clients expect of a tool. */
export function toolNameOf(operation: string): string {
  return operation.replaceAll('-', '_');
}

/** The routes of a table that make tools: every keyed route with an operation and a toolset, in the table's order. */
export function toolRoutesOf(routes: readonly Route[]): ToolRoute[] {
  return routes.flatMap((route) => {
    const toolset = toolsetOf(route);
    const operation = route.kind === 'stream' ? undefined : route.operation;
    if (toolset === undefined || operation === undefined) return [];
    return [{ route, toolset, name: toolNameOf(operation) }];
  });
}

/**
 * The tools of a route table, input schemas and all (some 13 MB of JSON Schema for the whole table): made where an
 * assistant is served, never for the settings or a key request, which need only the routes.
 */
export function toolsOf(routes: readonly Route[]): RouteTool[] {
  return toolRoutesOf(routes).map((entry) => ({ ...entry, tool: toolOf(entry) }));
}

/** The tool's own input beside the route's parameters: a world change may be tried first, as X-Dry-Run does over HTTP. */
const DRY_RUN_PARAMETER = {
  dryRun: {
    type: 'boolean',
    description:
      'Try it first: answer what the call would change in the world, changing nothing, so the GM can see the plan',
  },
};

function toolOf({ route, name }: ToolRoute): Tool {
  const { properties, required } = parameterSchema(route);
  const callerProperties = route.kind === 'local' ? {} : CALLER_PARAMETERS;
  const dryRun = changesWorld(route) ? DRY_RUN_PARAMETER : {};
  return {
    name,
    description: `${route.summary}. (${route.method} ${route.path}, scope ${scopeOf(route)})`,
    inputSchema: { type: 'object', properties: { ...properties, ...callerProperties, ...dryRun }, required },
    annotations: annotationsOf(route),
  };
}

/** What the route does, told as MCP's hints: a read, or a change that adds, overwrites or destroys. */
function annotationsOf(route: Route): ToolAnnotations {
  if (reads(route)) return { readOnlyHint: true, openWorldHint: false };
  return {
    readOnlyHint: false,
    destructiveHint: isDestructive(route),
    idempotentHint: isIdempotent(route),
    openWorldHint: false,
  };
}

/**
 * The toolsets a caller is offered: those it asked for (the `toolsets` of the /mcp URL), or the ones its key was
 * approved with, or the default; never one its key was not approved with. Unknown names are refused by name.
 */
export function offeredToolsets(key: ApiKeyRecord, asked: string | undefined): ToolsetName[] {
  const approved = key.assistant?.toolsets ?? TOOLSET_NAMES;
  const wanted = asked === undefined ? (key.assistant?.toolsets ?? DEFAULT_TOOLSETS) : namedToolsets(asked);
  return wanted.filter((toolset) => approved.includes(toolset));
}

function namedToolsets(asked: string): ToolsetName[] {
  const names = asked
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !isToolsetName(name));
  if (unknown.length > 0)
    throw new HttpError(400, `Unknown toolsets: ${unknown.join(', ')}. Toolsets are ${TOOLSET_NAMES.join(', ')}`);
  return names as ToolsetName[];
}

/** The tools a key may call in these toolsets: its scopes allow them, and a read-only key only reads. */
export function toolsFor<T extends ToolRoute>(
  tools: readonly T[],
  key: ApiKeyRecord,
  toolsets: readonly ToolsetName[],
): T[] {
  const readOnly = key.assistant?.readOnly === true;
  return tools.filter(
    ({ route, toolset }) =>
      toolsets.includes(toolset) && key.scopes.includes(scopeOf(route)!) && (!readOnly || reads(route)),
  );
}

/** The scopes the tools of these toolsets need (a read-only assistant's: only those of their reads). */
export function scopesOfToolsets(
  tools: readonly ToolRoute[],
  toolsets: readonly ToolsetName[],
  readOnly: boolean,
): Scope[] {
  const scopes = tools
    .filter(({ route, toolset }) => toolsets.includes(toolset) && (!readOnly || reads(route)))
    .map(({ route }) => scopeOf(route)!);
  return [...new Set(scopes)];
}

/** The toolsets as the relay's services tell them: the scopes each needs, and the names of the tools each holds. */
export function assistantToolsets(routes: readonly Route[]): Pick<RelayServices, 'toolsetScopes' | 'toolsetTools'> {
  const toolRoutes = toolRoutesOf(routes);
  return {
    toolsetScopes: (toolsets, readOnly) => scopesOfToolsets(toolRoutes, toolsets, readOnly),
    toolsetTools: (toolset) => toolRoutes.filter((entry) => entry.toolset === toolset).map(({ name }) => name),
  };
}
