// AI assistants over /mcp, driven by the MCP SDK's own client over Streamable HTTP against the sandbox world (13 and
// 14): the tools a key's scopes and toolsets allow, one tool of every toolset changing the world (or not, for reads),
// errors in the relay's words, and a revoked key ending the session.
import { connect as connectSocket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callTool, mcpClient, toolNames } from '../harness/mcp.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { userIdsByName } from '../harness/chat-rolls.ts';

let harness: WorldHarness;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});
afterAll(() => harness?.close());

async function connect(key: string, options?: Parameters<typeof mcpClient>[2]): Promise<Client> {
  const client = await mcpClient(harness.baseUrl, key, options);
  clients.push(client);
  return client;
}

describe('/mcp: initialize and the tools a key may see', () => {
  it('initializes as Tabletop Relay with tools and subscribable resources', async () => {
    const client = await connect(harness.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'tabletop-relay' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true } });
  });

  it('a roll:read key lists only the roll reads, and says they only read', async () => {
    const client = await connect(await harness.keyWith(['roll:read']));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['last_roll', 'rolls']);
    for (const tool of tools) expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'rolls')!.inputSchema.properties).toHaveProperty('limit');
  });

  it('by default a key gets Play and Prepare: no deletes, no scripts, no files', async () => {
    const names = await toolNames(await connect(harness.key));
    expect(names).toContain('roll');
    expect(names).toContain('create');
    expect(names).not.toContain('delete');
    expect(names).not.toContain('chat_flush');
    expect(names).not.toContain('kill');
    expect(names).not.toContain('execute_js');
    expect(names).not.toContain('upload_file');
    expect(names.length).toBeLessThan(70);
  });

  it('toolsets named in the URL are offered, with honest annotations', async () => {
    const client = await connect(harness.key, { toolsets: 'delete,scripts' });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('delete')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('kill')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('execute_js')!.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.has('roll')).toBe(false);
    const play = await connect(harness.key, { toolsets: 'play' });
    const roll = (await play.listTools()).tools.find((tool) => tool.name === 'roll')!;
    expect(roll.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('an unknown toolset is refused by name', async () => {
    await expect(connect(harness.key, { toolsets: 'play,everything' })).rejects.toThrow(/Unknown toolsets: everything/);
  });
});

