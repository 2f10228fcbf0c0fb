import { EventEmitter } from 'node:events';
import { JsonFile } from './json-file.ts';
import type { RelaySettings } from '../../contracts/admin-api.ts';
import { consoleLog, type RelayLog } from '../log.ts';

export type { RelaySettings };

/** No web origin is allowed until the GM adds one (the pairing paths answer the Foundry page whatever this says). */
export const DEFAULT_SETTINGS: RelaySettings = {
  requestsPerMinute: 1200,
  streamsPerKey: 20,
  lanAccess: false,
  corsOrigins: [],
  allowedHosts: [],
  port: 3010,
  journalChanges: true,
  journalMaxChanges: 1000,
  journalMaxDays: 30,
  confirmationTimeoutSeconds: 120,
};

/** The stored settings over the defaults, with this run's overrides (command line, tests) on top but never stored. */
export class Settings extends EventEmitter<{ changed: [RelaySettings] }> {
  private readonly file: JsonFile<Partial<RelaySettings>>;
  private stored: Partial<RelaySettings>;
  private readonly overrides: Partial<RelaySettings>;
  /** Read on every request, so it is made once per change rather than on each read. */
  private current: Readonly<RelaySettings>;

  constructor(path: string, overrides: Partial<RelaySettings> = {}, log: RelayLog = consoleLog) {
    super();
    this.file = new JsonFile(path, { log });
    this.stored = this.file.read({});
    this.overrides = overrides;
    this.current = this.merged();
  }

  get(): Readonly<RelaySettings> {
    return this.current;
  }

  /** What `get` would give after these changes were stored: the run's overrides still win. */
  after(changes: Partial<RelaySettings>): Readonly<RelaySettings> {
    return { ...DEFAULT_SETTINGS, ...this.stored, ...changes, ...this.overrides };
  }

  /** Stores the changes, then applies them: a failed write changes nothing. */
  update(changes: Partial<RelaySettings>): RelaySettings {
    const next = { ...this.stored, ...changes };
    this.file.write(next);
    this.stored = next;
    this.current = this.merged();
    this.emit('changed', this.current);
    return this.current;
  }

  private merged(): Readonly<RelaySettings> {
    return Object.freeze(this.after({}));
  }
}
