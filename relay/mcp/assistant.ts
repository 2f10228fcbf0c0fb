// What one key may do as an AI assistant, whatever the protocol revision it speaks: its tools and resources, each call
// one run of the pipeline every transport shares (relay/routing/pipeline.ts), so scopes, bindings, a player's view,
// rate limits and the activity log hold as over HTTP. The SDK's servers (assistant-server.ts) only register these.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  CallToolResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { WorldOperation } from '../../contracts/operations.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { HttpError } from '../errors.ts';
import { runCall, type CallAnswer } from '../routing/pipeline.ts';
import { scopeOf, type CallContext, type Route } from '../routing/route.ts';
import type { Fields } from '../routing/call.ts';
import type { RelayServices } from '../services.ts';
import { toolError, toolErrorOf, toolResultOf } from './results.ts';
import type { RouteTool } from './tools.ts';

/** What each request carries to the handlers (as the SDK's `authInfo`): the key as presented, the call, the toolsets. */
export interface AssistantCall {
  presentedKey: string;
  call: CallContext;
  /** The toolsets the /mcp URL asked for, if any. */
  toolsets?: string;
}

export function authInfoOf(key: ApiKeyRecord, assistantCall: AssistantCall): AuthInfo {
  return { token: assistantCall.presentedKey, clientId: key.id, scopes: key.scopes, extra: { ...assistantCall } };
}

export function assistantCallOf(authInfo: AuthInfo | undefined): AssistantCall {
  const extra = authInfo?.extra as Partial<AssistantCall> | undefined;
  if (!extra?.presentedKey || !extra.call) throw new HttpError(401, 'API key is required');
  return extra as AssistantCall;
}

/** A resource a model reads often, read through an operation's route; its updates come from one of the world's streams. */
interface ResourceKind {
  operation: WorldOperation;
  parameters: (uri: URL) => Fields;
  /** The stream route whose events say it changed, and the filter for this resource. */
  updates?: { path: string; filter: (uri: URL) => Fields };
}

const WORLD_URI = 'foundry://world';
const ACTIVE_SCENE_URI = 'foundry://scene/active';
const ACTOR_URI = 'foundry://actor/';

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

const ACTOR_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${ACTOR_URI}{uuid}`,
  name: 'Actor',
  description: 'An actor by its uuid (Actor.<id>), with its items and effects',
  mimeType: 'application/json',
};

function actorUuidOf(uri: URL): string {
  return decodeURIComponent(uri.pathname.replace(/^\/+/, ''));
}

function resourceKindOf(uri: string): ResourceKind | undefined {
  if (RESOURCES[uri]) return RESOURCES[uri];
  return uri.startsWith(ACTOR_URI) && uri.length > ACTOR_URI.length ? RESOURCES.actor : undefined;
}

export interface Assistant {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  callTool(name: string, fields: Fields, assistantCall: AssistantCall): Promise<CallToolResult>;
  readResource(uri: string, assistantCall: AssistantCall): Promise<ReadResourceResult>;
  /** Calls `changed` on each event that changes the resource, until the answered function is called. */
  subscribe(uri: string, assistantCall: AssistantCall, changed: () => void): Promise<() => void>;
}

/** One call of the shared pipeline for an assistant: logged as `MCP <what>`, its fields the parameters. */
function runAsAssistant(
  services: RelayServices,
  assistantCall: AssistantCall,
  { route, logged, fields, dryRun }: { route: Route; logged: string; fields: Fields; dryRun?: unknown },
): Promise<CallAnswer> {
  return runCall(
    {
      route,
      call: { ...assistantCall.call, transport: 'mcp' },
      logged: { method: 'MCP', path: logged },
      presentedKey: assistantCall.presentedKey,
      clientId: fields.clientId,
      query: fields,
      readBody: async () => fields,
      dryRun,
    },
    services,
  );
}

/** What a key may call: the tools it was offered, and the resources its scopes read. */
export function assistantOf(
  services: RelayServices,
  routes: readonly Route[],
  key: ApiKeyRecord,
  tools: readonly RouteTool[],
): Assistant {
  const byOperation = new Map(
    routes.flatMap((route) => (route.kind !== 'stream' && route.operation ? [[route.operation, route] as const] : [])),
  );
  const streamByPath = new Map(routes.filter((route) => route.kind === 'stream').map((route) => [route.path, route]));
  const byName = new Map(tools.map((tool) => [tool.tool.name, tool]));
  const mayRead = (uri: string) => {
    const kind = resourceKindOf(uri);
    const route = kind && byOperation.get(kind.operation);
    return route !== undefined && key.scopes.includes(scopeOf(route)!);
  };
  const run = (assistantCall: AssistantCall, route: Route, logged: string, fields: Fields, dryRun?: unknown) =>
    runAsAssistant(services, assistantCall, { route, logged, fields, dryRun });

  return {
    tools: tools.map(({ tool }) => tool),
    resources: LISTED_RESOURCES.filter((resource) => mayRead(resource.uri)),
    resourceTemplates: mayRead(`${ACTOR_URI}x`) ? [ACTOR_TEMPLATE] : [],
    async callTool(name, fields, assistantCall) {
      const found = byName.get(name);
      if (!found) return toolError(`Unknown tool: ${name}. The tools this key may call are listed by tools/list`);
      const { route } = found;
      // The pipeline reads a dry run as /ws/api's `dryRun`: tried first where the route changes a world, refused elsewhere.
      const { dryRun, ...parameters } = fields;
      // A download comes back as the world's JSON (a data URL and the file's name), as over /ws/api.
      const withFormat =
        route.kind === 'world' && route.reply === 'file' ? { format: 'base64', ...parameters } : parameters;
      try {
        return toolResultOf(await run(assistantCall, route, name, withFormat, dryRun));
      } catch (error) {
        return toolErrorOf(error);
      }
    },
    async readResource(uri, assistantCall) {
      const kind = resourceKindOf(uri);
      if (!kind) throw new HttpError(404, `Unknown resource: ${uri}`);
      const answer = await run(
        assistantCall,
        byOperation.get(kind.operation)!,
        `read ${uri}`,
        kind.parameters(new URL(uri)),
      );
      return resourceContents(uri, answer);
    },
    async subscribe(uri, assistantCall, changed) {
      const updates = resourceKindOf(uri)?.updates;
      if (!updates) throw new HttpError(400, `The resource ${uri} sends no updates`);
      const route = streamByPath.get(updates.path)!;
      const answer = await run(assistantCall, route, `subscribe ${uri}`, updates.filter(new URL(uri)));
      if (answer.kind !== 'events') throw new Error(`${updates.path} answered with ${answer.kind}`);
      let unsubscribe = () => {};
      answer.open({
        send: (name) => {
          if (name !== 'connected') changed();
        },
        comment: () => {},
        onClose: (stop) => (unsubscribe = stop),
        end: () => (unsubscribe = () => {}),
      });
      return () => unsubscribe();
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