describe('/mcp: one tool of every toolset, and the world changes (or not)', () => {
  it('Play: roll posts to chat, and rolls reads it back', async () => {
    const client = await connect(harness.key, { header: 'x-api-key' });
    const chatBefore = (await harness.get('/chat')).body.data.total;
    const rolled = await callTool(client, 'roll', { formula: '2d6+3', createChatMessage: true });
    expect(rolled.isError, rolled.text).toBe(false);
    expect(rolled.json.data.roll.formula).toBe('2d6+3');
    expect((await harness.get('/chat')).body.data.total).toBe(chatBefore + 1);
    const last = await callTool(client, 'last_roll');
    expect(last.json.data.formula).toBe('2d6+3');
  });

  it('Prepare: create makes an actor the world then holds; a read changes nothing', async () => {
    const client = await connect(harness.key);
    const created = await callTool(client, 'create', { entityType: 'Actor', data: { name: 'Mcp Ogre', type: 'npc' } });
    expect(created.isError, created.text).toBe(false);
    expect((await harness.get('/get', { uuid: created.json.uuid })).body.data.name).toBe('Mcp Ogre');
    const before = JSON.stringify(harness.world.game.actors.contents.map((actor) => actor.name));
    const read = await callTool(client, 'entity', { uuid: created.json.uuid });
    expect(read.json.data.name).toBe('Mcp Ogre');
    expect(JSON.stringify(harness.world.game.actors.contents.map((actor) => actor.name))).toBe(before);
  });

  it('Prepare: a change tried first changes nothing and answers what the call then changes', async () => {
    const client = await connect(harness.key);
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === 'update')?.inputSchema.properties).toHaveProperty('dryRun');
    expect(tools.find((tool) => tool.name === 'entity')?.inputSchema.properties).not.toHaveProperty('dryRun');
    const uuid = await uuidOf(harness, 'Thorin Ironfoot');
    const asked = { uuid, data: { name: 'Thorin the Tried' } };
    const tried = await callTool(client, 'update', { ...asked, dryRun: true });
    expect(tried.isError, tried.text).toBe(false);
    expect(tried.json).toMatchObject({ dryRun: true, method: 'PUT', path: '/update' });
    expect(tried.json.changes[0].fields).toContainEqual({
      path: 'name',
      before: 'Thorin Ironfoot',
      after: 'Thorin the Tried',
    });
    expect(harness.world.game.fromUuid(uuid)!.name).toBe('Thorin Ironfoot');

    expect((await callTool(client, 'update', asked)).isError).toBe(false);
    const made = (await harness.admin('GET', '/admin/changes')).body.changes[0];
    expect(made).toMatchObject({ method: 'PUT', path: '/update' });
    expect(made.changes[0].fields).toEqual(tried.json.changes[0].fields);
    expect((await harness.admin('POST', `/admin/changes/${made.id}/undo`, {})).status).toBe(200);
    expect(harness.world.game.fromUuid(uuid)!.name).toBe('Thorin Ironfoot');
  });

  it('D&D 5e: a skill check answers with its total', async () => {
    const client = await connect(harness.key, { toolsets: 'dnd5e' });
    const check = await callTool(client, 'skill_check', {
      actorUuid: await uuidOf(harness, 'Thorin Ironfoot'),
      skill: 'ath',
    });
    expect(check.isError, check.text).toBe(false);
    expect(typeof check.json.data.total).toBe('number');
  });

  it('Files: an upload lands in the file store and lists', async () => {
    const client = await connect(harness.key, { toolsets: 'files' });
    const upload = await callTool(client, 'upload_file', {
      path: 'mcp',
      filename: 'dot.png',
      fileData: `data:image/png;base64,${Buffer.from([137, 80, 78, 71]).toString('base64')}`,
    });
    expect(upload.isError, upload.text).toBe(false);
    const listing = await callTool(client, 'file_system', { path: 'mcp' });
    expect(listing.json.results.map((entry: { name: string }) => entry.name)).toContain('dot.png');
  });

  it('Delete: delete removes the document', async () => {
    const created = await harness.post('/create', { entityType: 'Item', data: { name: 'Doomed', type: 'loot' } });
    const client = await connect(harness.key, { toolsets: 'delete' });
    const deleted = await callTool(client, 'delete', { uuid: created.body.uuid });
    expect(deleted.isError, deleted.text).toBe(false);
    expect((await harness.get('/get', { uuid: created.body.uuid })).status).toBe(400);
  });

  it("Scripts: execute_js reaches the world, whose refusal comes back as a tool error in the world's words", async () => {
    const client = await connect(harness.key, { toolsets: 'scripts' });
    const script = await callTool(client, 'execute_js', { script: 'return 1 + 1' });
    expect(script.isError).toBe(true);
    expect(script.text).toMatch(/execute-js is disabled/);
  });

  it('Prepare: a sheet comes back as image content', async () => {
    const client = await connect(harness.key);
    const sheet = await callTool(client, 'sheet_screenshot', { uuid: await uuidOf(harness, 'Thorin Ironfoot') });
    expect(sheet.isError, sheet.text).toBe(false);
    expect(sheet.result.content[0]).toMatchObject({ type: 'image', mimeType: expect.stringMatching(/^image\//) });
  });
});

describe('/mcp: the current protocol revision (2026-07-28), without sessions', () => {
  it('a client of the SDK v2 that asks for 2026-07-28 lists and calls the same tools, no session opened', async () => {
    const client = new ModernClient(
      { name: 'modern-assistant', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    const key = await harness.createKey({ name: 'Modern assistant' });
    await client.connect(
      new ModernTransport(new URL('/mcp?toolsets=play', harness.baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('roll');
      expect(names).not.toContain('create');
      const rolled = await client.callTool({ name: 'roll', arguments: { formula: '3d6' } });
      expect(rolled.isError).toBeFalsy();
      const text = (rolled.content as Array<{ type: string; text: string }>)[0]!.text;
      expect(JSON.parse(text).data.roll.formula).toBe('3d6');
      const refused = await client.callTool({ name: 'delete', arguments: {} });
      expect(refused.isError).toBe(true);
      const keyId = (await harness.admin('GET', '/admin/keys')).body.keys.at(-1).id;
      expect(harness.relay.services.assistantSessions().get(keyId)).toBeUndefined();
      const entries = (await harness.admin('GET', '/admin/activity')).body.entries;
      expect(entries[0]).toMatchObject({ keyName: 'Modern assistant', method: 'MCP', path: 'roll', status: 200 });
    } finally {
      await client.close();
    }
  });
});

describe('/mcp on the wire, in a session', () => {
  /** A raw POST in the client's session, as an assistant's transport sends one. */
  function sessionHeaders(client: Client, key: string): Record<string, string> {
    const transport = client.transport as StreamableHTTPClientTransport;
    return {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': transport.protocolVersion!,
    };
  }
  /** A raw POST in the client's session, as an assistant's transport sends one; bytes are sent as they are. */
  async function postInSession(client: Client, key: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(`${harness.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...sessionHeaders(client, key), ...headers },
      body: typeof body === 'string' ? body : body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body),
    });
  }
  const lastRoll = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'last_roll' } });

  it("a tool call is answered as one JSON-RPC answer in JSON, with the result of the SDK's own handler", async () => {
    const key = await harness.keyWith(['roll:read']);
    const client = await connect(key);
    const answer = await postInSession(client, key, lastRoll(7));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const message = await answer.json();
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text' }] } });
    // The same call in a batch is not one plain tool call: the SDK's server answers it, on a stream.
    const batch = await postInSession(client, key, [lastRoll(8)]);
    expect(batch.headers.get('content-type')).toBe('text/event-stream');
    const streamed = JSON.parse(/^data: (.*)$/m.exec(await batch.text())![1]!);
    expect(streamed).toMatchObject({ jsonrpc: '2.0', id: 8 });
    expect(withoutRequestId(message.result)).toEqual(withoutRequestId(streamed.result));
  });

  it('reads a body however it comes, whole, compressed or in pieces, and refuses one that is not JSON or too large', async () => {
    const key = await harness.keyWith(['roll:read']);
    const client = await connect(key);
    const zipped = await postInSession(client, key, gzipSync(JSON.stringify(lastRoll(3))), {
      'content-encoding': 'gzip',
    });
    expect(await zipped.json()).toMatchObject({ id: 3, result: { content: [{ type: 'text' }] } });
    const inPieces = await postInPieces(sessionHeaders(client, key), JSON.stringify(lastRoll(4)));
    expect(inPieces).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(inPieces).toContain('"id":4');
    const broken = await postInSession(client, key, '{"jsonrpc":"2.0",');
    expect([broken.status, (await broken.json()).error]).toEqual([400, 'The request body is not valid JSON']);
    const tooLarge = await postInSession(
      client,
      key,
      JSON.stringify({ ...lastRoll(5), padding: 'x'.repeat(1024 * 1024) }),
    );
    expect(tooLarge.status).toBe(413);
  });

  it('what the protocol refuses stays refused: an Accept without event streams, an unknown revision', async () => {
    const key = await harness.keyWith(['roll:read']);
    const client = await connect(key);
    expect((await postInSession(client, key, lastRoll(1), { accept: 'application/json' })).status).toBe(406);
    expect((await postInSession(client, key, lastRoll(2), { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
  });
});

/** A POST to /mcp whose body follows its headers in two pieces, 30 ms apart; what the relay answered. */
async function postInPieces(headers: Record<string, string>, body: string): Promise<string> {
  const url = new URL(harness.baseUrl);
  const head = [
    'POST /mcp HTTP/1.1',
    `Host: ${url.host}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const socket = connectSocket(Number(url.port), url.hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  for (const piece of [head, body.slice(0, 10), body.slice(10)]) {
    socket.write(piece);
    await sleep(30);
  }
  await closed;
  return answer;
}

/** A tool's result with the world's request id left out: every call has its own. */
function withoutRequestId(result: { content: Array<{ text?: string }> }) {
  const { requestId: _requestId, ...answer } = JSON.parse(result.content[0]!.text!);
  return answer;
}

describe('/mcp: resources', () => {
  it('lists the world and the active scene, reads them and an actor by uuid through their routes', async () => {
    const client = await connect(harness.key);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['foundry://world', 'foundry://scene/active']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['foundry://actor/{uuid}']);
    const world = await client.readResource({ uri: 'foundry://world' });
    expect(JSON.parse((world.contents[0] as { text: string }).text).data.world.title).toBeTruthy();
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const actor = await client.readResource({ uri: `foundry://actor/${thorin}` });
    expect(JSON.parse((actor.contents[0] as { text: string }).text).data.name).toBe('Thorin Ironfoot');
  });

  it("a subscribed actor's change comes as a resource update", async () => {
    const client = await connect(harness.key);
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const uri = `foundry://actor/${thorin}`;
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params.uri),
      ),
    );
    await client.subscribeResource({ uri });
    await harness.api(harness.key, 'PUT', '/update', { body: { uuid: thorin, data: { name: 'Thorin Oakenshield' } } });
    expect(await updated).toBe(uri);
    await harness.api(harness.key, 'PUT', '/update', { body: { uuid: thorin, data: { name: 'Thorin Ironfoot' } } });
  });

  it('a key without the scope sees no resource', async () => {
    const client = await connect(await harness.keyWith(['roll:read']));
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });
});

describe('/mcp: errors and revocation', () => {
  it("a bad parameter is a tool error with the relay's 400 text", async () => {
    const client = await connect(harness.key);
    const bad = await callTool(client, 'roll', {});
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe((await harness.post('/roll', {})).body.error);
  });

  it('a call is in Activity under the key name, as MCP', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'], name: 'Claude Code' });
    const client = await connect(key);
    await callTool(client, 'last_roll');
    const entries = (await harness.admin('GET', '/admin/activity')).body.entries;
    expect(entries[0]).toMatchObject({ keyName: 'Claude Code', method: 'MCP', path: 'last_roll', status: 200 });
  });

  it('a key bound to a player acts as that player, exactly as over HTTP', async () => {
    const alice = userIdsByName(harness).Alice!;
    const key = await harness.keyWith(['playlist:control', 'roll:read'], { userId: alice });
    const client = await connect(key, { toolsets: 'play' });
    const playlists = await callTool(client, 'get_playlists');
    expect(playlists.isError).toBe(true);
    const overHttp = await harness.api(key, 'GET', '/playlists');
    expect(overHttp.status).toBe(403);
    expect(playlists.text).toBe(overHttp.body.error);
  });

  it("a key's rate limit holds over /mcp: past it, a tool error says when to come back", async () => {
    const key = await harness.keyWith(['roll:read']);
    const client = await connect(key);
    const { requestsPerMinute } = (await harness.admin('GET', '/admin/settings')).body;
    expect((await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 2 })).status).toBe(200);
    try {
      const answers = [];
      for (let call = 0; call < 3; call += 1) answers.push(await callTool(client, 'last_roll'));
      expect(answers.map((answer) => answer.isError)).toEqual([false, false, true]);
      expect(answers[2]!.text).toMatch(/^Too many API requests/);
    } finally {
      await harness.admin('PATCH', '/admin/settings', { requestsPerMinute });
    }
  });

  it('a revoked key ends the session: the next call fails and a new session is refused', async () => {
    const key = await harness.keyWith(['roll:read']);
    const client = await connect(key);
    expect((await callTool(client, 'last_roll')).isError).toBe(false);
    const id = (await harness.admin('GET', '/admin/keys')).body.keys.at(-1).id;
    expect((await harness.admin('DELETE', `/admin/keys/${id}`)).status).toBeLessThan(300);
    await expect(client.callTool({ name: 'last_roll', arguments: {} })).rejects.toThrow();
    await expect(connect(key)).rejects.toThrow(/Invalid API key|401/);
  });

  it('no key is a 401 that points at the OAuth resource metadata', async () => {
    const answer = await fetch(`${harness.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(
      /resource_metadata=".*\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });
});
