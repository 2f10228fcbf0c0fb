// One assistant's MCP session: its tools and resources, each call one run of the pipeline every transport shares
// (relay/routing/pipeline.ts), so scopes, bindings, a player's view, rate limits and the activity log hold as over HTTP.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { HttpError } from '../errors.ts';
import { RELAY_VERSION } from '../version.ts';
import { runCall, type CallAnswer } from '../routing/pipeline.ts';
import { scopeOf, type CallContext, type Route } from '../routing/route.ts';
import type { Fields } from '../routing/call.ts';
import type { RelayServices } from '../services.ts';
import { toolError, toolErrorOf, toolResultOf } from './results.ts';
import type { RouteTool } from './tools.ts';

/** What each request of a session carries to the handlers (as the SDK's `authInfo`): its key and its call. */
export interface AssistantCall {
  presentedKey: string;
  call: CallContext;
}

export function authInfoOf(key: ApiKeyRecord, assistantCall: AssistantCall): AuthInfo {
  return { token: assistantCall.presentedKey, clientId: key.id, scopes: key.scopes, extra: { ...assistantCall } };
}

function assistantCallOf(authInfo: AuthInfo | undefined): AssistantCall {
  const extra = authInfo?.extra as Partial<AssistantCall> | undefined;
  if (!extra?.presentedKey || !extra.call) throw new HttpError(401, 'API key is required');
  return extra as AssistantCall;
}

/** A resource a model reads often, read through an operation's route; its updates come from one of the world's streams. */
interface ResourceKind {
  operation: string;
  parameters: (uri: URL) => Fields;
  /** The stream route whose events say it changed, and the filter for this resource. */
  updates?: { path: string; filter: (uri: URL) => Fields };
}

const WORLD_URI = 'foundry://world';
const ACTIVE_SCENE_URI = 'foundry://scene/active';
const ACTOR_URI_TEMPLATE = 'foundry://actor/{uuid}';

const RESOURCES: Record<string, ResourceKind> = {
  [WORLD_URI]: { operation: 'world-info', parameters: () => ({}) },
  [ACTIVE_SCENE_URI]: {
    operation: 'get-scene',
    parameters: () => ({ active: true }),
    updates: { path: '/scene/subscribe', filter: () => ({}) },
  },
  actor: {
    operation: 'entity',
    parameters: (uri) => ({ uuid: actorUuidOf(uri) }),
    updates: { path: '/actor/subscribe', filter: (uri) => ({ actorUuid: actorUuidOf(uri) }) },
  },
};

const LISTED_RESOURCES: Resource[] = [
  {
    uri: WORLD_URI,
    name: 'World',
    description: 'The world: its system, versions, modules, users and active scene',
    mimeType: 'application/json',
  },
  {
    uri: ACTIVE_SCENE_URI,
    name: 'Active scene',
    description: 'The scene the players see now, with its tokens, notes and walls',
    mimeType: 'application/json',
  },
];

function actorUuidOf(uri: URL): string {
  return decodeURIComponent(uri.pathname.replace(/^\/+/, ''));
}

function resourceKindOf(uri: string): ResourceKind | undefined {
  if (RESOURCES[uri]) return RESOURCES[uri];
  return uri.startsWith('foundry://actor/') && uri.length > 'foundry://actor/'.length ? RESOURCES.actor : undefined;
}

export interface AssistantSession {
  server: Server;
  /** Ends the session's resource subscriptions (its key changed, or it closed). */
  end(): void;
}

/**
 * An MCP server for one session of one key: the tools of the toolsets it was offered that the key's scopes allow, the
 * resources its scopes can read, and resource updates while it subscribes. Any change of the key ends its sessions, so
 * what the key may call is worked out once, when the session opens.
 */
