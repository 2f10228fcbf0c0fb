import { isDeepStrictEqual } from 'node:util';
import { JsonFile } from '../storage/json-file.ts';
import { RetriedWrite, type Revocation } from '../storage/retried-write.ts';
import { withoutUndefined } from '../objects.ts';
import type { WorldMetadata } from '../../contracts/world-protocol.ts';
import { consoleLog, type RelayLog } from '../log.ts';

export interface KnownWorld extends WorldMetadata {
  clientId: string;
  serverFingerprint?: string;
  /** The Foundry address the GM gave for this world: the only page a GM session for it may open. */
  foundryUrl?: string;
  lastSeen?: string;
}

/** Every world paired with this relay and not forgotten, so a world keeps its client id across pairings and restarts. */
export class KnownWorlds {
  private readonly file: JsonFile<KnownWorld[]>;
  private byClientId = new Map<string, KnownWorld>();
  /** Last-seen times change on every connection: they are stored with the next real change, or at stop. */
  private lastSeenUnstored = false;
  /** Stores a forgetting the disk refused; any later write stores it too. */
  private readonly unstoredForgetting = new RetriedWrite(() => this.store(this.byClientId));

  private readonly log: RelayLog;

  constructor(path: string, log: RelayLog = consoleLog) {
    this.log = log;
    this.file = new JsonFile(path, { log });
    for (const world of this.file.read([])) this.byClientId.set(world.clientId, world);
  }

  get(clientId: string): KnownWorld | undefined {
    return this.byClientId.get(clientId);
  }

  list(): KnownWorld[] {
    return [...this.byClientId.values()];
  }

  /** Adds or updates a world; the file is written only when more than its last-seen time changed. */
  remember(world: KnownWorld): void {
    const current = this.byClientId.get(world.clientId);
    const merged: KnownWorld = { ...current, ...withoutUndefined(world), clientId: world.clientId };
    const next = new Map(this.byClientId).set(world.clientId, merged);
    if (current && isDeepStrictEqual(withoutLastSeen(current), withoutLastSeen(merged))) {
      this.byClientId = next;
      this.lastSeenUnstored ||= merged.lastSeen !== current.lastSeen;
      return;
    }
    this.store(next);
  }

  /**
   * A world connected. It is remembered only when paired (it opened the link with a connection token, or is known
   * already), so made-up client ids leave no trace. Never throws: a failure to store costs only what the world said.
   */
  connected(world: KnownWorld, withConnectionToken: boolean): void {
    if (!withConnectionToken && !this.byClientId.has(world.clientId)) return;
    try {
      this.remember(world);
    } catch (error) {
      this.log.error(`Could not store what world ${world.clientId} said about itself: ${messageOf(error)}`);
    }
  }

  /** Sets the Foundry address the GM gave for a world, or clears it (undefined). Undefined when the world is not known. */
  setFoundryUrl(clientId: string, foundryUrl: string | undefined): KnownWorld | undefined {
    const current = this.byClientId.get(clientId);
    if (!current) return undefined;
    const { foundryUrl: _previous, ...rest } = current;
    const updated: KnownWorld = foundryUrl === undefined ? rest : { ...rest, foundryUrl };
    this.store(new Map(this.byClientId).set(clientId, updated));
    return updated;
  }

  /**
   * Forgets a world; undefined when it was not known. Like a revocation it takes effect at once, even when the disk
   * refuses the write, which is then retried: a forgotten world's Foundry address no longer opens a GM session.
   */
  forget(clientId: string): Revocation | undefined {
    if (!this.byClientId.has(clientId)) return undefined;
    const next = new Map(this.byClientId);
    next.delete(clientId);
    return this.unstoredForgetting.failClosed(
      () => this.store(next),
      () => (this.byClientId = next),
    );
  }

  /** At stop: stores a forgetting the disk refused and last-seen times not yet written. Never throws. */
  flush(): void {
    const forgettingUnstored = this.unstoredForgetting.pending;
    this.unstoredForgetting.stop();
    if (!this.lastSeenUnstored && !forgettingUnstored) return;
    try {
      this.store(this.byClientId);
    } catch (error) {
      this.log.error(
        forgettingUnstored
          ? `Could not store the known worlds at stop, so a world forgotten while the disk refused writes is listed again from the next start: ${messageOf(error)}`
          : `Could not store when worlds were last seen: ${messageOf(error)}`,
      );
    }
  }

  /** Writes the next state, then makes it current: a failed write changes nothing. */
  private store(next: Map<string, KnownWorld>): void {
    this.file.write([...next.values()]);
    this.byClientId = next;
    this.lastSeenUnstored = false;
    this.unstoredForgetting.stop();
  }
}

function withoutLastSeen(world: KnownWorld): Omit<KnownWorld, 'lastSeen'> {
  const { lastSeen: _lastSeen, ...rest } = world;
  return rest;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
