// `/mcp`: the Model Context Protocol over Streamable HTTP for AI assistants, in both the current revision (2026-07-28:
// each request whole, no session) and the earlier ones today's clients speak (2025: sessions, Mcp-Session-Id). Each
// request is checked as any API call is (Host before it reaches here, then Origin, the key, pause); a session is bound
// to the key that opened it, and a key's change or revocation ends its sessions.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { refusedCall } from '../activity/activity-log.ts';
import { answerFor, HttpError, UNEXPECTED_ANSWER } from '../errors.ts';
import { jsonBodyAtHand, largestBodyFor, readJsonBody } from '../http/body.ts';
import { corsAllows } from '../gate/request-gate.ts';
import { httpCallContext, writeJson } from '../http/write-answer.ts';
import { presentedKey } from '../routing/access.ts';
import type { Route } from '../routing/route.ts';
import type { RelayServices } from '../services.ts';
import { assistantCallOf, assistantOf, authInfoOf, type Assistant } from './assistant.ts';
import { requestServer, sessionServer, type AssistantSession } from './assistant-server.ts';
import { offeredToolsets, toolsFor, toolsOf, type RouteTool } from './tools.ts';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from './paths.ts';
import { sessionToolCallOf, type SessionToolCall } from './session-tool-calls.ts';

/** How many sessions one key may hold: an assistant needs one, a few restarts leave a few. */
const MAX_SESSIONS_PER_KEY = 16;

interface Session extends AssistantSession {
  keyId: string;
  assistant: Assistant;
  transport: WebStandardStreamableHTTPServerTransport;
}

/** One request to a session, as the SDK's transport takes it: its body read already. */
interface SessionRequest {
  webRequest: Request;
  body: unknown;
  authInfo: AuthInfo;
}

export interface McpEndpointOptions {
  routes: readonly Route[];
  uploadLimitBytes?: number;
}

export class McpEndpoint {
  private readonly services: RelayServices;
  private readonly routes: readonly Route[];
  private readonly tools: RouteTool[];
  private readonly uploadLimitBytes: number | undefined;
  private readonly sessions = new Map<string, Session>();
  /** The largest body each key may send (an upload's only with file:write), as over HTTP; a changed key is a new record. */
  private readonly bodyLimits = new WeakMap<ApiKeyRecord, number>();
  /** The current revision's requests: one server per request, for the key and toolsets of that request. */
  private readonly current: McpHttpHandler;

  constructor(services: RelayServices, options: McpEndpointOptions) {
    this.services = services;
    this.routes = options.routes;
    this.tools = toolsOf(options.routes);
    this.uploadLimitBytes = options.uploadLimitBytes;
    this.current = createMcpHandler(
      ({ authInfo }) => {
        const assistantCall = assistantCallOf(authInfo);
        const key = services.keys.verify(assistantCall.presentedKey)!;
        return requestServer(this.assistantFor(key, assistantCall.toolsets));
      },
      { legacy: 'reject' },
    );
  }

  /** Answers one HTTP request to /mcp; `query` is its query string (`toolsets=play,files`). */
  handle(request: IncomingMessage, response: ServerResponse, query: string): void {
    this.serve(request, response, new URLSearchParams(query)).catch((error: unknown) => {
      const answer = answerFor(error);
      if (!answer) this.services.log.error('Unexpected error on /mcp:', error);
      if (response.headersSent) return void response.destroy();
      if (error instanceof HttpError)
        for (const [name, value] of Object.entries(error.headers ?? {})) response.setHeader(name, value);
      writeJson(response, (answer ?? UNEXPECTED_ANSWER).status, (answer ?? UNEXPECTED_ANSWER).body);
    });
  }

  /** Ends every session of this key: it was revoked, rotated or changed. */
  endSessionsOf(keyId: string): void {
    for (const [id, session] of this.sessions) if (session.keyId === keyId) this.endSession(id);
  }

  close(): void {
    for (const id of [...this.sessions.keys()]) this.endSession(id);
    void this.current.close();
  }

