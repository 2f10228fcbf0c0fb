// The MCP SDK's servers over one assistant (assistant.ts): a session's, for the 2025 revisions that today's clients
// speak, and one per request for the 2026-07-28 revision, which has no sessions. Each only registers the same handlers.
import { Server as SessionServer } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Server as RequestServer, type Tool as RequestTool } from '@modelcontextprotocol/server';
import { RELAY_VERSION } from '../version.ts';
import { assistantCallOf, type Assistant } from './assistant.ts';

const SERVER_INFO = { name: 'tabletop-relay', title: 'Tabletop Relay', version: RELAY_VERSION };
const INSTRUCTIONS =
  "Tools act on Foundry VTT worlds connected to Tabletop Relay. Without clientId a tool uses the only connected world; get_clients lists them. Answers are the world's JSON.";

export interface AssistantSession {
  server: SessionServer;
  /** Ends the session's resource subscriptions (its key changed, or it closed). */
  end(): void;
}

/** A session's server (2025 revisions): tools, resources, and resource updates while it subscribes. */
export function sessionServer(assistant: Assistant): AssistantSession {
  const server = new SessionServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: { subscribe: true } },
    instructions: INSTRUCTIONS,
  });
  const subscriptions = new Map<string, () => void>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: assistant.tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    assistant.callTool(request.params.name, request.params.arguments ?? {}, assistantCallOf(extra.authInfo)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: assistant.resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: assistant.resourceTemplates,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    assistant.readResource(request.params.uri, assistantCallOf(extra.authInfo)),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const unsubscribe = await assistant.subscribe(uri, assistantCallOf(extra.authInfo), () => {
      void server.sendResourceUpdated({ uri }).catch(() => undefined);
    });
    subscriptions.get(uri)?.();
    subscriptions.set(uri, unsubscribe);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.get(request.params.uri)?.();
    subscriptions.delete(request.params.uri);
    return {};
  });
  return {
    server,
    end: () => {
      for (const unsubscribe of subscriptions.values()) unsubscribe();
      subscriptions.clear();
    },
  };
}

/** One request's server (2026-07-28): the same tools and resources; no session, so no subscriptions. */
export function requestServer(assistant: Assistant): RequestServer {
  const server = new RequestServer(SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions: INSTRUCTIONS,
  });
  // The same JSON Schemas: the two SDKs only type their values differently.
  server.setRequestHandler('tools/list', () => ({ tools: assistant.tools as unknown as RequestTool[] }));
  server.setRequestHandler('tools/call', (request, context) =>
    assistant.callTool(request.params.name, request.params.arguments ?? {}, assistantCallOf(context.http?.authInfo)),
  );
  server.setRequestHandler('resources/list', () => ({ resources: assistant.resources }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: assistant.resourceTemplates }));
  server.setRequestHandler('resources/read', (request, context) =>
    assistant.readResource(request.params.uri, assistantCallOf(context.http?.authInfo)),
  );
  return server;
}
