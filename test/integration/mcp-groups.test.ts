// One tool of every route group that makes tools, called over /mcp with the SDK's client against the sandbox world
// (13 and 14): a tool that changes the world leaves it changed as its HTTP route would; a read leaves the world exactly
// as it was, every collection, the playing sounds and the selection compared before and after.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, routeGroups } from '../../relay/routes.ts';
import { toolsOf } from '../../relay/mcp/tools.ts';
import { callTool, mcpClient } from '../harness/mcp.ts';
import { userIdsByName } from '../harness/chat-rolls.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import type { Scope } from '../../relay/auth/scopes.ts';

let harness: WorldHarness;
let client: Client;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  client = await mcpClient(harness.baseUrl, harness.key, { toolsets: 'play,prepare,dnd5e,files' });
});
afterAll(async () => {
  await client?.close();
  await harness?.close();
});

/** Everything a tool could change in the world, as JSON. */
function worldState(): string {
  const { game } = harness.world;
  const collections = Object.fromEntries(
    Object.entries(game.collections).map(([name, collection]) => [
      name,
      collection.contents.map((doc) => doc.toObject()),
    ]),
  );
  return JSON.stringify({
    collections,
    sounds: [...game.playingSounds.keys()],
    selected: [...game.canvas.controlledTokenIds],
  });
}

const game = () => harness.world.game;
const named = (collection: 'folders' | 'messages' | 'combats', name: string) =>
  game().collections[collection].contents.some((doc) => doc.source.name === name);

function tavernPlaying(state: { collections: { playlists: Array<{ name: string; playing: boolean }> } }): boolean {
  return state.collections.playlists.some((playlist) => playlist.name === 'Tavern Songs' && playlist.playing);
}

interface GroupCase {
  tool: string;
  args: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** For a tool that changes the world: what it changed. A read is checked to leave the world as it was. */
  changed?: (before: string) => boolean;
  /** A tool for a key bound to a player: called with such a key, holding the tool's scope, bound to this user. */
  player?: { name: string; scope: Scope };
}

const CASES: Record<string, GroupCase> = {
  Clients: { tool: 'get_clients', args: () => ({}) },
  Effects: { tool: 'get_effects', args: async () => ({ uuid: await uuidOf(harness, 'Thorin Ironfoot') }) },
  Roll: {
    tool: 'roll',
    args: () => ({ formula: '1d6', createChatMessage: true, flavor: 'Group roll' }),
    changed: () => game().messages.contents.some((message) => message.source.flavor === 'Group roll'),
  },
  Playlist: {
    tool: 'playlist_play',
    args: () => ({ playlistName: 'Tavern Songs' }),
    changed: (before) => !tavernPlaying(JSON.parse(before)) && tavernPlaying(JSON.parse(worldState())),
  },
  Structure: {
    tool: 'create_folder',
    args: () => ({ name: 'Group folder', folderType: 'Actor' }),
    changed: () => named('folders', 'Group folder'),
  },
  Search: { tool: 'search', args: () => ({ query: 'goblin' }) },
  Sheet: { tool: 'sheet_screenshot', args: async () => ({ uuid: await uuidOf(harness, 'Thorin Ironfoot') }) },
  Utility: { tool: 'world_info', args: () => ({}) },
  Entity: {
    tool: 'create',
    args: () => ({ entityType: 'Actor', data: { name: 'Group ogre', type: 'npc' } }),
    changed: () => game().actors.contents.some((actor) => actor.source.name === 'Group ogre'),
  },
  Encounter: {
    tool: 'start_encounter',
    args: () => ({ name: 'Group fight' }),
    changed: () => named('combats', 'Group fight'),
  },
  Canvas: { tool: 'get_canvas_documents', args: () => ({ documentType: 'tokens' }) },
  Chat: {
    tool: 'chat_send',
    args: () => ({ content: 'Hello from an assistant' }),
    changed: () => game().messages.contents.some((message) => message.source.content === 'Hello from an assistant'),
  },
  Scene: { tool: 'get_scene', args: () => ({ active: true }) },
  Macro: { tool: 'macros', args: () => ({}) },
  'File System': { tool: 'file_system', args: () => ({ path: '' }) },
  DnD5e: {
    tool: 'get_actor_details',
    args: async () => ({ actorUuid: await uuidOf(harness, 'Thorin Ironfoot'), details: 'abilities' }),
  },
  User: { tool: 'get_users', args: () => ({}) },
  'Player page': { tool: 'play_me', args: () => ({}), player: { name: 'Alice', scope: 'entity:read' } },
};

/** The client a case is called with: the GM's, or one with a key bound to the case's player. */
async function clientFor({ player }: GroupCase): Promise<Client> {
  if (!player) return client;
  const key = await harness.keyWith([player.scope], { userId: userIdsByName(harness)[player.name] });
  return mcpClient(harness.baseUrl, key, { toolsets: 'prepare' });
}

describe('/mcp: one tool of every route group', () => {
  it('covers every group that makes tools', () => {
    const tools = toolsOf(allRoutes);
    const groupsWithTools = routeGroups
      .filter((group) => tools.some((tool) => group.routes.includes(tool.route)))
      .map((group) => group.name);
    expect(Object.keys(CASES).sort()).toEqual(groupsWithTools.sort());
    for (const [group, { tool }] of Object.entries(CASES)) {
      const routes = routeGroups.find((candidate) => candidate.name === group)!.routes;
      expect(tools.find((candidate) => candidate.tool.name === tool)?.route, tool).toSatisfy((route) =>
        routes.includes(route as never),
      );
    }
  });

  it.each(Object.entries(CASES))('%s', async (_group, groupCase) => {
    const { tool, args, changed } = groupCase;
    const parameters = await args();
    const caller = await clientFor(groupCase);
    const before = worldState();
    const result = await callTool(caller, tool, parameters);
    if (caller !== client) await caller.close();
    expect(result.isError, result.text).toBe(false);
    if (changed) expect(changed(before)).toBe(true);
    else expect(worldState()).toBe(before);
  });
});
