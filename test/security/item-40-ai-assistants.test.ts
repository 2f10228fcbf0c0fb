// Item 40: AI assistants as callers. A prompt can steer an assistant (a journal entry, a chat message or a web page it
// read says "delete every actor"), so what it may do is what the GM approved, not what it asks: its toolsets and read
// only bound the tools it can call, whatever its key's scopes. Its session is its key's alone; no web page drives
// /mcp; the OAuth sign-in answers on this computer only and its code works once, for its own PKCE verifier; the stdio
// bridge keeps its key owner-only and never says it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from '../harness/cli.ts';
import { callTool, mcpClient } from '../harness/mcp.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';

// Another machine on the LAN (a network namespace); outside CI, where none can be made, its test is skipped.
const lanPeer: LanPeer | undefined = await createLanPeer();
let harness: WorldHarness;
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lan-assistant', version: '1' } },
};

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 100 } });
});
afterAll(async () => {
  await lanPeer?.close();
  await harness?.close();
});

const actorNames = () => harness.world.game.actors.contents.map((actor) => actor.name).sort();

async function assistantKey(toolsets: string[], readOnly: boolean): Promise<string> {
  const made = await harness.admin('POST', '/admin/assistant-keys', { name: 'Misled assistant', toolsets, readOnly });
  expect(made.status, made.text).toBe(201);
  return made.body.key;
}

describe('item 40: a misled assistant does only what the GM approved', () => {
  it('with the default toolsets it cannot delete or run scripts, though its key holds entity:write and execute-js', async () => {
    const client = await mcpClient(harness.baseUrl, harness.key);
    const before = actorNames();
    const uuid = `Actor.${harness.world.game.actors.contents[0]!.id}`;
    const deleted = await callTool(client, 'delete', { uuid });
    expect(deleted.isError).toBe(true);
    expect(deleted.text).toMatch(/^Unknown tool: delete/);
    const script = await callTool(client, 'execute_js', { script: 'return game.actors.size' });
    expect(script.text).toMatch(/^Unknown tool: execute_js/);
    expect(actorNames()).toEqual(before);
    await client.close();
  });

  it('a read-only assistant cannot call a tool that changes the world, even by its name', async () => {
    const client = await mcpClient(harness.baseUrl, await assistantKey(['play', 'prepare'], true));
    const chatBefore = (await harness.get('/chat')).body.data.total;
    expect((await callTool(client, 'roll', { formula: '1d20', createChatMessage: true })).text).toMatch(
      /^Unknown tool/,
    );
    expect(
      (await callTool(client, 'create', { entityType: 'Actor', data: { name: 'Injected', type: 'npc' } })).text,
    ).toMatch(/^Unknown tool/);
    expect((await harness.get('/chat')).body.data.total).toBe(chatBefore);
    expect(actorNames()).not.toContain('Injected');
    expect((await callTool(client, 'rolls')).isError).toBe(false);
    await client.close();
  });

  it('a toolset in the URL never widens what the GM approved: given Play and Prepare, it cannot ask for Delete', async () => {
    // Its key holds entity:write and chat:write for Prepare and Play: the scopes that delete documents and chat.
    const client = await mcpClient(harness.baseUrl, await assistantKey(['play', 'prepare'], false), {
      toolsets: 'play,delete',
    });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('roll');
    expect(names).not.toContain('delete');
    expect(names).not.toContain('create');
    await client.close();
  });
});

describe("item 40: an assistant's session and /mcp itself", () => {
  it('another key cannot use a session by its id', async () => {
    const client = await mcpClient(harness.baseUrl, await harness.keyWith(['roll:read']));
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    expect(sessionId.length).toBeGreaterThanOrEqual(32);
    const other = await harness.keyWith(['roll:read']);
    const answer = await fetch(`${harness.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other}`,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(answer.status).toBe(404);
    await client.close();
  });

  it('a web page of another origin cannot drive /mcp', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${harness.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${harness.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(INITIALIZE),
      });
    const page = await post({ origin: 'http://evil.example' });
    expect(page.status).toBe(403);
    expect((await page.json()).error).toMatch(/may not use \/mcp/);
  });
});

describe.skipIf(!lanPeer)('item 40: the OAuth sign-in answers on this computer only', () => {
  it('from the LAN, registration and sign-in are refused while /mcp answers a key', async () => {
    await setLanAccess(harness, true);
    try {
      const [register, authorize, withKey] = await fromLan(harness, lanPeer!, [
        {
          method: 'POST',
          path: '/oauth/register',
          body: { client_name: 'Player laptop', redirect_uris: ['http://127.0.0.1:4000/cb'] },
        },
        {
          path: '/oauth/authorize?response_type=code&client_id=x&redirect_uri=x&code_challenge=x&code_challenge_method=S256',
        },
        {
          method: 'POST',
          path: '/mcp',
          headers: {
            authorization: `Bearer ${harness.key}`,
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
          },
          body: INITIALIZE,
        },
      ]);
      expect(register!.status).toBe(403);
      expect(register!.json.error).toMatch(/sign in on the computer that runs Tabletop Relay/);
      expect(authorize!.status).toBe(403);
      expect(withKey!.status).toBe(200);
      expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
    } finally {
      await setLanAccess(harness, false);
    }
  });
});

describe('item 40: the stdio bridge keeps its key to itself', () => {
  it('the key is stored owner-only in the data directory and never printed', async () => {
    const cli = await compiledCli();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--port', String(harness.relay.port), '--data-dir', harness.dataDir, '--name', 'Bridge'],
      stderr: 'pipe',
    });
    let said = '';
    const client = new Client({ name: 'stand-in', version: '1.0.0' });
    const connected = client.connect(transport);
    transport.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    for (let tries = 0; tries < 100; tries += 1) {
      const [request] = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
      if (request) {
        await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {});
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await connected;
    await client.listTools();
    await client.close();
    const file = join(harness.dataDir, 'mcp-bridge-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(harness.dataDir)).toContain('mcp-bridge-key');
    expect(said).not.toMatch(/ttr_/);
  });
});
