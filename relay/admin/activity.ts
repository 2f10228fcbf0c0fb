import { EventEmitter } from 'node:events';
import type { ActivityEntry } from './admin-types.ts';

export type { ActivityEntry };


const KEPT_ENTRIES = 200;
const WINDOW_SECONDS = 60;

/**
 * The recent API calls (no secrets: the key's name, never the key or the query string) and a count of calls per
 * second over the last minute. Emits 'entry' for each call.
 */
/** A call as recorded on the request path: its time stays a number until someone reads it. */
export type ActivityRecord = Omit<ActivityEntry, 'time'> & { at: number };

function entryOf({ at, ...rest }: ActivityRecord): ActivityEntry {
  return { time: new Date(at).toISOString(), ...rest };
}

export class ActivityLog extends EventEmitter<{ entry: [ActivityEntry] }> {
  private readonly entries: ActivityRecord[] = [];
  private readonly perSecond = new Array<number>(WINDOW_SECONDS).fill(0);
  private lastSecond = 0;

  record(entry: ActivityRecord): void {
    this.entries.push(entry);
    if (this.entries.length > KEPT_ENTRIES) this.entries.shift();
    this.advanceTo(Math.floor(entry.at / 1000));
    this.perSecond[this.lastSecond % WINDOW_SECONDS]! += 1;
    if (this.listenerCount('entry') > 0) this.emit('entry', entryOf(entry));
  }

  /** Newest first. */
  recent(): ActivityEntry[] {
    return this.entries.map(entryOf).reverse();
  }

  callsLastMinute(now = Date.now()): number {
    this.advanceTo(Math.floor(now / 1000));
    return this.perSecond.reduce((sum, count) => sum + count, 0);
  }

  /** Clears the buckets of the seconds that passed since the last call. */
  private advanceTo(second: number): void {
    if (second <= this.lastSecond) return;
    const passed = Math.min(second - this.lastSecond, WINDOW_SECONDS);
    for (let step = 1; step <= passed; step += 1) this.perSecond[(this.lastSecond + step) % WINDOW_SECONDS] = 0;
    this.lastSecond = second;
  }
}
