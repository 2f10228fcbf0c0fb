import { z } from 'zod';
import { RELAY_VERSION } from '../version.ts';
import { changesWorld, parameterSourceOf, type Route, type RouteGroup } from '../routing/route.ts';
import { isUndoable } from '../journal/changes.ts';

type JsonSchema = Record<string, unknown>;

const ERROR_SCHEMA = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };
const ERROR_STATUSES: Record<string, string> = {
  '400': 'A parameter is missing or wrong (the message names it), or the world reported an error',
  '401': 'The API key is missing or invalid',
  '403': 'The key lacks the scope, or may not reach this world or act as this user',
  '404': 'No such world is connected',
  '408': 'The world did not answer in time',
  '429': 'Too many requests, or too many open event streams, for this key',
  '503': 'The world disconnected before it answered',
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/**
 * The route's parameters as a JSON schema: types and defaults as parsed, required as a caller must send them. The
 * OpenAPI document and the AI assistants' tools (relay/mcp/tools.ts) both describe a route with it.
 */
export function parameterSchema(route: Route): { properties: Record<string, JsonSchema>; required: string[] } {
  const output = schemaOf(route.parameters, 'output');
  const input = schemaOf(route.parameters, 'input');
  return {
    properties: (output.properties as Record<string, JsonSchema>) ?? {},
    required: (input.required as string[]) ?? [],
  };
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The request headers the route declares, as header parameters. */
function headerParameters(route: Route): JsonSchema[] {
  if (!route.headers) return [];
  const properties = (schemaOf(route.headers, 'output').properties as Record<string, JsonSchema>) ?? {};
  const required = (schemaOf(route.headers, 'input').required as string[]) ?? [];
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'header',
    required: required.includes(name),
    description: schema.description,
    schema,
  }));
}

/** What every world and stream route takes besides its own parameters: the world, and the user to act as. */
export const CALLER_PARAMETERS = {
  clientId: { type: 'string', description: 'The world; optional when one is connected' },
  userId: { type: 'string', description: "Act as this tabletop user (id or name) with that user's permissions" },
} satisfies Record<string, JsonSchema>;

function commonParameters(route: Route, inBody: boolean): JsonSchema[] {
  if (route.kind === 'local') return [];
  const { clientId, userId } = CALLER_PARAMETERS;
  const parameters: JsonSchema[] = [
    { name: 'clientId', in: 'query', required: false, description: clientId.description, schema: { type: 'string' } },
  ];
  if (!inBody)
    parameters.push({
      name: 'userId',
      in: 'query',
      required: false,
      description: userId.description,
      schema: { type: 'string' },
    });
  return parameters;
}

function operationOf(route: Route, group: string): JsonSchema {
  const { properties, required } = parameterSchema(route);
  const pathNames = pathParameterNames(route.path);
  const from = parameterSourceOf(route);
  const inBody = from !== 'query';
  const parameters: JsonSchema[] = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  const own = Object.entries(properties).filter(([name]) => !pathNames.includes(name));
  if (!inBody) {
    for (const [name, schema] of own) {
      parameters.push({
        name,
        in: 'query',
        required: required.includes(name),
        description: schema.description,
        schema,
      });
    }
  }
  parameters.push(...headerParameters(route), ...dryRunParameter(route), ...commonParameters(route, inBody));
  const operation: JsonSchema = {
    tags: [group],
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`,
    parameters,
    responses: responsesOf(route),
  };
  if (inBody) {
    const bodyProperties: Record<string, JsonSchema> = Object.fromEntries(own);
    if (route.kind !== 'local') bodyProperties.userId = CALLER_PARAMETERS.userId;
    operation.requestBody = {
      required: required.some((name) => !pathNames.includes(name)),
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: bodyProperties,
            required: required.filter((name) => !pathNames.includes(name)),
          },
        },
      },
    };
  }
  if (typeof route.access === 'object' && 'scope' in route.access) {
    operation.security = [{ apiKey: [] }, { apiKeyAsBearer: [] }];
    operation['x-required-scope'] = route.access.scope;
    operation.description = `Needs an API key with the scope \`${route.access.scope}\`. ${playerNote(route)}${changeNote(route)}`;
  } else if (typeof route.access === 'object') {
    operation.security = [{ overlayLink: [] }];
    operation['x-overlay'] = route.access.overlay;
    operation.description = `Needs an overlay link for the \`${route.access.overlay}\` overlay, in the query as \`link\` (an API key is refused here, and anywhere in a URL).`;
  } else if (route.access === 'admin') {
    operation.security = [{ adminToken: [] }];
    operation.description = 'Admin API: answers only on loopback, with the admin token.';
  }
  return operation;
}

