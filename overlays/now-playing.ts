// Now playing: the track and its playlist, with a small equaliser while something plays.
import type { NowPlayingView } from '../contracts/overlays.ts';
import { element, text } from './dom.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

function equaliser(): HTMLElement {
  return element('span', 'equaliser', element('i', ''), element('i', ''), element('i', ''), element('i', ''));
}

function trackCard(playing: { playlist: string; track: string }): HTMLElement {
  const card = element(
    'div',
    'card track entering',
    element('span', 'accent-bar'),
    equaliser(),
    element(
      'div',
      'track-body',
      text('span', 'panel-label', 'Now playing'),
      text('span', 'track-name', playing.track),
      text('span', 'playlist-name', playing.playlist),
    ),
  );
  card.dataset.track = `${playing.playlist}\n${playing.track}`;
  return card;
}

export function createNowPlaying({ root, options }: OverlaySetup): OverlayView<NowPlayingView> {
  const list = element('div', 'tracks');
  root.append(list);
  return {
    show(view) {
      const playing = view.playing.slice(0, options.max);
      const kept = new Map<string, Element>();
      for (const card of Array.from(list.children)) kept.set((card as HTMLElement).dataset.track ?? '', card);
      // A track already shown stays as it is, so only a new one slides in.
      list.replaceChildren(
        ...playing.map((track) => kept.get(`${track.playlist}\n${track.track}`) ?? trackCard(track)),
      );
    },
    add() {},
    clear() {
      list.replaceChildren();
    },
  };
}
