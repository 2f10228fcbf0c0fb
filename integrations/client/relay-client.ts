import { maskingLogger, silentLogger, type ClientLogger } from './log.ts';

import { DEFAULT_RELAY_URL } from '../../contracts/integration-packages.ts';

export { DEFAULT_RELAY_URL };
/** No call waits longer than this: a key press must never hang its host. */
export const CALL_TIMEOUT_MS = 2_000;

/** Words that fit on a 72-pixel key. */
export type ShortMessage = 'No key' | 'Not allowed' | 'No world' | 'Relay off' | 'Slow down' | 'Error';

export type FailureKind = 'no-key' | 'not-allowed' | 'no-world' | 'relay-off' | 'slow-down' | 'error';

const SHORT_MESSAGES: Record<FailureKind, ShortMessage> = {
  'no-key': 'No key',
  'not-allowed': 'Not allowed',
  'no-world': 'No world',
  'relay-off': 'Relay off',
  'slow-down': 'Slow down',
  error: 'Error',
};

export interface CallFailure {
  ok: false;
  /** The HTTP status, or 0 when no answer came. */
  status: number;
  kind: FailureKind;
  /** For the key. */
  short: ShortMessage;
  /** For logs and settings pages: what went wrong and what to fix (never the key). */
  detail: string;
}

export interface CallSuccess<T> {
  ok: true;
  status: number;
  body: T;
}

export type CallResult<T = unknown> = CallSuccess<T> | CallFailure;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RelayClientOptions {
  relayUrl?: string;
  apiKey?: string;
  /** The world to reach; none lets the relay choose the one connected world. */
  clientId?: string;
  logger?: ClientLogger;
  timeoutMs?: number;
}

export function failure(kind: FailureKind, status: number, detail: string): CallFailure {
  return { ok: false, status, kind, short: SHORT_MESSAGES[kind], detail };
}

/** The relay's URL without a trailing slash; anything but http(s) falls back to the default. */
export function normalizedRelayUrl(url: string | undefined): string {
  const trimmed = (url ?? '').trim().replace(/\/+$/, '');
  return /^https?:\/\/[^/\s]+/.test(trimmed) ? trimmed : DEFAULT_RELAY_URL;
}

/** One relay, one key: every call async, bounded by the timeout, answered as a result, never thrown. */
export class RelayClient {
  #relayUrl: string;
  #apiKey: string | undefined;
  #clientId: string | undefined;
  readonly timeoutMs: number;
  readonly log: ClientLogger;

  constructor(options: RelayClientOptions = {}) {
    this.#relayUrl = normalizedRelayUrl(options.relayUrl);
    this.#apiKey = options.apiKey || undefined;
    this.#clientId = options.clientId || undefined;
    this.timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    this.log = maskingLogger(options.logger ?? silentLogger, () => [this.#apiKey]);
  }

  get relayUrl(): string {
    return this.#relayUrl;
  }

  get clientId(): string | undefined {
    return this.#clientId;
  }

  get hasKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** The key itself, for the host's settings store only: never log it. */
  get apiKey(): string | undefined {
    return this.#apiKey;
  }

  configure(options: { relayUrl?: string; apiKey?: string; clientId?: string }): void {
    if ('relayUrl' in options) this.#relayUrl = normalizedRelayUrl(options.relayUrl);
    if ('apiKey' in options) this.#apiKey = options.apiKey || undefined;
    if ('clientId' in options) this.#clientId = options.clientId || undefined;
  }

  /** A URL on the relay, with the world's clientId added when one is set. */
  url(path: string, query: Record<string, string | number | boolean | undefined> = {}): string {
    const url = new URL(path, `${this.#relayUrl}/`);
    for (const [name, value] of Object.entries({ clientId: this.#clientId, ...query }))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** The headers a keyed request carries. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.#apiKey ? { 'x-api-key': this.#apiKey } : {}), ...extra };
  }

  /**
   * One call to the relay. A GET's or DELETE's fields go in the query, a POST's or PUT's in a JSON body; the world's
   * clientId is added to either when set. Answers within the timeout, whatever happens.
   */
  async call<T = unknown>(
    method: HttpMethod,
    path: string,
    body: Record<string, unknown> = {},
  ): Promise<CallResult<T>> {
    if (!this.#apiKey) return failure('no-key', 0, 'No API key is set: approve the key request or paste a key');
    const inQuery = method === 'GET' || method === 'DELETE';
    const fields = this.#clientId ? { clientId: this.#clientId, ...body } : body;
    const url = inQuery ? this.url(path, stringFields(fields)) : this.url(path, { clientId: undefined });
    try {
      const response = await fetch(url, {
        method,
        headers: this.headers(inQuery ? {} : { 'content-type': 'application/json' }),
        body: inQuery ? undefined : JSON.stringify(fields),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const answer = await readJson(response);
      if (response.ok) return { ok: true, status: response.status, body: answer as T };
      const result = failureOf(response, answer);
      this.log.warn(`${method} ${path}: ${result.detail}`);
      return result;
    } catch (error) {
      const result = unreachable(error, this.#relayUrl, this.timeoutMs);
      this.log.warn(`${method} ${path}: ${result.detail}`);
      return result;
    }
  }
}

function stringFields(fields: Record<string, unknown>): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      value === undefined ? undefined : typeof value === 'object' ? JSON.stringify(value) : String(value),
    ]),
  );
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { error: text };
  }
}

function errorText(answer: unknown): string {
  const error = (answer as { error?: unknown } | null)?.error;
  return typeof error === 'string' && error ? error : 'no message';
}

/** The failure an HTTP error answer means, named by what the user must do. */
export function failureOf(response: Response, answer: unknown): CallFailure {
  const status = response.status;
  const message = errorText(answer);
  if (status === 401) return failure('no-key', status, `The relay does not know this API key (${message})`);
  if (status === 403) {
    const scope = response.headers.get('x-required-scope');
    const lacking = scope ? `the key lacks the scope ${scope}` : message;
    return failure('not-allowed', status, `Not allowed: ${lacking}`);
  }
  if (status === 429) {
    const wait = response.headers.get('retry-after');
    return failure('slow-down', status, `Too many calls${wait ? `, retry in ${wait} s` : ''}: ${message}`);
  }
  if ((status === 404 && /client/i.test(message)) || (status === 503 && /world/i.test(message)))
    return failure('no-world', status, `No Foundry world is connected: ${message}`);
  return failure('error', status, `${status}: ${message}`);
}

function unreachable(error: unknown, relayUrl: string, timeoutMs: number): CallFailure {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return failure('relay-off', 0, `The relay at ${relayUrl} did not answer within ${timeoutMs} ms`);
  const cause = (error as { cause?: { code?: string } } | null)?.cause?.code ?? String(error);
  return failure('relay-off', 0, `The relay at ${relayUrl} is not running (${cause})`);
}
