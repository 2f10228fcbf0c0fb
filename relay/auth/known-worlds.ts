import { JsonFile } from '../storage/json-file.ts';
import { withoutUndefined } from '../objects.ts';
import { randomHex } from './secrets.ts';
import type { WorldMetadata } from '../protocol/messages.ts';

export interface KnownWorld extends WorldMetadata {
  clientId: string;
  serverFingerprint?: string;
  lastSeen?: string;
}

/** Every world that was ever paired with this relay, so a world keeps its client id across pairings and restarts. */
export class KnownWorlds {
  private readonly file: JsonFile<KnownWorld[]>;
  private readonly byClientId = new Map<string, KnownWorld>();

  constructor(path: string) {
    this.file = new JsonFile(path);
    for (const world of this.file.read([])) this.byClientId.set(world.clientId, world);
  }

  get(clientId: string): KnownWorld | undefined {
    return this.byClientId.get(clientId);
  }

  list(): KnownWorld[] {
    return [...this.byClientId.values()];
  }

  /** The client id for a world that pairs: the one it had, else the one its fingerprint or world id had, else a new one. */
  clientIdFor(world: { existingClientId?: string; serverFingerprint?: string; worldId?: string }): string {
    if (world.existingClientId && this.byClientId.has(world.existingClientId)) return world.existingClientId;
    const known = this.list();
    const byFingerprint = world.serverFingerprint && known.find((entry) => entry.serverFingerprint === world.serverFingerprint);
    if (byFingerprint) return byFingerprint.clientId;
    const byWorldId = world.worldId && known.find((entry) => entry.worldId === world.worldId);
    if (byWorldId) return byWorldId.clientId;
    return `fvtt_${randomHex(8)}`;
  }

  remember(world: KnownWorld): void {
    const merged: KnownWorld = { ...this.byClientId.get(world.clientId), ...withoutUndefined(world), clientId: world.clientId };
    this.byClientId.set(world.clientId, merged);
    this.file.write(this.list());
  }
}

