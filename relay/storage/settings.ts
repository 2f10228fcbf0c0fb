import { EventEmitter } from 'node:events';
import { JsonFile } from './json-file.ts';

/** What the GM can tune; kept in the data directory. */
export interface RelaySettings {
  /** Requests each API key may make per minute (burst included); 0 turns the limit off. */
  requestsPerMinute: number;
  /** Event streams each API key may hold open at once; 0 turns the cap off. */
  streamsPerKey: number;
  /** Listen on every address so tools on the LAN can reach the relay; off keeps it to this computer. */
  lanAccess: boolean;
  /** Web pages (origins) whose scripts may call the API; "*" allows any. */
  corsOrigins: string[];
}

export const DEFAULT_SETTINGS: RelaySettings = {
  requestsPerMinute: 1200,
  streamsPerKey: 20,
  lanAccess: false,
  corsOrigins: ['*'],
};

/** The stored settings over the defaults, with this run's overrides (command line, tests) on top but never stored. */
export class Settings extends EventEmitter<{ changed: [RelaySettings] }> {
  private readonly file: JsonFile<Partial<RelaySettings>>;
  private stored: Partial<RelaySettings>;
  private readonly overrides: Partial<RelaySettings>;

  constructor(path: string, overrides: Partial<RelaySettings> = {}) {
    super();
    this.file = new JsonFile(path);
    this.stored = this.file.read({});
    this.overrides = overrides;
  }

  get(): RelaySettings {
    return { ...DEFAULT_SETTINGS, ...this.stored, ...this.overrides };
  }

  update(changes: Partial<RelaySettings>): RelaySettings {
    this.stored = { ...this.stored, ...changes };
    this.file.write(this.stored);
    const current = this.get();
    this.emit('changed', current);
    return current;
  }
}
