// A view the relay builds from a world and sends again whenever it changed: the overlays' `state` views and the player
// page's. Events only say that something may have changed; what goes out is always the view, built afresh.
import type { EventStream } from './event-stream.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';

/**
 * How long events are gathered before the view is built again: a burst (a turn that also updates three combatants)
 * costs one look at the world, and a change still shows well within half a second.
 */
export const COALESCE_MS = 40;

export interface Ending {
  end(): void;
  onEnd(listener: () => void): void;
}

/** The stream ends once, whether the reader hangs up or the hub closes one subscription or all (a revoked credential). */
export function endOnce(stream: EventStream): Ending {
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

export interface RebuiltView {
  build(): Promise<unknown>;
  /** The view as JSON, sent only when it differs from the last one sent. */
  send(json: string): void;
  /** The world the view comes from: it is built again each time that world connects again. */
  tabletop: Tabletop;
  clientId: string;
}

/**
 * Builds the view at once, again a moment after each call of the function it returns (one build per burst, never two
 * at a time), and whenever the world connects again; sends it when it changed. A world away keeps the stream open and
 * the last view shown.
 */
export function rebuiltView(view: RebuiltView, ending: Ending): () => void {
  let timer: NodeJS.Timeout | undefined;
  let building = false;
  let again = false;
  let ended = false;
  let lastSent: string | undefined;
  const build = async () => {
    timer = undefined;
    building = true;
    try {
      const json = JSON.stringify(await view.build());
      if (!ended && json !== lastSent) {
        lastSent = json;
        view.send(json);
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
  const stopWatching = whenConnected(view.tabletop, view.clientId, schedule);
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
 * Calls `listener` each time the world connects again. One listener on the tabletop serves every open view, so a GM
 * with many browser sources does not pile up listeners on it.
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
