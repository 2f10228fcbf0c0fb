import type { ActivityEntry, RelayStatus } from './admin-api.ts';
import type { JournalEvent, LiveConnection } from './live.ts';
import type { DesktopBridge } from '../../contracts/desktop-ipc.ts';

type Listener<T> = (value: T) => void;

/** A value pages can read now and follow. */
export class Observable<T> {
  private current: T;
  private readonly listeners = new Set<Listener<T>>();

  constructor(initial: T) {
    this.current = initial;
  }

  get(): T {
    return this.current;
  }

  set(value: T): void {
    this.current = value;
    for (const listener of this.listeners) listener(value);
  }

  /** Calls the listener on every change; returns the unsubscribe. */
  onChange(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls the listener now and on every change. */
  follow(listener: Listener<T>): () => void {
    listener(this.current);
    return this.onChange(listener);
  }
}

export const MAX_ACTIVITY = 200;

export interface AppState {
  status: Observable<RelayStatus | undefined>;
  activity: Observable<ActivityEntry[]>;
  /** The journal's latest news from the admin feed: a change recorded or settled, or one let go. */
  journal: Observable<JournalEvent | undefined>;
  connection: Observable<LiveConnection>;
  /** Present in the desktop app only. */
  desktop: DesktopBridge | undefined;
}

export interface PageView {
  element: HTMLElement;
  /** Buttons for the page header. */
  actions?: HTMLElement;
  /** Stops the page's subscriptions and timers when another page opens. */
  dispose(): void;
}

export interface Page {
  id: string;
  title: string;
  subtitle: string;
  icon: string;
  render(state: AppState): PageView;
}
