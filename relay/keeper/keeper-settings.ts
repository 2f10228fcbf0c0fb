// Each paired world's keeper settings: whether it is on, the Foundry user it logs in as, and that user's password and
// Foundry's administrator password, sealed as the capture password is. Kept in <dataDir>/keepers.json.
import { EventEmitter } from 'node:events';
import type { SecretStore } from '../capture/secrets.ts';
import type { FoundryAccount } from '../capture/foundry-login.ts';
import { JsonFile } from '../storage/json-file.ts';
import type { RelayLog } from '../log.ts';

interface StoredKeeper {
  clientId: string;
  enabled: boolean;
  username: string;
  sealedPassword?: string;
  sealedAdminPassword?: string;
}

export interface KeeperSettingsInput {
  enabled?: boolean;
  username?: string;
  /** Absent keeps the stored password. */
  password?: string;
  /** Absent keeps the stored one; '' forgets it. */
  adminPassword?: string;
}

export type KeeperCredentials = Pick<FoundryAccount, 'username' | 'password' | 'adminPassword'>;

export interface KeeperSettingsView {
  enabled: boolean;
  username: string;
  passwordSet: boolean;
  adminPasswordSet: boolean;
}

const NONE: KeeperSettingsView = { enabled: false, username: '', passwordSet: false, adminPasswordSet: false };

export class KeeperSettings extends EventEmitter<{ changed: [clientId: string] }> {
  readonly #file: JsonFile<StoredKeeper[]>;
  readonly #secrets: SecretStore;
  #byClientId: Map<string, StoredKeeper>;

  constructor(path: string, secrets: SecretStore, log: RelayLog) {
    super();
    this.#file = new JsonFile(path, { log });
    this.#secrets = secrets;
    this.#byClientId = new Map(this.#file.read([]).map((stored) => [stored.clientId, stored]));
  }

  view(clientId: string): KeeperSettingsView {
    const stored = this.#byClientId.get(clientId);
    if (!stored) return NONE;
    return {
      enabled: stored.enabled,
      username: stored.username,
      passwordSet: stored.sealedPassword !== undefined,
      adminPasswordSet: stored.sealedAdminPassword !== undefined,
    };
  }

  /** The worlds whose keeper is switched on. */
  enabledWorlds(): string[] {
    return [...this.#byClientId.values()].filter((stored) => stored.enabled).map((stored) => stored.clientId);
  }

  /** The user and passwords to log in with, opened from their seals; undefined until a user and password are set. */
  credentials(clientId: string): KeeperCredentials | undefined {
    const stored = this.#byClientId.get(clientId);
    if (!stored?.username || stored.sealedPassword === undefined) return undefined;
    return {
      username: stored.username,
      password: this.#secrets.open(stored.sealedPassword),
      ...(stored.sealedAdminPassword !== undefined
        ? { adminPassword: this.#secrets.open(stored.sealedAdminPassword) }
        : {}),
    };
  }

  /** Stores the change, then makes it current: a failed write changes nothing. */
  update(clientId: string, input: KeeperSettingsInput): KeeperSettingsView {
    const current = this.#byClientId.get(clientId);
    const next: StoredKeeper = {
      clientId,
      enabled: input.enabled ?? current?.enabled ?? false,
      username: input.username ?? current?.username ?? '',
    };
    const sealedPassword = input.password !== undefined ? this.#secrets.seal(input.password) : current?.sealedPassword;
    if (sealedPassword !== undefined) next.sealedPassword = sealedPassword;
    const sealedAdminPassword =
      input.adminPassword === undefined
        ? current?.sealedAdminPassword
        : input.adminPassword === ''
          ? undefined
          : this.#secrets.seal(input.adminPassword);
    if (sealedAdminPassword !== undefined) next.sealedAdminPassword = sealedAdminPassword;
    this.#store(new Map(this.#byClientId).set(clientId, next));
    this.emit('changed', clientId);
    return this.view(clientId);
  }

  /** Forgets a world's keeper settings with the world. */
  forget(clientId: string): void {
    if (!this.#byClientId.has(clientId)) return;
    const next = new Map(this.#byClientId);
    next.delete(clientId);
    this.#store(next);
    this.emit('changed', clientId);
  }

  #store(next: Map<string, StoredKeeper>): void {
    this.#file.write([...next.values()]);
    this.#byClientId = next;
  }
}
