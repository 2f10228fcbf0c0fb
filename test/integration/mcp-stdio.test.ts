// The stdio bridge (`tabletop-relay mcp`, the compiled CLI) as Claude Desktop starts it, driven by the MCP SDK's own
// stdio client: the first run asks the GM for a key through a key request, the GM approves it through the admin API,
// and the bridge then carries the session to /mcp; the next run uses the key kept in the data directory.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from '../harness/cli.ts';
import { callTool } from '../harness/mcp.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let cli: string;

beforeAll(async () => {
  [harness, cli] = await Promise.all([
    startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 100 } }),
    compiledCli(),
  ]);
});
afterAll(() => harness?.close());

function bridge(): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--port', String(harness.relay.port), '--data-dir', harness.dataDir, '--name', 'Claude Desktop'],
    stderr: 'pipe',
  });
  return { client: new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' }), transport };
}

async function approveWhenAsked(): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    const requests = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
    const request = requests.find((candidate: { appName: string }) => candidate.appName === 'Claude Desktop');
    if (request) {
      expect(request.toolsets).toEqual(['play', 'prepare']);
      const approval = await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {});
      expect(approval.status, approval.text).toBe(200);
      return request.code;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the bridge never asked for a key');
}

describe('tabletop-relay mcp: the stdio bridge', () => {
  it('asks for a key on its first run, keeps it owner-only, and carries tools over stdio', async () => {
    const { client, transport } = bridge();
    let said = '';
    const connected = client.connect(transport);
    transport.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const code = await approveWhenAsked();
    await connected;
    expect(said).toContain(`approve "Claude Desktop" in the settings`);
    expect(said).toContain(code);
    const rolled = await callTool(client, 'roll', { formula: '1d20' });
    expect(rolled.isError, rolled.text).toBe(false);
    expect(rolled.json.data.roll.formula).toBe('1d20');
    await client.close();
    expect(statSync(join(harness.dataDir, 'mcp-bridge-key')).mode & 0o777).toBe(0o600);
    const activity = (await harness.admin('GET', '/admin/activity')).body.entries;
    expect(activity[0]).toMatchObject({ keyName: 'Claude Desktop', method: 'MCP', path: 'roll' });
  });

  it('the next run uses the kept key: no new key request; it ends its session and exits when the assistant quits', async () => {
    const { client, transport } = bridge();
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('roll');
    expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
    const keyId = (await harness.admin('GET', '/admin/keys')).body.keys.find(
      (key: { name: string }) => key.name === 'Claude Desktop',
    ).id;
    expect(harness.relay.services.assistantSessions().get(keyId)).toBe(1);
    // The assistant quits by closing the bridge's input; a bridge that stayed would be killed, its session left open.
    await client.close();
    expect(harness.relay.services.assistantSessions().get(keyId)).toBeUndefined();
  });
});
