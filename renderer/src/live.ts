import { admin, ApiError, type ActivityEntry, type RelayStatus } from './admin-api.ts';

export type LiveConnection = 'connecting' | 'live' | 'offline';

export interface LiveHandlers {
  status(status: RelayStatus): void;
  activity(entry: ActivityEntry): void;
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

function deliver(event: ServerEvent, handlers: LiveHandlers): void {
  try {
    if (event.event === 'status') handlers.status(JSON.parse(event.data) as RelayStatus);
    if (event.event === 'activity') handlers.activity(JSON.parse(event.data) as ActivityEntry);
  } catch {
    // A malformed event is skipped; the next status event carries the whole state again.
  }
}

async function readStream(response: Response, handlers: LiveHandlers, signal: AbortSignal): Promise<void> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (!signal.aborted) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    for (const event of parsed.events) deliver(event, handlers);
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
        handlers.status(await admin.status());
        const response = await fetch('/admin/events', { credentials: 'same-origin', signal, headers: { accept: 'text/event-stream' } });
        if (response.status === 404) return poll(handlers, signal);
        if (response.ok && response.body) {
          handlers.connection('live');
          await readStream(response, handlers, signal);
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
