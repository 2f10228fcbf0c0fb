import type { ServerResponse } from 'node:http';

/** Writes a JSON answer with Node's own response methods: the hot path needs none of Express's content negotiation. */
export function sendJsonText(response: ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', Buffer.byteLength(text));
  response.end(text);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendJsonText(response, status, JSON.stringify(body));
}
