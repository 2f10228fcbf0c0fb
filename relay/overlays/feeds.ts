// What each overlay is made of: how its view is built from the world, which events its stream listens to, and whether
// an event goes out as one new item (dice, chat) or makes the whole view be built again (the others).
import type { OverlayName, OverlayViews } from '../../contracts/overlays.ts';
import type { StreamEvent, StreamFilter } from '../events/streams.ts';
import type { StreamKind } from '../../contracts/streams.ts';
import type { RelayServices } from '../services.ts';
import { characterCardView } from './character-card.ts';
import { chatLineOf } from './chat.ts';
import { rollViewOf } from './dice.ts';
import { initiativeView } from './initiative.ts';
import { nowPlayingView } from './now-playing.ts';
import { shownTo } from '../world-data/audience.ts';
import { recentItems, type Fields, type OverlayViewer } from './world.ts';

export interface Listening {
  kind: StreamKind;
  filter: StreamFilter;
}

interface FeedBase<N extends OverlayName> {
  view(services: RelayServices, viewer: OverlayViewer): Promise<OverlayViews[N]>;
  listensTo(viewer: OverlayViewer): Listening[];
}

type ItemOf<N extends OverlayName> = OverlayViews[N] extends (infer Item)[] ? Item : never;

/** Each event that makes an item goes out as an `item` event. */
export interface ItemFeed<N extends OverlayName> extends FeedBase<N> {
  sends: 'item';
  /** `recipient`: the user id whispers must list to show (see shownTo). */
  itemOf(event: StreamEvent, recipient: string | undefined): ItemOf<N> | undefined;
}

/** Events make the view be built again; it goes out whole as a `state` event when it changed. */
export interface StateFeed<N extends OverlayName> extends FeedBase<N> {
  sends: 'state';
}

type ListFeed = 'dice' | 'chat';
export type OverlayFeed<N extends OverlayName> = N extends ListFeed ? ItemFeed<N> : StateFeed<N>;

const CHAT: Listening[] = [{ kind: 'chat', filter: {} }];

/** A new chat message the link may show, made into an item: updates and deletions change no item already shown. */
function newMessage<T>(itemOf: (message: Fields) => T | undefined) {
  return (event: StreamEvent, recipient: string | undefined): T | undefined =>
    event.name === 'chat-create' && shownTo(event.fields, recipient) ? itemOf(event.fields) : undefined;
}

/** The hooks of a combat's changes that send no combat event (initiative, hiding, defeat). */
export const COMBAT_HOOKS = ['updateCombat', 'updateCombatant'];
/** An unlinked token's actor changes through its token, a linked one through the actor. */
const HP_HOOKS = ['updateToken'];
export const PLAYLIST_HOOKS = ['Playlist', 'PlaylistSound'].flatMap((document) =>
  ['create', 'update', 'delete'].map((change) => `${change}${document}`),
);

export const OVERLAY_FEEDS: { [N in OverlayName]: OverlayFeed<N> } = {
  dice: {
    sends: 'item',
    view: (services, viewer) => recentItems(services, viewer, rollViewOf),
    listensTo: () => CHAT,
    itemOf: newMessage(rollViewOf),
  },
  chat: {
    sends: 'item',
    view: (services, viewer) => recentItems(services, viewer, chatLineOf),
    listensTo: () => CHAT,
    itemOf: newMessage(chatLineOf),
  },
  initiative: {
    sends: 'state',
    view: initiativeView,
    listensTo: (viewer) => [
      { kind: 'combat', filter: {} },
      { kind: 'hooks', filter: { hooks: viewer.hpBars ? [...COMBAT_HOOKS, ...HP_HOOKS] : COMBAT_HOOKS } },
      ...(viewer.hpBars ? [{ kind: 'actor', filter: {} } as const] : []),
    ],
  },
  'now-playing': {
    sends: 'state',
    view: nowPlayingView,
    listensTo: () => [{ kind: 'hooks', filter: { hooks: PLAYLIST_HOOKS } }],
  },
  'character-card': {
    sends: 'state',
    view: characterCardView,
    listensTo: (viewer) => [{ kind: 'actor', filter: { actorUuid: viewer.actorUuid } }],
  },
};
