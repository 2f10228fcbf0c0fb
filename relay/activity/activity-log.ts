import { EventEmitter } from 'node:events';
import { answerFor, UNEXPECTED_ANSWER } from '../errors.ts';
import type { ActivityEntry } from '../../contracts/admin-api.ts';

export type { ActivityEntry };

const KEPT_ENTRIES = 200;
const WINDOW_SECONDS = 60;
/** Paths and reasons may carry what a caller typed: an entry stays small whatever it sent. */
const MAX_TEXT_LENGTH = 200;
/** The shapes of an API key and an overlay link: one a caller put in a path or a parameter is never kept. */
const SECRET_SHAPE = /(ttr|ttol)_[\w-]*/g;

/** A call as recorded on the request path: its time stays a number until someone reads it. */
export type ActivityRecord = Omit<ActivityEntry, 'time'> & { at: number };

/** Who made a call, as the log names them: the key's name, or why there is none. Never the key itself. */
export type CallerName = Pick<ActivityEntry, 'keyName' | 'keyProblem'>;

export function callerNamed(key: { name: string } | undefined, presented: unknown): CallerName {
  if (key) return { keyName: key.name };
  return { keyName: null, keyProblem: typeof presented === 'string' && presented !== '' ? 'unknown' : 'missing' };
}

/** A call the relay answered; `started` is `performance.now()` when it came in. */
export function answeredCall(
  caller: CallerName,
  method: string,
  path: string,
  status: number,
  started: number,
): ActivityRecord {
  return {
    at: Date.now(),
    ...caller,
    method,
    path: shortened(path),
    status,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/**
 * A call the relay refused or failed, with the status and message its caller was answered with (the one place an
 * error becomes an entry, for HTTP and /ws/api alike).
 */
export function refusedCall(
  caller: CallerName,
  method: string,
  path: string,
  error: unknown,
  started: number,
): ActivityRecord {
  const { status, body } = answerFor(error) ?? UNEXPECTED_ANSWER;
  // Some errors say what to do in `message` beside the `error` itself ("Invalid client ID": "No world is connected…").
  const reason = [body.error, body.message].filter((text) => typeof text === 'string').join(': ');
  return {
    ...answeredCall(caller, method, withoutKeys(path), status, started),
    reason: shortened(withoutKeys(reason)),
  };
}

function withoutKeys(text: string): string {
  return text.includes('ttr_') || text.includes('ttol_') ? text.replace(SECRET_SHAPE, '$1_…') : text;
}

function shortened(text: string): string {
  return text.length > MAX_TEXT_LENGTH ? `${text.slice(0, MAX_TEXT_LENGTH)}…` : text;
}

/** An entry as the admin API and the feed send it. */
export function activityEntryOf({ at, ...rest }: ActivityRecord): ActivityEntry {
  return { time: new Date(at).toISOString(), ...rest };
}

/**
 * The recent API calls, answered and refused (no secrets: the key's name, never the key or the query string), in a
 * ring of fixed size, and a count of calls per second over the last minute. Emits 'entry' for each call.
 */
export class ActivityLog extends EventEmitter<{ entry: [ActivityRecord] }> {
  private readonly ring: ActivityRecord[] = [];
  private next = 0;
  private readonly perSecond = new Array<number>(WINDOW_SECONDS).fill(0);
  private lastSecond = 0;

  record(entry: ActivityRecord): void {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % KEPT_ENTRIES;
    this.advanceTo(Math.floor(entry.at / 1000));
    this.perSecond[this.lastSecond % WINDOW_SECONDS]! += 1;
    if (this.listenerCount('entry') > 0) this.emit('entry', entry);
  }

  /** Newest first. */
  recent(): ActivityEntry[] {
    const oldestFirst = [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return oldestFirst.reverse().map(activityEntryOf);
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