  /** The sessions open now, per key id (the settings list connected assistants by them). */
  sessionsPerKey(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { keyId } of this.sessions.values()) counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
    return counts;
  }

  private async serve(request: IncomingMessage, response: ServerResponse, query: URLSearchParams): Promise<void> {
    const call = httpCallContext(request);
    this.refuseOtherPages(request, call.relayOrigin);
    const presented = presentedKey(request.headers);
    const key = this.verifiedKey(presented, call.relayOrigin);
    if (this.services.network.paused())
      throw new HttpError(503, 'Tabletop Relay is paused; resume it from the tray menu');
    const toolsets = query.get('toolsets') ?? undefined;
    // An unknown toolset is a 400 that names it, before either revision's server is made.
    offeredToolsets(key, toolsets);
    const authInfo = authInfoOf(key, { presentedKey: presented!, call, toolsets });
    // A body that came whole with the headers, as nearly all do, is read without waiting a turn.
    const atHand = request.method === 'POST' ? jsonBodyAtHand(request, this.bodyLimitOf(key)) : { body: undefined };
    const body = atHand ? atHand.body : await readJsonBody(request, this.bodyLimitOf(key));
    // Only the earlier revisions have sessions: a request in one needs no telling apart.
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') return this.inSession(sessionId, key, { request, body, authInfo }, response);
    const webRequest = webRequestOf(request);
    if (!(await isLegacyRequest(webRequest, body)))
      return writeResponse(await this.current.fetch(webRequest, { authInfo, parsedBody: body }), request, response);
    if (request.method !== 'POST')
      throw new HttpError(405, 'Open a session first: POST an initialize request to /mcp', {}, { Allow: 'POST' });
    if (!isInitializeRequest(body))
      throw new HttpError(400, 'No session: the first request to /mcp must be initialize (without Mcp-Session-Id)');
    await this.openSession(key, toolsets, { webRequest, body, authInfo }, response);
  }

  /** What a key may call in the toolsets it asked for (or was approved with): worked out once per session or request. */
  private assistantFor(key: ApiKeyRecord, askedToolsets: string | undefined) {
    return assistantOf(this.services, this.routes, key, toolsFor(this.tools, key, offeredToolsets(key, askedToolsets)));
  }

  private async inSession(
    sessionId: string,
    key: ApiKeyRecord,
    { request, body, authInfo }: { request: IncomingMessage; body: unknown; authInfo: AuthInfo },
    response: ServerResponse,
  ): Promise<void> {
    const session = this.sessions.get(sessionId);
    // Another key's session is as unknown as an ended one: a key never reaches another's session.
    if (!session || session.keyId !== key.id)
      throw new HttpError(
        404,
        'Unknown MCP session: it ended (its key changed, or the relay restarted); initialize again',
      );
    const toolCall = sessionToolCallOf(request, body);
    if (toolCall) return answerToolCall(session, sessionId, toolCall, authInfo, response);
    await answerWith(session.transport, { webRequest: webRequestOf(request), body, authInfo }, response);
  }

  private async openSession(
    key: ApiKeyRecord,
    askedToolsets: string | undefined,
    given: SessionRequest,
    response: ServerResponse,
  ): Promise<void> {
    const assistant = this.assistantFor(key, askedToolsets);
    const server = sessionServer(assistant);
    if ((this.sessionsPerKey().get(key.id) ?? 0) >= MAX_SESSIONS_PER_KEY) this.endOldestSessionOf(key.id);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(24).toString('base64url'),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { ...server, assistant, keyId: key.id, transport });
      },
      onsessionclosed: (id) => this.endSession(id),
    });
    await server.server.connect(transport);
    await answerWith(transport, given, response);
  }

  private bodyLimitOf(key: ApiKeyRecord): number {
    let limit = this.bodyLimits.get(key);
    if (limit === undefined) {
      limit = largestBodyFor(key.scopes, this.routes, this.uploadLimitBytes);
      this.bodyLimits.set(key, limit);
    }
    return limit;
  }

  private endOldestSessionOf(keyId: string): void {
    for (const [id, session] of this.sessions) {
      if (session.keyId !== keyId) continue;
      this.endSession(id);
      return;
    }
  }

  private endSession(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.end();
    void session.server.close().catch(() => undefined);
  }

  /**
   * The key as presented, checked: none or an unknown one is a 401 that says how to get one, with the OAuth
   * resource metadata an MCP client follows to ask the GM for one (RFC 9728).
   */
  private verifiedKey(presented: string | undefined, relayOrigin: string): ApiKeyRecord {
    const challenge = {
      'WWW-Authenticate': `Bearer resource_metadata="${relayOrigin}${PROTECTED_RESOURCE_PATH}"`,
    };
    if (presented === undefined) {
      throw new HttpError(
        401,
        'API key is required: send it as Authorization: Bearer <key> or x-api-key, or sign in through your assistant (OAuth)',
        {},
        challenge,
      );
    }
    const key = this.services.keys.verify(presented);
    if (key) return key;
    this.services.activity.record(
      refusedCall(
        { keyName: null, keyProblem: 'unknown' },
        'MCP',
        MCP_PATH,
        new HttpError(401, 'Invalid API key'),
        performance.now(),
      ),
    );
    throw new HttpError(401, 'Invalid API key: it was revoked or replaced; connect the assistant again', {}, challenge);
  }

  /** A web page may drive /mcp only from an origin the GM allowed, as for /ws/api (DNS rebinding, other tabs). */
  private refuseOtherPages(request: IncomingMessage, relayOrigin: string): void {
    const origin = request.headers.origin;
    if (origin === undefined || origin === relayOrigin) return;
    if (corsAllows(this.services.settings.get().corsOrigins, origin)) return;
    throw new HttpError(
      403,
      `A page from ${origin} may not use /mcp: add its origin to the allowed origins in Tabletop Relay's settings (Access)`,
    );
  }
}

