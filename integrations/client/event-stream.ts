import { failure, failureOf, type CallFailure, type RelayClient } from './relay-client.ts';

export interface RelayEvent {
  /** The SSE event name: `connected`, `combat-turn`, `actor-update`, `roll`, a hook's name… */
  name: string;
  data: unknown;
}

export type StreamState = { open: true } | { open: false; failure: CallFailure };

export interface EventStreamOptions {
  client: RelayClient;
  /** A stream route, e.g. /encounters/subscribe. */
  path: string;
  query?: Record<string, string>;
  onEvent: (event: RelayEvent) => void;
  onState?: (state: StreamState) => void;
  /** The first wait before reconnecting; it doubles up to maxDelayMs and starts again once a stream opens. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
/** The relay sends a comment every 15 s: a stream silent for longer than this is dead. */
const SILENCE_LIMIT_MS = 40_000;

/**
 * One Server-Sent Events stream of the relay that reconnects by itself (1 s, 2 s, 4 s… up to 30 s) until stopped. It
 * never throws into its host: failures become `onState` calls, and a listener's own exception is logged.
 */
export class RelayEventStream {
  readonly #options: EventStreamOptions;
  #stopped = true;
  #abort: AbortController | undefined;
  #wake: (() => void) | undefined;
  #open = false;
  /** Set while this stream itself cut its connection to make a new one: no failure to tell. */
  #cutOnPurpose = false;

  constructor(options: EventStreamOptions) {
    this.#options = options;
  }

  get open(): boolean {
    return this.#open;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    this.#abort?.abort();
    this.#wake?.();
  }

  /** Connects again at once instead of waiting out the backoff (after the key or the relay's address changed). */
  reconnectNow(): void {
    if (this.#abort && !this.#abort.signal.aborted) this.#cutOnPurpose = true;
    this.#abort?.abort();
    this.#wake?.();
  }

  async #run(): Promise<void> {
    const { minDelayMs = RECONNECT_MIN_MS, maxDelayMs = RECONNECT_MAX_MS } = this.#options;
    let delay = minDelayMs;
    while (!this.#stopped) {
      const opened = await this.#connectOnce();
      if (this.#stopped) break;
      if (opened) delay = minDelayMs;
      await this.#sleep(delay);
      delay = Math.min(delay * 2, maxDelayMs);
    }
    this.#setClosed(failure('error', 0, 'Stopped'), false);
  }

  /** One connection, until it ends; true when it opened. */
  async #connectOnce(): Promise<boolean> {
    const { client, path, query } = this.#options;
    if (!client.hasKey) {
      this.#setClosed(failure('no-key', 0, 'No API key is set'));
      return false;
    }
    const abort = new AbortController();
    this.#abort = abort;
    this.#cutOnPurpose = false;
    const connectTimer = setTimeout(() => abort.abort(new DOMException('timeout', 'TimeoutError')), client.timeoutMs);
    try {
      const response = await fetch(client.url(path, query), {
        headers: client.headers({ accept: 'text/event-stream' }),
        signal: abort.signal,
      });
      clearTimeout(connectTimer);
      if (!response.ok || !response.body) {
        const text = await response.text();
        this.#setClosed(failureOf(response, parsed(text)));
        return false;
      }
      this.#setOpen();
      await this.#read(response.body, abort);
      if (this.#cutOnPurpose || this.#stopped) this.#open = false;
      else this.#setClosed(failure('relay-off', 0, `The event stream ${path} ended`));
      return true;
    } catch (error) {
      clearTimeout(connectTimer);
      if (this.#cutOnPurpose || this.#stopped) return false;
      const name = (error as { name?: string }).name;
      const detail = name === 'TimeoutError' ? 'did not answer in time' : 'is not running';
      const wasOpen = this.#open;
      this.#setClosed(failure('relay-off', 0, `The relay at ${client.relayUrl} ${detail} (${path})`));
      return wasOpen;
    } finally {
      clearTimeout(connectTimer);
    }
  }

  async #read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let silence = setTimeout(() => abort.abort(), SILENCE_LIMIT_MS);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), SILENCE_LIMIT_MS);
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          this.#dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted (stop, silence, reconnect) or cut off: the caller reconnects.
    } finally {
      clearTimeout(silence);
    }
  }

  #dispatch(block: string): void {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) return;
    this.#deliver({ name, data: parsed(data.join('\n')) });
  }

  #deliver(event: RelayEvent): void {
    try {
      this.#options.onEvent(event);
    } catch (error) {
      this.#options.client.log.warn(`A listener of ${this.#options.path} failed on ${event.name}: ${String(error)}`);
    }
  }

  #setOpen(): void {
    this.#open = true;
    this.#notify({ open: true });
  }

  #setClosed(reason: CallFailure, notify = true): void {
    const changed = this.#open;
    this.#open = false;
    if (notify || changed) this.#notify({ open: false, failure: reason });
  }

  #notify(state: StreamState): void {
    try {
      this.#options.onState?.(state);
    } catch (error) {
      this.#options.client.log.warn(`A listener of ${this.#options.path}'s state failed: ${String(error)}`);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { error: text };
  }
}