/** A writing route takes a dry run (relay/routing/world-change.ts). */
function dryRunParameter(route: Route): JsonSchema[] {
  if (!changesWorld(route)) return [];
  return [
    {
      name: 'X-Dry-Run',
      in: 'header',
      required: false,
      description:
        'Try the call first: 1 or true checks it as the real call, changes nothing, and answers what it would change (dryRun: true over /ws/api)',
      schema: { type: 'string', enum: ['1', 'true', '0', 'false'] },
    },
  ];
}

/** Whether a writing route's changes can be undone from the change journal, as its `changes` say (relay/journal/). */
function changeNote(route: Route): string {
  if (!changesWorld(route)) return '';
  if (isUndoable(route.changes))
    return ' Changes the world: each call is recorded in the change journal, and the GM can undo it.';
  return ` Changes the world, and cannot be undone: ${route.changes.notUndoable}.`;
}

/** What a key bound to a player gets from a keyed route, as its `playerView` says (relay/routing/player-view.ts). */
function playerNote(route: Route): string {
  const view = route.playerView;
  if (!view || 'refused' in view)
    return `Refused (403) to a key bound to a player: ${route.method} ${route.path} ${view?.refused ?? 'is not open to players'}.`;
  if ('sorted' in view) return `A key bound to a player gets ${view.sorted}.`;
  return `A key bound to a player gets the answer as it is: ${view.passes}.`;
}

/** The error statuses every route may answer, and those of the module failures a world route declares. */
function errorStatusesOf(route: Route): Record<string, string> {
  const statuses = { ...ERROR_STATUSES };
  for (const failure of route.kind === 'world' ? (route.moduleFailures ?? []) : []) {
    const status = String(failure.status);
    statuses[status] = statuses[status] ? `${statuses[status]}. ${failure.explanation}` : failure.explanation;
  }
  return statuses;
}

function responsesOf(route: Route): JsonSchema {
  const errors = Object.fromEntries(
    Object.entries(errorStatusesOf(route)).map(([status, description]) => [
      status,
      { description, content: { 'application/json': { schema: ERROR_SCHEMA } } },
    ]),
  );
  if (route.kind === 'stream')
    return {
      '200': {
        description: 'A stream of Server-Sent Events',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      ...errors,
    };
  if (route.kind === 'world' && route.reply === 'image') {
    return {
      '200': {
        description: 'The image bytes; X-Image-Width and X-Image-Height give its size',
        content: {
          'image/png': { schema: { type: 'string', format: 'binary' } },
          'image/jpeg': { schema: { type: 'string', format: 'binary' } },
        },
      },
      ...errors,
    };
  }
  if (route.kind === 'world' && route.reply === 'file') {
    return {
      '200': {
        description: 'The file bytes, or JSON with a data URL when format=base64',
        content: {
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
          'application/json': { schema: { type: 'object' } },
        },
      },
      ...errors,
    };
  }
  if (route.kind === 'local' && route.produces !== undefined)
    return { '200': producedAnswer(route.produces), ...errors };
  const success =
    route.kind === 'world' ? `The world's result: {type: "${route.operation}-result", requestId, …}` : 'Success';
  return {
    '200': { description: success, content: { 'application/json': { schema: { type: 'object' } } } },
    ...errors,
  };
}

/** A local route's answer that is not JSON: a page, a stream of events or bytes. */
function producedAnswer(mediaType: string): JsonSchema {
  if (mediaType === 'text/event-stream')
    return { description: 'A stream of Server-Sent Events', content: { [mediaType]: { schema: { type: 'string' } } } };
  if (mediaType.startsWith('text/'))
    return { description: 'A page', content: { [mediaType]: { schema: { type: 'string' } } } };
  return { description: 'The bytes', content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } };
}

/** The OpenAPI 3.1 document of every route, generated from the route tables. */
export function openApiDocument(groups: readonly RouteGroup[], serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const group of groups) {
    for (const route of group.routes) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = operationOf(route, group.name);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tabletop Relay',
      version: RELAY_VERSION,
      description:
        'A local relay between Foundry VTT worlds and the tools around the table. Worlds connect on /relay; callers use this HTTP API, /ws/api, or Server-Sent Events.',
    },
    servers: [{ url: serverUrl }],
    tags: groups.map((group) => ({ name: group.name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiKeyAsBearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The same API key (ttr_…) as Authorization: Bearer, for clients that send keys so; x-api-key wins',
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The admin token from the data directory; an API key here opens no admin route',
        },
        overlayLink: {
          type: 'apiKey',
          in: 'query',
          name: 'link',
          description:
            'An overlay link (ttol_…), made in the settings UI (Overlays): it opens one overlay of one world, read-only, and nothing else',
        },
      },
    },
  };
}
