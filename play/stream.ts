// The page's live stream, GET /play/events: Server-Sent Events read through fetch, since EventSource cannot send the
// key's header and a key never goes in an address. It opens again by itself after a drop, waiting longer each time.
import { ApiError } from './api.ts';

export interface StreamHandlers {
  /** The stream is open: the page is live. */
  open(): void;
  event(name: string, data: unknown): void;
  /** The stream dropped; it opens again by itself. */
  down(): void;
  /** The relay refused the stream: it is not opened again. */
  refused(error: ApiError): void;
}

const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15_000;

/** Opens the stream and keeps it open until the returned function is called. */
export function follow(url: string, headers: Record<string, string>, handlers: StreamHandlers): () => void {
  const stop = new AbortController();
  let wait = FIRST_WAIT_MS;
  const run = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      try {
        await readStream(
          url,
          headers,
          stop.signal,
          () => {
            wait = FIRST_WAIT_MS;
            handlers.open();
          },
          handlers.event,
        );
      } catch (error) {
        if (stop.signal.aborted) return;
        if (error instanceof ApiError && error.failure !== 'unreachable') {
          handlers.refused(error);
          return;
        }
      }
      if (stop.signal.aborted) return;
      handlers.down();
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    }
  };
  void run();
  return () => stop.abort();
}

async function readStream(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  opened: () => void,
  onEvent: (name: string, data: unknown) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, cache: 'no-store', signal });
  } catch {
    throw new ApiError(0, 'The relay did not answer');
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { error?: unknown };
    throw new ApiError(response.status, typeof body.error === 'string' ? body.error : `HTTP ${response.status}`);
  }
  opened();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = parsedFrame(frame);
      if (event) onEvent(event.name, event.data);
    }
  }
}

/** One frame's `event:` and `data:` lines; comments (the keepalive) and frames without data are nothing. */
function parsedFrame(frame: string): { name: string; data: unknown } | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('event: ')) name = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return undefined;
  try {
    return { name, data: JSON.parse(data.join('\n')) };
  } catch {
    return undefined;
  }
}
