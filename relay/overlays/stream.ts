// An overlay's live stream: one SSE answer subscribed to the event kinds its overlay needs, owned by the link (so
// revoking the link ends it), sending `item` events, or the whole view again as `state` events.
import type { OverlayName } from '../../contracts/overlays.ts';
import { requireStreamRoom } from '../routing/call.ts';
import { endOnce, rebuiltView, type Ending } from '../events/rebuilt-view.ts';
import type { StreamEvent } from '../events/streams.ts';
import type { Answer } from '../routing/route.ts';
import type { EventStream } from '../events/event-stream.ts';
import type { RelayServices } from '../services.ts';
import { OVERLAY_FEEDS, type ItemFeed, type OverlayFeed, type StateFeed } from './feeds.ts';
import { recipientOf, type OverlayViewer } from './world.ts';

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

function itemSender(feed: ItemFeed<'dice'>, viewer: OverlayViewer, services: RelayServices, stream: EventStream) {
  return (event: StreamEvent) => {
    const item = feed.itemOf(event, recipientOf(services, viewer));
    if (item !== undefined) stream.send('item', JSON.stringify(item));
  };
}

/** The whole view, built again after each burst of events and sent when it changed. */
function stateSender(
  feed: StateFeed<'initiative'>,
  viewer: OverlayViewer,
  services: RelayServices,
  stream: EventStream,
  ending: Ending,
) {
  return rebuiltView(
    {
      build: () => feed.view(services, viewer),
      send: (json) => stream.send('state', json),
      tabletop: services.tabletop,
      clientId: viewer.clientId,
    },
    ending,
  );
}
