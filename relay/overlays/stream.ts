// An overlay's live stream: one SSE answer subscribed to the event kinds its overlay needs, owned by the link (so
// revoking the link ends it), sending `item` events, or the whole view again as `state` events.
import type { OverlayName } from '../../contracts/overlays.ts';
import { requireStreamRoom } from '../routing/call.ts';
import type { StreamEvent } from '../events/streams.ts';
import type { Answer } from '../routing/route.ts';
import type { EventStream } from '../events/event-stream.ts';
import type { RelayServices } from '../services.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import { OVERLAY_FEEDS, type ItemFeed, type OverlayFeed, type StateFeed } from './feeds.ts';
import { recipientOf, type OverlayViewer } from './world.ts';

/**
 * How long events are gathered before the view is built again: a burst (a turn that also updates three combatants)
 * costs one look at the world, and a change still shows well within half a second.
 */
export const COALESCE_MS = 40;

export function overlayStream(overlay: OverlayName, viewer: OverlayViewer, services: RelayServices): Answer {
  const feed = OVERLAY_FEEDS[overlay] as OverlayFeed<OverlayName>;
  const listening = feed.listensTo(viewer);
  requireStreamRoom(
    services,
    viewer.id,
    listening.length,
    (cap) =>
      `This overlay link already holds as many event subscriptions as a key may (${cap}; a ${overlay} overlay takes ${listening.length}); remove a browser source that shows it, or raise the limit in the settings`,
  );
  return {
    kind: 'events',
    open: (stream) => {
      stream.send('connected', JSON.stringify({ overlay, clientId: viewer.clientId }));
      const ending = endOnce(stream);
      const onEvent =
        feed.sends === 'item'
          ? itemSender(feed as ItemFeed<'dice'>, viewer, services, stream)
          : stateSender(feed as StateFeed<'initiative'>, viewer, services, stream, ending);
      const unsubscribes = listening.map(({ kind, filter }) =>
        services.events.subscribe({
          clientId: viewer.clientId,
          kind,
          filter,
          ownerId: viewer.id,
          deliver: (event) => onEvent(event),
          close: ending.end,
        }),
      );
      ending.onEnd(() => unsubscribes.forEach((unsubscribe) => unsubscribe()));
    },
  };
}

interface Ending {
  end(): void;
  onEnd(listener: () => void): void;
}

/** The stream ends once, whether the reader hangs up or the hub closes one subscription or all (a revoked link). */
function endOnce(stream: EventStream): Ending {
  const listeners: (() => void)[] = [];
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    for (const listener of listeners) listener();
  };
  stream.onClose(finish);
  return {
    end: () => {
      finish();
      stream.end();
    },
    onEnd: (listener) => listeners.push(listener),
  };
}

function itemSender(feed: ItemFeed<'dice'>, viewer: OverlayViewer, services: RelayServices, stream: EventStream) {
  return (event: StreamEvent) => {
    const item = feed.itemOf(event, recipientOf(services, viewer));
    if (item !== undefined) stream.send('item', JSON.stringify(item));
  };
}

/**
 * Builds the view at once, again a moment after each event (one build per burst, never two at a time), and whenever
 * the world connects again; sends it when it changed. A world away keeps the stream open and the last view shown.
 */
function stateSender(
  feed: StateFeed<'initiative'>,
  viewer: OverlayViewer,
  services: RelayServices,
  stream: EventStream,
  ending: Ending,
) {
  let timer: NodeJS.Timeout | undefined;
  let building = false;
  let again = false;
  let ended = false;
  let lastSent: string | undefined;
  const build = async () => {
    timer = undefined;
    building = true;
    try {
      const json = JSON.stringify(await feed.view(services, viewer));
      if (!ended && json !== lastSent) {
        lastSent = json;
        stream.send('state', json);
      }
    } catch {
      // The world is away or refused: the page keeps what it shows until the next change builds the view again.
    } finally {
      building = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (ended || timer) return;
    if (building) again = true;
    else timer = setTimeout(() => void build(), COALESCE_MS);
  };
  const stopWatching = whenConnected(services.tabletop, viewer.clientId, schedule);
  ending.onEnd(() => {
    ended = true;
    clearTimeout(timer);
    stopWatching();
  });
  void build();
  return schedule;
}

const watchers = new WeakMap<Tabletop, Map<string, Set<() => void>>>();

/**
 * Calls `listener` each time the world connects again. One listener on the tabletop serves every open overlay, so a
 * GM with many browser sources does not pile up listeners on it.
 */
function whenConnected(tabletop: Tabletop, clientId: string, listener: () => void): () => void {
  let byWorld = watchers.get(tabletop);
  if (!byWorld) {
    const created = new Map<string, Set<() => void>>();
    tabletop.on('world-connected', (world) => created.get(world.clientId)?.forEach((each) => each()));
    watchers.set(tabletop, (byWorld = created));
  }
  let listeners = byWorld.get(clientId);
  if (!listeners) byWorld.set(clientId, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && byWorld.get(clientId) === listeners) byWorld.delete(clientId);
  };
}
