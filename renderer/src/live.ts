import {
  admin,
  ApiError,
  type ActivityEntry,
  type ChangeView,
  type PairRequest,
  type RelayStatus,
} from './admin-api.ts';
import type { ConfirmationView, KeyRequestView, LiveCounters, LiveStatus } from '../../contracts/admin-api.ts';

export type LiveConnection = 'connecting' | 'live' | 'offline';

/** What the admin feed says of the change journal: a change recorded or settled, or one let go. */
export type JournalEvent = { change: ChangeView } | { dropped: string };

export interface LiveHandlers {
  status(status: RelayStatus): void;
  /** The calls of one `activity` event, newest first, and how many calls it left out (a flood of calls). */
  activity(entries: ActivityEntry[], skipped: number): void;
  /** A change of the journal as it was recorded or came to its outcome, or the id of one it let go. */
  journal(event: JournalEvent): void;
  connection(state: LiveConnection): void;
}

const RETRY_MS = 2000;
const POLL_MS = 2000;

interface ServerEvent {
  event: string;
  data: string;
}

/** Splits a Server-Sent Events text into events; returns the unfinished rest. */
export function parseEvents(buffer: string): { events: ServerEvent[]; rest: string } {
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: ServerEvent[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/** Requests waiting for the GM, by code: any status but pending takes one off the list. */
class WaitingList<T extends { code: string; status: string }> {
  private readonly requests = new Map<string, T>();

  constructor(requests: readonly T[] = []) {
    this.replace(requests);
  }

  replace(requests: readonly T[]): void {
    this.requests.clear();
    for (const request of requests) this.requests.set(request.code, request);
  }

  update(request: T): void {
    if (request.status === 'pending') this.requests.set(request.code, request);
    else this.requests.delete(request.code);
  }

  list(): T[] {
    return [...this.requests.values()];
  }
}

/**
 * Puts the feed's changes back together into the whole status the pages draw: the last `status` event with the
 * `counters` that came after it, and the waiting pair and key requests and held changes kept up to date from
 * `pair-requests` / `pair-request`, `key-requests` / `key-request` and `confirmations` / `confirmation` events.
 */
export class LiveState {
  private status: LiveStatus | undefined;
  private readonly pairRequests: WaitingList<PairRequest>;
  private readonly keyRequests: WaitingList<KeyRequestView>;
  private readonly confirmations: WaitingList<ConfirmationView>;

  constructor(initial: RelayStatus) {
    const { pairRequests, keyRequests, confirmations, ...status } = initial;
    this.status = status;
    this.pairRequests = new WaitingList(pairRequests);
    this.keyRequests = new WaitingList(keyRequests);
    this.confirmations = new WaitingList(confirmations);
  }

  /** Applies one feed event; returns the whole status when the event changed it. */
  apply(event: ServerEvent): RelayStatus | undefined {
    const data: unknown = JSON.parse(event.data);
    if (event.event === 'status') this.status = data as LiveStatus;
    else if (event.event === 'counters') this.status = this.status && { ...this.status, ...(data as LiveCounters) };
    else if (event.event === 'pair-requests')
      this.pairRequests.replace((data as { pairRequests: PairRequest[] }).pairRequests);
    else if (event.event === 'pair-request') this.pairRequests.update(data as PairRequest);
    else if (event.event === 'key-requests')
      this.keyRequests.replace((data as { keyRequests: KeyRequestView[] }).keyRequests);
    else if (event.event === 'key-request') this.keyRequests.update(data as KeyRequestView);
    else if (event.event === 'confirmations')
      this.confirmations.replace((data as { confirmations: ConfirmationView[] }).confirmations);
    else if (event.event === 'confirmation') this.confirmations.update(data as ConfirmationView);
    else return undefined;
    return this.current();
  }

  current(): RelayStatus | undefined {
    return (
      this.status && {
        ...this.status,
        pairRequests: this.pairRequests.list(),
        keyRequests: this.keyRequests.list(),
        confirmations: this.confirmations.list(),
      }
    );
  }
}

function deliver(event: ServerEvent, state: LiveState, handlers: LiveHandlers): void {
  try {
    if (event.event === 'activity') {
      const { entries, skipped } = JSON.parse(event.data) as { entries: ActivityEntry[]; skipped: number };
      handlers.activity(entries, skipped);
      return;
    }
    if (event.event === 'change' || event.event === 'change-dropped') {
      const data = JSON.parse(event.data) as ChangeView | { id: string };
      handlers.journal(event.event === 'change' ? { change: data as ChangeView } : { dropped: data.id });
      return;
    }
    const status = state.apply(event);
    if (status) handlers.status(status);
  } catch {
    // A malformed event is skipped; the feed sends the whole state again when it reconnects.
  }
}

async function readStream(
  response: Response,
  state: LiveState,
  handlers: LiveHandlers,
  signal: AbortSignal,
): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (!signal.aborted) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    for (const event of parsed.events) deliver(event, state, handlers);
  }
}

async function poll(handlers: LiveHandlers, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      handlers.status(await admin.status());
      handlers.connection('live');
    } catch {
      handlers.connection('offline');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Follows /admin/events (read with fetch: the stream takes the session cookie like every other call) and reconnects
 * when the relay goes away. A relay without the stream is polled instead.
 */
export function followRelay(handlers: LiveHandlers): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const run = async () => {
    while (!signal.aborted) {
      handlers.connection('connecting');
      try {
        const initial = await admin.status();
        handlers.status(initial);
        const response = await fetch('/admin/events', {
          credentials: 'same-origin',
          signal,
          headers: { accept: 'text/event-stream' },
        });
        if (response.status === 404) return poll(handlers, signal);
        if (response.ok && response.body) {
          handlers.connection('live');
          await readStream(response, new LiveState(initial), handlers, signal);
        }
      } catch (error) {
        // Signed out: the page says how to sign in again, and retrying cannot help.
        if (error instanceof ApiError && error.status === 401) return;
        // Otherwise the relay stopped or restarted; say so and try again.
      }
      if (signal.aborted) return;
      handlers.connection('offline');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
  return () => controller.abort();
}
