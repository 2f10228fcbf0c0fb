// The dice feed and the chat ticker: a list of the newest items, each sliding in, fading out after the hold time, the
// oldest leaving once there are more than `max`.
import { element } from './dom.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

export interface FeedItem {
  id: string;
  /** Epoch ms. */
  at: number;
}

/** How long the fade-out animation in overlay.css runs before the item is removed. */
const LEAVE_MS = 600;

interface Shown {
  entry: HTMLElement;
  timer?: number;
}

export function createFeed<T extends FeedItem>(
  { root, options }: OverlaySetup,
  render: (item: T) => HTMLElement,
): OverlayView<T[], T> {
  const list = element('ol', 'feed');
  root.append(list);
  const shown = new Map<string, Shown>();

  const leave = (id: string): void => {
    const item = shown.get(id);
    if (!item) return;
    shown.delete(id);
    window.clearTimeout(item.timer);
    item.entry.classList.add('leaving');
    window.setTimeout(() => item.entry.remove(), LEAVE_MS);
  };

  /** Shows an item for what is left of its hold time, counted from `since` (its arrival, or its time for a view). */
  const put = (item: T, since: number): void => {
    if (shown.has(item.id)) return;
    const remaining = options.hold > 0 ? options.hold * 1000 - (Date.now() - Math.min(since, Date.now())) : Infinity;
    if (remaining <= 0) return;
    const entry = render(item);
    entry.classList.add('feed-item', 'entering');
    entry.dataset.id = item.id;
    list.append(entry);
    const timer = Number.isFinite(remaining) ? window.setTimeout(() => leave(item.id), remaining) : undefined;
    shown.set(item.id, { entry, timer });
    for (const id of shown.keys()) {
      if (shown.size <= options.max) break;
      leave(id);
    }
  };

  return {
    show(items) {
      if (!Array.isArray(items)) return;
      const newest = [...items].sort((a, b) => a.at - b.at).slice(-options.max);
      const kept = new Set(newest.map((item) => item.id));
      for (const id of [...shown.keys()]) if (!kept.has(id)) leave(id);
      for (const item of newest) put(item, item.at);
    },
    add(item) {
      put(item, Date.now());
    },
    clear() {
      for (const { timer } of shown.values()) window.clearTimeout(timer);
      shown.clear();
      list.replaceChildren();
    },
  };
}
