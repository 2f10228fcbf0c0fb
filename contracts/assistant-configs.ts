// What the settings UI gives the GM to paste into each AI assistant, written from each client's published config
// format (test/ui/assistant-configs.test.ts checks every one against it). Over HTTP the assistant signs in by itself
// (OAuth, approved in the settings); LM Studio takes a key in a header; Claude Desktop starts the stdio bridge.

export const ASSISTANT_CLIENTS = ['claude-desktop', 'claude-code', 'vscode', 'cursor', 'lm-studio'] as const;
export type AssistantClient = (typeof ASSISTANT_CLIENTS)[number];

/** The name the relay's server goes by in every client's config. */
export const SERVER_NAME = 'tabletop-relay';

export interface AssistantConfig {
  title: string;
  /** Where the JSON goes. */
  file: string;
  json: Record<string, unknown>;
  /** A command that does the same, where the client has one. */
  command?: string;
  /** What else to know, in a line. */
  note: string;
}

/** Each client's config for the relay at `relayUrl` (e.g. http://127.0.0.1:3010); `key` fills LM Studio's header. */
export function assistantConfig(client: AssistantClient, relayUrl: string, key = '<API key>'): AssistantConfig {
  const url = `${relayUrl}/mcp`;
  const port = new URL(relayUrl).port || '80';
  switch (client) {
    case 'claude-desktop':
      return {
        title: 'Claude Desktop',
        file: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
        json: {
          mcpServers: {
            [SERVER_NAME]: { command: 'tabletop-relay', args: ['mcp', '--name', 'Claude Desktop', '--port', port] },
          },
        },
        note: "Claude Desktop starts the stdio bridge: run 'npm link' once in the Tabletop Relay folder so the tabletop-relay command exists. Its first start asks for your approval here.",
      };
    case 'claude-code':
      return {
        title: 'Claude Code',
        file: '.mcp.json in your project, or run the command',
        json: { mcpServers: { [SERVER_NAME]: { type: 'http', url } } },
        command: `claude mcp add --transport http ${SERVER_NAME} ${url}`,
        note: 'Then /mcp in Claude Code signs in: approve the request here.',
      };
    case 'vscode':
      return {
        title: 'VS Code',
        file: '.vscode/mcp.json (or MCP: Open User Configuration)',
        json: { servers: { [SERVER_NAME]: { type: 'http', url } } },
        note: 'VS Code signs in when the server starts: approve the request here.',
      };
    case 'cursor':
      return {
        title: 'Cursor',
        file: '~/.cursor/mcp.json',
        json: { mcpServers: { [SERVER_NAME]: { url } } },
        note: 'Cursor signs in when it connects: approve the request here.',
      };
    case 'lm-studio':
      return {
        title: 'LM Studio',
        file: 'mcp.json (Program tab → Install → Edit mcp.json)',
        json: { mcpServers: { [SERVER_NAME]: { url, headers: { Authorization: `Bearer ${key}` } } } },
        note: 'LM Studio sends a key: make one below for it.',
      };
  }
}
