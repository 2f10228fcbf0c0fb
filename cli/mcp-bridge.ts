// `tabletop-relay mcp`: the relay's /mcp over standard input and output, for AI assistants that only start local
// programs (Claude Desktop). The first run asks the GM for a key through a key request and keeps it in the relay's data
// directory (owner-only, as the admin token); every message then goes to /mcp with it, and every answer comes back.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOLSETS } from '../contracts/assistants.ts';
import { requestKey } from '../integrations/client/key-request.ts';

/** The file in the relay's data directory that holds the bridge's key. */
export const BRIDGE_KEY_FILE = 'mcp-bridge-key';

export interface BridgeOptions {
  /** The relay, e.g. http://127.0.0.1:3010. */
  baseUrl: string;
  dataDir: string;
  /** How the assistant is named on the approval card and the key, e.g. "Claude Desktop". */
  name: string;
  /** The toolsets asked for (comma-separated), or the default ones. */
  toolsets: string | undefined;
  /** Where the bridge talks to its user: standard error, as standard output carries MCP. */
  say(line: string): void;
}

interface StoredKey {
  key: string;
  baseUrl: string;
}

function storedKey(options: BridgeOptions): string | undefined {
  try {
    const stored = JSON.parse(readFileSync(join(options.dataDir, BRIDGE_KEY_FILE), 'utf8')) as StoredKey;
    return stored.baseUrl === options.baseUrl && typeof stored.key === 'string' ? stored.key : undefined;
  } catch {
    return undefined;
  }
}

function storeKey(options: BridgeOptions, key: string): void {
  const path = join(options.dataDir, BRIDGE_KEY_FILE);
  writeFileSync(path, JSON.stringify({ key, baseUrl: options.baseUrl } satisfies StoredKey), { mode: 0o600 });
  chmodSync(path, 0o600);
}

function forgetKey(options: BridgeOptions): void {
  rmSync(join(options.dataDir, BRIDGE_KEY_FILE), { force: true });
}

/** Asks the GM for a key with a key request, and waits until the GM decided. */
async function askForKey(options: BridgeOptions): Promise<string> {
  const outcome = await requestKey({
    relayUrl: options.baseUrl,
    appName: options.name,
    appDescription: 'An AI assistant on this computer, through the stdio bridge (tabletop-relay mcp)',
    toolsets: options.toolsets?.split(',').map((name) => name.trim()) ?? DEFAULT_TOOLSETS,
    timeoutMs: 10_000,
    onPending: ({ code }) =>
      options.say(
        `Tabletop Relay: approve "${options.name}" in the settings (AI assistants, or Keys); its code is ${code}`,
      ),
  });
  if (outcome.status === 'approved') return outcome.apiKey;
  if (outcome.status !== 'failed') throw new Error(`The key request ended: ${outcome.status}`);
  if (outcome.failure.kind === 'relay-off')
    throw new Error(
      `No Tabletop Relay answers at ${options.baseUrl}: start it (the tray app, or npm run serve), or give its port with --port`,
    );
  throw new Error(`The relay refused the key request: ${outcome.failure.detail}`);
}

/** Runs the bridge until the assistant closes its standard input. */
export async function runBridge(options: BridgeOptions): Promise<void> {
  const local = new StdioServerTransport();
  const waiting: JSONRPCMessage[] = [];
  let remote: StreamableHTTPClientTransport | undefined;
  local.onmessage = (message) => {
    if (remote) void remote.send(message).catch((error: unknown) => options.say(describe(error)));
    else waiting.push(message);
  };
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
  });
  // The SDK's transport never hears its input end: an assistant that quits closes our standard input, and only that.
  process.stdin.once('end', () => void local.close());
  await local.start();
  const key = storedKey(options) ?? (await askForKey(options));
  storeKey(options, key);
  const url = new URL('/mcp', options.baseUrl);
  if (options.toolsets) url.searchParams.set('toolsets', options.toolsets);
  remote = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  remote.onmessage = (message) => void local.send(message);
  remote.onerror = (error) => {
    if (/\b401\b/.test(describe(error))) {
      forgetKey(options);
      options.say('Tabletop Relay: the key was revoked; the next start asks the GM for a new one');
    } else options.say(describe(error));
  };
  await remote.start();
  for (const message of waiting.splice(0)) await remote.send(message);
  await closed;
  await remote.terminateSession().catch(() => undefined);
  await remote.close();
}

function describe(error: unknown): string {
  return `Tabletop Relay: ${error instanceof Error ? error.message : String(error)}`;
}
