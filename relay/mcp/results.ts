// A call's answer as a model reads it: JSON in a text block, an image as image content, a refusal as a tool error with
// the relay's own words (the same text an HTTP caller gets in `error`).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerFor, UNEXPECTED_ANSWER } from '../errors.ts';
import type { CallAnswer } from '../routing/pipeline.ts';

export function toolResultOf(answer: CallAnswer): CallToolResult {
  switch (answer.kind) {
    case 'world-json':
      if (answer.status !== 200) return toolError(worldError(answer.message));
      // The world's JSON as it came, as HTTP sends it: made into text once, by the world's link.
      return { content: [{ type: 'text', text: answer.text }] };
    case undefined:
    case 'json':
      if ((answer.status ?? 200) >= 400) return toolError(JSON.stringify(answer.body));
      return textResult(answer.body);
    case 'bytes':
      return bytesResult(answer.bytes, headerOf(answer.headers, 'Content-Type') ?? 'application/octet-stream');
    case 'image':
      return bytesResult(answer.bytes, answer.mimeType);
    default:
      return toolError(`This operation answers with ${answer.kind}, which a tool cannot carry`);
  }
}

/** A refusal (the relay's HttpError, or anything unexpected) as a tool error the model can read and act on. */
export function toolErrorOf(error: unknown): CallToolResult {
  const { body } = answerFor(error) ?? UNEXPECTED_ANSWER;
  return toolError([body.error, body.message].filter((text) => typeof text === 'string').join(': '));
}

export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function textResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

function worldError(message: Record<string, unknown>): string {
  return typeof message.error === 'string' ? message.error : 'The world refused the call';
}

function bytesResult(bytes: Uint8Array, mimeType: string): CallToolResult {
  const data = Buffer.from(bytes).toString('base64');
  if (mimeType.startsWith('image/')) return { content: [{ type: 'image', data, mimeType }] };
  return { content: [{ type: 'resource', resource: { uri: 'tabletop-relay://bytes', mimeType, blob: data } }] };
}

function headerOf(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
