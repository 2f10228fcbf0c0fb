// Follows an overlay's view: the live stream first, then the view as it is now, and again from the start whenever the
// stream ends. The view's status says why it ended: a link that no longer works (revoked, 401/403) clears the overlay
// and asks again only rarely; a relay or world away (503, no answer) clears it and retries with backoff.

export interface Follower {
  /** The whole view (the state answer, or a `state` event). */
  onState(view: unknown): void;
  /** One new item (an `item` event: dice, chat). */
  onItem(item: unknown): void;
  /** The overlay must show nothing: the link stopped working, or the relay or world is away. */
  onGone(): void;
}

/** Where the page is, for anyone looking at it (the tests): following the stream, waiting to retry, or refused. */
export type ConnectionState = 'connecting' | 'live' | 'retrying' | 'refused';

const RETRY_MS = [250, 500, 1000, 2000, 5000];
/** A refused link is asked again this rarely: it is most likely revoked, and a stream page should stay quiet. */
const REFUSED_RETRY_MS = 30_000;

function parsed(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

export function followOverlay(urls: { stateUrl: string; eventsUrl: string }, follower: Follower): void {
  let attempt = 0;
  let current: EventSource | undefined;

  const mark = (state: ConnectionState): void => {
    document.documentElement.dataset.connection = state;
  };

  const retryLater = (delay: number): void => {
    mark(delay === REFUSED_RETRY_MS ? 'refused' : 'retrying');
    window.setTimeout(open, delay);
  };

  /** The state, unless a `state` event already brought a newer one while it was asked for. */
  const loadState = async (stream: EventSource, stateEventsBefore: () => number): Promise<void> => {
    const seen = stateEventsBefore();
    try {
      const response = await fetch(urls.stateUrl, { cache: 'no-store', headers: { accept: 'application/json' } });
      if (!response.ok || current !== stream) return;
      const view = parsed(await response.text());
      if (view !== undefined && stateEventsBefore() === seen) follower.onState(view);
    } catch {
      // The stream reports the relay going away by itself.
    }
  };

  /** Why the stream ended, from the view's status: 0 when the relay did not answer. */
  const probe = async (): Promise<number> => {
    try {
      return (await fetch(urls.stateUrl, { cache: 'no-store', method: 'GET' })).status;
    } catch {
      return 0;
    }
  };

  const ended = async (stream: EventSource): Promise<void> => {
    stream.close();
    if (current !== stream) return;
    current = undefined;
    const status = await probe();
    // A view that still answers (a stream refused for being one too many, say) keeps what is shown, and backs off too.
    if (status !== 200) follower.onGone();
    if (status === 401 || status === 403) return retryLater(REFUSED_RETRY_MS);
    retryLater(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
    attempt += 1;
  };

  function open(): void {
    mark('connecting');
    const stream = new EventSource(urls.eventsUrl);
    current = stream;
    let stateEvents = 0;
    stream.addEventListener('state', (event) => {
      const view = parsed((event as MessageEvent<string>).data);
      if (view === undefined) return;
      stateEvents += 1;
      follower.onState(view);
    });
    stream.addEventListener('item', (event) => {
      const item = parsed((event as MessageEvent<string>).data);
      if (item !== undefined) follower.onItem(item);
    });
    stream.onopen = () => {
      attempt = 0;
      mark('live');
      void loadState(stream, () => stateEvents);
    };
    stream.onerror = () => void ended(stream);
  }

  open();
}
