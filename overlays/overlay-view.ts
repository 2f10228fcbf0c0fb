import type { OverlayOptions } from '../contracts/overlays.ts';

/** What each overlay module gives the entry: the whole view, one new item from the stream, nothing at all. */
export interface OverlayView<State, Item = never> {
  show(state: State): void;
  add(item: Item): void;
  clear(): void;
}

export interface OverlaySetup {
  /** The element the overlay draws into; the entry empties it when the link stops working. */
  root: HTMLElement;
  options: OverlayOptions;
}