export function assistantSession(
  services: RelayServices,
  routes: readonly Route[],
  key: ApiKeyRecord,
  tools: readonly RouteTool[],
): AssistantSession {
  const server = new Server(
    { name: 'tabletop-relay', title: 'Tabletop Relay', version: RELAY_VERSION },
    {
      capabilities: { tools: {}, resources: { subscribe: true } },
      instructions:
        "Tools act on Foundry VTT worlds connected to Tabletop Relay. Without clientId a tool uses the only connected world; get_clients lists them. Answers are the world's JSON.",
    },
  );
  const byOperation = new Map(
    routes.flatMap((route) => (route.kind !== 'stream' && route.operation ? [[route.operation, route] as const] : [])),
  );
  const streamByPath = new Map(routes.filter((route) => route.kind === 'stream').map((route) => [route.path, route]));
  const subscriptions = new Map<string, () => void>();
  const byName = new Map(tools.map((tool) => [tool.tool.name, tool]));
  const run = (assistantCall: AssistantCall, route: Route, logged: string, fields: Fields): Promise<CallAnswer> =>
    runCall(
      {
        route,
        call: { ...assistantCall.call, transport: 'mcp' },
        logged: { method: 'MCP', path: logged },
        presentedKey: assistantCall.presentedKey,
        clientId: fields.clientId,
        query: fields,
        readBody: async () => fields,
      },
      services,
    );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(({ tool }) => tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: fields = {} } = request.params;
    const found = byName.get(name);
    if (!found) return toolError(`Unknown tool: ${name}. This session's tools are listed by tools/list`);
    const { route } = found;
    // A download comes back as the world's JSON (a data URL and the file's name), as over /ws/api.
    const withFormat = route.kind === 'world' && route.reply === 'file' ? { format: 'base64', ...fields } : fields;
    try {
      return toolResultOf(await run(assistantCallOf(extra.authInfo), route, name, withFormat));
    } catch (error) {
      return toolErrorOf(error);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: LISTED_RESOURCES.filter((resource) => mayRead(resource.uri)),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: mayRead('foundry://actor/x')
      ? [
          {
            uriTemplate: ACTOR_URI_TEMPLATE,
            name: 'Actor',
            description: 'An actor by its uuid (Actor.<id>), with its items and effects',
            mimeType: 'application/json',
          },
        ]
      : [],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const kind = resourceKindOf(uri);
    if (!kind) throw new HttpError(404, `Unknown resource: ${uri}`);
    const route = byOperation.get(kind.operation)!;
    const answer = await run(assistantCallOf(extra.authInfo), route, `read ${uri}`, kind.parameters(new URL(uri)));
    return resourceContents(uri, answer);
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const updates = resourceKindOf(uri)?.updates;
    if (!updates) throw new HttpError(400, `The resource ${uri} sends no updates`);
    const answer = await run(
      assistantCallOf(extra.authInfo),
      streamByPath.get(updates.path)!,
      `subscribe ${uri}`,
      updates.filter(new URL(uri)),
    );
    if (answer.kind !== 'events') throw new Error(`${updates.path} answered with ${answer.kind}`);
    subscriptions.get(uri)?.();
    answer.open({
      send: (name) => {
        if (name !== 'connected') void server.sendResourceUpdated({ uri }).catch(() => undefined);
      },
      comment: () => {},
      onClose: (unsubscribe) => subscriptions.set(uri, unsubscribe),
      end: () => subscriptions.delete(uri),
    });
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.get(request.params.uri)?.();
    subscriptions.delete(request.params.uri);
    return {};
  });

  /** Whether the key's scopes read this resource. */
  function mayRead(uri: string): boolean {
    const kind = resourceKindOf(uri);
    const route = kind && byOperation.get(kind.operation);
    return route !== undefined && key.scopes.includes(scopeOf(route)!);
  }

  return {
    server,
    end: () => {
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    },
  };
}

/** A resource's contents: the world's JSON; a refusal is an error with the relay's words, as a tool's would be. */
function resourceContents(uri: string, answer: CallAnswer): ReadResourceResult {
  const result = toolResultOf(answer);
  const [first] = result.content;
  const text = first?.type === 'text' ? first.text : '';
  if (result.isError) throw new HttpError(400, text);
  return { contents: [{ uri, mimeType: 'application/json', text }] };
}
