// Each AI assistant's config, as the AI assistants page gives it, against that client's published format: the shapes
// below are written from each client's documentation (the keys it reads, the transport names it knows).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ASSISTANT_CLIENTS, assistantConfig, SERVER_NAME } from '../../contracts/assistant-configs.ts';

const RELAY = 'http://127.0.0.1:3010';
const MCP_URL = `${RELAY}/mcp`;

/** Claude Desktop's claude_desktop_config.json: local servers it starts, `command` with `args` (and `env`). */
const claudeDesktop = z.strictObject({
  mcpServers: z.record(
    z.string(),
    z.strictObject({
      command: z.string().min(1),
      args: z.array(z.string()),
      env: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
/** Claude Code's .mcp.json: `type` stdio, sse or http; a remote one has `url` (and `headers`). */
const claudeCode = z.strictObject({
  mcpServers: z.record(
    z.string(),
    z.strictObject({
      type: z.enum(['http', 'sse']),
      url: z.url(),
      headers: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
/** VS Code's mcp.json: `servers`, each with `type` http or sse and its `url` (and `headers`). */
const vscode = z.strictObject({
  servers: z.record(
    z.string(),
    z.strictObject({
      type: z.enum(['http', 'sse']),
      url: z.url(),
      headers: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
/** Cursor's mcp.json, which LM Studio follows too: `mcpServers`, a remote one by its `url` (and `headers`). */
const cursor = z.strictObject({
  mcpServers: z.record(
    z.string(),
    z.strictObject({ url: z.url(), headers: z.record(z.string(), z.string()).optional() }),
  ),
});

const FORMATS = {
  'claude-desktop': claudeDesktop,
  'claude-code': claudeCode,
  vscode,
  cursor,
  'lm-studio': cursor,
} as const;

describe("AI assistants' configs", () => {
  it.each(ASSISTANT_CLIENTS)("%s: the config is in its client's format and reaches this relay", (client) => {
    const { json } = assistantConfig(client, RELAY, 'ttr_example');
    expect(() => FORMATS[client].parse(json)).not.toThrow();
    const servers = (json.mcpServers ?? json.servers) as Record<string, Record<string, unknown>>;
    const server = servers[SERVER_NAME]!;
    if (client === 'claude-desktop') expect(server.args).toEqual(['mcp', '--name', 'Claude Desktop', '--port', '3010']);
    else expect(server.url).toBe(MCP_URL);
  });

  it('LM Studio sends the key as a Bearer token, the way /mcp takes it', () => {
    const { json } = assistantConfig('lm-studio', RELAY, 'ttr_example');
    expect(json).toEqual({
      mcpServers: { [SERVER_NAME]: { url: MCP_URL, headers: { Authorization: 'Bearer ttr_example' } } },
    });
  });

  it("Claude Code's command adds the same server over HTTP", () => {
    expect(assistantConfig('claude-code', RELAY).command).toBe(
      `claude mcp add --transport http ${SERVER_NAME} ${MCP_URL}`,
    );
  });
});
