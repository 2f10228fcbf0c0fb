// A session's `tools/call`, the request an assistant sends most, answered as JSON without the SDK's per-request stream:
// it runs the same `callTool` the SDK's handler does (assistant-server.ts), so the answer is the one the SDK would give.
// Any other request, and any that is not plainly one tool call (a batch, an Accept without JSON, a revision the SDK does
// not know), goes through the SDK, which answers or refuses it as the protocol says.
import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { fieldsOf } from '../objects.ts';
import type { Fields } from '../routing/call.ts';

export interface SessionToolCall {
  id: string | number;
  name: string;
  arguments: Fields;
}

/** The tool call a session's POST carries, when it is one JSON-RPC `tools/call` request the SDK would take as it is. */
export function sessionToolCallOf(request: IncomingMessage, body: unknown): SessionToolCall | undefined {
  if (!takesJsonAnswer(request)) return undefined;
  const message = fieldsOf(body);
  if (message?.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  const { id } = message;
  const params = fieldsOf(message.params);
  const args = params?.arguments === undefined ? {} : fieldsOf(params.arguments);
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof params?.name !== 'string' || !args) return undefined;
  return { id, name: params.name, arguments: args };
}

/** What the SDK's transport asks of a request before it takes its message: the client accepts JSON, sends JSON. */
function takesJsonAnswer(request: IncomingMessage): boolean {
  const accept = request.headers.accept ?? '';
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const version = request.headers['mcp-protocol-version'];
  return (
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    mediaType === 'application/json' &&
    (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version)))
  );
}