/** The headers the SDK's transports read besides MCP's own; the relay has read the rest (key, origin, body) already. */
const SDK_HEADERS = ['accept', 'content-type', 'last-event-id'];
const MCP_HEADER = /^(x-)?mcp-/;

/** The request as the SDK takes it (web-standard), without its body, which the relay read and parsed once. */
function webRequestOf(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string' && (SDK_HEADERS.includes(name) || MCP_HEADER.test(name))) headers.set(name, value);
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url ?? MCP_PATH}`, {
    method: request.method,
    headers,
  });
}

/** A session's tool call, answered as the SDK's handler would, as one JSON-RPC answer in one write. */
async function answerToolCall(
  session: Session,
  sessionId: string,
  toolCall: SessionToolCall,
  authInfo: AuthInfo,
  response: ServerResponse,
): Promise<void> {
  const result = await session.assistant.callTool(toolCall.name, toolCall.arguments, assistantCallOf(authInfo));
  response.setHeader('Mcp-Session-Id', sessionId);
  writeJson(response, 200, { jsonrpc: '2.0', id: toolCall.id, result });
}

/** Hands one request of a session to the SDK's transport, and writes its answer. */
async function answerWith(
  transport: WebStandardStreamableHTTPServerTransport,
  given: SessionRequest,
  response: ServerResponse,
): Promise<void> {
  const answer = await transport.handleRequest(given.webRequest, { authInfo: given.authInfo, parsedBody: given.body });
  await writeResponse(answer, given.webRequest, response);
}

/**
 * Writes the SDK's answer. A POST's answer ends with its result, which a tool sends alone: it goes out in one write,
 * headers included. A GET's stream (a session's resource updates) stays open, each event written as it comes.
 */
async function writeResponse(answer: Response, request: { method?: string }, response: ServerResponse): Promise<void> {
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  if (!answer.body) return void response.end();
  if (request.method !== 'GET') return void response.end(await answer.text());
  response.flushHeaders();
  const reader = answer.body.getReader();
  response.once('close', () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) response.write(chunk.value);
  response.end();
}
