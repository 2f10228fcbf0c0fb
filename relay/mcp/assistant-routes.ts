import { z } from 'zod';
import type { AssistantsView } from '../../contracts/admin-api.ts';
import { DEFAULT_TOOLSETS, TOOLSETS, TOOLSET_NAMES } from '../../contracts/assistants.ts';
import { knownToolsets } from '../auth/scope-list.ts';
import { text, textList } from '../routing/parameters.ts';
import { localRoute, type Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';

// The settings' AI assistants page: the toolsets and their tools, the assistants connected (keys made for one, with
// their open sessions), and a key made for an assistant that takes one in its config (LM Studio).

function assistantsView(services: RelayServices): AssistantsView {
  const sessions = services.assistantSessions();
  return {
    toolsets: TOOLSET_NAMES.map((name) => ({
      name,
      ...TOOLSETS[name],
      byDefault: DEFAULT_TOOLSETS.includes(name),
      tools: services.toolsetTools(name),
    })),
    assistants: services.keys
      .list()
      .flatMap(({ assistant, ...key }) =>
        assistant === undefined ? [] : [{ ...key, assistant, sessions: sessions.get(key.id) ?? 0 }],
      ),
  };
}

export const assistantAdminRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/admin/assistants',
    summary:
      'AI assistants: the toolsets and their tools, and the keys made for assistants with their open MCP sessions',
    access: 'admin',
    parameters: z.object({}),
    handle: ({ services }) => ({ body: assistantsView(services) }),
  }),
  localRoute({
    method: 'POST',
    path: '/admin/assistant-keys',
    summary:
      "Make a key for an AI assistant that takes one in its config: the scopes of its toolsets' tools; the full key is in this answer only",
    access: 'admin',
    parameters: z.object({
      name: text().max(100, { error: 'is at most 100 characters' }).describe('The assistant, e.g. "LM Studio"'),
      toolsets: textList()
        .pipe(knownToolsets().min(1, { error: 'must name at least one toolset' }))
        .default([...DEFAULT_TOOLSETS])
        .describe('The toolsets it gets; Play and Prepare by default'),
      readOnly: z.boolean({ error: 'must be true or false' }).default(false).describe("Only the toolsets' reads"),
      userId: z.string().max(200).optional().describe('The tabletop user it acts as'),
      worldIds: textList().optional().describe('The only worlds it reaches'),
    }),
    handle: ({ parameters: { toolsets, readOnly, ...key }, services }) => {
      const created = services.keys.create({
        ...key,
        scopes: services.toolsetScopes(toolsets, readOnly),
        assistant: { toolsets, readOnly },
      });
      return { status: 201, body: { ...created.record, key: created.key } };
    },
  }),
];
