// GET /play/events: the player page's one live stream. The world's events come as the GM sees them, so none goes on
// as it came but the changes of an actor the user owns, which the owner sees whole in Foundry: the others only make
// the relay build the page's views again, asked of the world as the user (relay/play/views.ts), and a view goes out
// when it changed.
import { PLAY_VIEWS, type PlayViews } from '../../contracts/play.ts';
import { HttpError } from '../errors.ts';
import { endOnce, rebuiltView, type Ending } from '../events/rebuilt-view.ts';
import type { StreamEvent } from '../events/streams.ts';
import { fieldsOf } from '../objects.ts';
import { COMBAT_HOOKS, PLAYLIST_HOOKS, type Listening } from '../overlays/feeds.ts';
import { requireStreamRoom } from '../routing/call.ts';
import type { Answer } from '../routing/route.ts';
import type { EventStream } from '../events/event-stream.ts';
import { PLAY_VIEW_BUILDERS } from './views.ts';
import { ownsActor, type PlayViewer } from './viewer.ts';

const COMBAT_HOOK_NAMES = new Set(COMBAT_HOOKS);

export async function playerStream(viewer: PlayViewer, actorUuid: string | undefined): Promise<Answer> {
  if (actorUuid !== undefined && !(await ownsActor(viewer, actorUuid)))
    throw new HttpError(
      403,
      `This key acts as ${viewer.user.name}, who does not own that actor in Foundry: the player page follows only their own actors`,
    );
  const listening = listensTo(viewer, actorUuid);
  requireStreamRoom(
    viewer.services,
    viewer.key.id,
    listening.length,
    (cap) =>
      `This key already holds as many event subscriptions as a key may (${cap}; the player page takes ${listening.length}): close the page on another device, or raise the limit in the settings`,
  );
  const { services, world } = viewer;
  return {
    kind: 'events',
    open: (stream) => {
      stream.send('connected', JSON.stringify({ clientId: world.clientId, userId: viewer.user.id, actorUuid }));
      const ending = endOnce(stream);
      const onEvent = eventHandler(viewer, stream, ending);
      const unsubscribes = listening.map(({ kind, filter }) =>
        services.events.subscribe({
          clientId: world.clientId,
          kind,
          filter,
          ownerId: viewer.key.id,
          deliver: (event, payloadJson) => onEvent(event, payloadJson),
          close: ending.end,
        }),
      );
      ending.onEnd(() => unsubscribes.forEach((unsubscribe) => unsubscribe()));
    },
  };
}

/** What the stream listens to: chat the user sees, the combat, the playlists, and the one actor it follows. */
function listensTo(viewer: PlayViewer, actorUuid: string | undefined): Listening[] {
  return [
    { kind: 'chat', filter: { userId: viewer.user.id } },
    { kind: 'combat', filter: {} },
    { kind: 'hooks', filter: { hooks: [...COMBAT_HOOKS, ...PLAYLIST_HOOKS] } },
    ...(actorUuid === undefined ? [] : [{ kind: 'actor', filter: { actorUuid } } as const]),
  ];
}

/** Each view built again after the events that may change it; the followed actor's changes passed on in order. */
function eventHandler(viewer: PlayViewer, stream: EventStream, ending: Ending) {
  const rebuild = Object.fromEntries(
    PLAY_VIEWS.map((name) => [
      name,
      rebuiltView(
        {
          build: () => PLAY_VIEW_BUILDERS[name](viewer),
          send: (json) => stream.send(name, json),
          tabletop: viewer.services.tabletop,
          clientId: viewer.world.clientId,
        },
        ending,
      ),
    ]),
  ) as Record<keyof PlayViews, () => void>;
  const passActorEvent = actorEventPasser(viewer, stream, ending);
  return (event: StreamEvent, payloadJson: string) => {
    if (event.name.startsWith('chat-')) rebuild.chat();
    else if (event.name.startsWith('actor-')) passActorEvent(event, payloadJson);
    else if (event.name.startsWith('combat-') || COMBAT_HOOK_NAMES.has(event.name)) rebuild.combat();
    else rebuild.playing();
  };
}

/**
 * Passes the followed actor's events on in the order they came. One that changes who owns the actor is looked at
 * first: when the user no longer owns it, it is not passed and the stream ends (the page opens it again and is told).
 */
function actorEventPasser(viewer: PlayViewer, stream: EventStream, ending: Ending) {
  let queue = Promise.resolve();
  let ended = false;
  ending.onEnd(() => (ended = true));
  return (event: StreamEvent, payloadJson: string) => {
    const changesOwnership = fieldsOf(event.fields.changes)?.ownership !== undefined;
    queue = queue.then(async () => {
      if (changesOwnership && !(await ownsActor(viewer, String(event.fields.actorUuid)).catch(() => false)))
        return ending.end();
      if (!ended) stream.send(event.name, payloadJson);
    });
  };
}
