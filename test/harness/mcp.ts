import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own client on /mcp with a key, as an assistant configured with that key connects. */
export async function mcpClient(
  baseUrl: string,
  key: string,
  options: { toolsets?: string; header?: 'authorization' | 'x-api-key' } = {},
): Promise<Client> {
  const url = new URL('/mcp', baseUrl);
  if (options.toolsets !== undefined) url.searchParams.set('toolsets', options.toolsets);
  const headers: Record<string, string> =
    options.header === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
  const client = new Client({ name: 'relay-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A tool's answer: its text parsed as JSON, or its error text. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; json: any; text: string; result: CallToolResult }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: result.isError === true, json, text, result };
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}
