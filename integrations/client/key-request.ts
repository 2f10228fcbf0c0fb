import { failure, failureOf, normalizedRelayUrl, CALL_TIMEOUT_MS, type CallFailure } from './relay-client.ts';
import { maskingLogger, silentLogger, type ClientLogger } from './log.ts';

export interface KeyRequestOptions {
  relayUrl?: string;
  /** The tool's name, shown to the GM and given to the key. */
  appName: string;
  appDescription?: string;
  appUrl?: string;
  /** Exactly the scopes the tool needs: the GM sees them and may grant fewer. */
  scopes?: readonly string[];
  /** An AI assistant's request instead: the toolsets it wants over /mcp (play, prepare…); the GM picks among them. */
  toolsets?: readonly string[];
  /** The worlds the key should reach; none asks for every world. */
  clientIds?: readonly string[];
  logger?: ClientLogger;
  /** Stops waiting (the host shuts down, or the user changed the relay's address). */
  signal?: AbortSignal;
  /** Called once the relay took the request: show the code, and where the GM approves it. */
  onPending?: (pending: PendingKeyRequest) => void;
  timeoutMs?: number;
}

export interface PendingKeyRequest {
  /** The short code the GM checks against the one Tabletop Relay shows, e.g. K7P-4QX. */
  code: string;
  /** The settings UI page where the GM approves it (on the relay's computer). */
  approvalUrl: string;
  expiresAt: Date;
}

export type KeyRequestOutcome =
  | { status: 'approved'; apiKey: string; scopes: string[]; clientIds: string[]; userId?: string }
  | { status: 'denied' }
  | { status: 'expired' }
  | { status: 'cancelled' }
  | { status: 'failed'; failure: CallFailure };

interface RequestAnswer {
  code: string;
  pollUrl: string;
  interval: number;
  expiresAt: string;
  approvalUrl: string;
}

/** How much longer to wait after the relay said "too fast" (429). */
const SLOWER_BY_MS = 1_000;

/**
 * The key-request flow: asks the relay for a key with these scopes or toolsets (POST /auth/key-request), tells `onPending` the
 * code, then polls the request's private URL every `interval` seconds until the GM approves or denies it, it expires
 * or `signal` aborts. Every request has the call timeout; a relay that stops answering meanwhile is asked again
 * until the request expires. Never throws; the key and the poll URL never reach the logger.
 */
export async function requestKey(options: KeyRequestOptions): Promise<KeyRequestOutcome> {
  const relayUrl = normalizedRelayUrl(options.relayUrl);
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const log = maskingLogger(options.logger ?? silentLogger, () => []);
  const asked = await send(`${relayUrl}/auth/key-request`, timeoutMs, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      appName: options.appName,
      appDescription: options.appDescription,
      appUrl: options.appUrl,
      scopes: options.scopes ?? [],
      toolsets: options.toolsets,
      clientIds: options.clientIds ?? [],
    }),
  });
  if (!asked.ok) {
    log.warn(`Key request refused: ${asked.failure.detail}`);
    return { status: 'failed', failure: asked.failure };
  }
  const request = asked.body as RequestAnswer;
  const expiresAt = new Date(request.expiresAt);
  log.info(`Key request ${request.code} waits for the GM's approval in Tabletop Relay`);
  try {
    options.onPending?.({ code: request.code, approvalUrl: request.approvalUrl, expiresAt });
  } catch (error) {
    log.warn(`The key request's listener failed: ${String(error)}`);
  }
  return poll(request, expiresAt, timeoutMs, log, options.signal);
}

async function poll(
  request: RequestAnswer,
  expiresAt: Date,
  timeoutMs: number,
  log: ClientLogger,
  signal: AbortSignal | undefined,
): Promise<KeyRequestOutcome> {
  let intervalMs = Math.max(0.1, request.interval) * 1000;
  let waitMs = intervalMs;
  for (;;) {
    if (!(await wait(waitMs, signal))) return { status: 'cancelled' };
    if (Date.now() > expiresAt.getTime() + intervalMs) return { status: 'expired' };
    waitMs = intervalMs;
    const answer = await send(request.pollUrl, timeoutMs, {});
    if (!answer.ok) {
      if (answer.status === 410) return { status: 'expired' };
      if (answer.failure.kind === 'slow-down') {
        intervalMs += SLOWER_BY_MS;
        waitMs = Math.max(intervalMs, answer.retryAfterMs);
        continue;
      }
      if (answer.failure.kind === 'relay-off') continue;
      log.warn(`Key request ${request.code}: ${answer.failure.detail}`);
      return { status: 'failed', failure: answer.failure };
    }
    const body = answer.body as {
      status?: string;
      apiKey?: string;
      scopes?: string[];
      clientIds?: string[];
      userId?: string;
    };
    if (body.status === 'approved' && typeof body.apiKey === 'string') {
      log.info(`Key request ${request.code} approved with the scopes ${(body.scopes ?? []).join(', ')}`);
      return {
        status: 'approved',
        apiKey: body.apiKey,
        scopes: body.scopes ?? [],
        clientIds: body.clientIds ?? [],
        userId: body.userId,
      };
    }
    if (body.status === 'denied') return { status: 'denied' };
    if (body.status === 'expired') return { status: 'expired' };
  }
}

type Sent = { ok: true; body: unknown } | { ok: false; status: number; failure: CallFailure; retryAfterMs: number };

async function send(url: string, timeoutMs: number, init: RequestInit): Promise<Sent> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { error: text };
    }
    if (response.ok) return { ok: true, body };
    const retryAfterMs = Number(response.headers.get('retry-after') ?? 0) * 1000 || 0;
    return { ok: false, status: response.status, failure: failureOf(response, body), retryAfterMs };
  } catch {
    return { ok: false, status: 0, failure: failure('relay-off', 0, 'The relay did not answer'), retryAfterMs: 0 };
  }
}

/** Waits `ms`; false when `signal` aborted first. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      resolve(false);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
