// The keepers of every paired world whose keeper the GM switched on: started with the relay, told when a world's
// /relay socket changes hands, restarted when their settings change, and each change of phase written to the activity
// log.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ConnectionTokens } from '../auth/connection-tokens.ts';
import type { KnownWorlds } from '../auth/known-worlds.ts';
import type { ActivityLog } from '../activity/activity-log.ts';
import type { BrowserPage } from '../capture/browser.ts';
import type { BrowserHost } from '../capture/browser-host.ts';
import type { CaptureService } from '../capture/capture-service.ts';
import { CaptureFailure, logIn } from '../capture/foundry-login.ts';
import { requireWorldHolder } from '../capture/gm-page.ts';
import { originOf } from '../gate/request-gate.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import type { RelayLog } from '../log.ts';
import type { KeeperTransition, KeeperView } from '../../contracts/keeper.ts';
import { describeFailure } from './keeper-problems.ts';
import { KeeperSettings, type KeeperCredentials, type KeeperSettingsInput } from './keeper-settings.ts';
import { DEFAULT_KEEPER_TIMING, WorldKeeper, type KeeperTiming } from './world-keeper.ts';

export interface WorldKeepersDependencies {
  settings: KeeperSettings;
  host: BrowserHost;
  tabletop: Tabletop;
  connectionTokens: ConnectionTokens;
  knownWorlds: KnownWorlds;
  activity: ActivityLog;
  log: RelayLog;
  timing: KeeperTiming;
}

/** What the keepers take from the relay itself: its tabletop link, its stores and its logs. */
export type KeeperRelayParts = Pick<
  WorldKeepersDependencies,
  'tabletop' | 'connectionTokens' | 'knownWorlds' | 'activity' | 'log'
>;

/** What the Test button says: whether the keeper's user can hold the world, in words. */
export interface KeeperTestResult {
  ok: boolean;
  message: string;
  problem?: string;
}

const ONLINE_PHASES = new Set(['kept', 'browser']);

export class WorldKeepers extends EventEmitter<{ changed: [] }> {
  readonly #dependencies: WorldKeepersDependencies;
  readonly #keepers = new Map<string, WorldKeeper>();

  constructor(dependencies: WorldKeepersDependencies) {
    super();
    this.#dependencies = dependencies;
    const { tabletop, settings, host } = dependencies;
    const linkChanged = (world: { clientId: string }) => this.#keepers.get(world.clientId)?.linkChanged();
    tabletop.on('world-connected', linkChanged);
    tabletop.on('world-disconnected', linkChanged);
    settings.on('changed', (clientId) => void this.#restart(clientId));
    host.on('crash', () => {
      for (const keeper of this.#keepers.values()) keeper.browserCrashed();
    });
  }

  /** Starts the keepers that are switched on; a token a keeper left behind (the relay did not stop cleanly) is revoked. */
  start(): void {
    const { connectionTokens, settings } = this.#dependencies;
    for (const token of connectionTokens.list()) if (token.source === 'keeper') connectionTokens.revoke(token.id);
    for (const clientId of settings.enabledWorlds()) this.#keeperOf(clientId).start();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#keepers.values()].map((keeper) => keeper.stop()));
    this.#keepers.clear();
  }

  view(clientId: string): KeeperView {
    return (
      this.#keepers.get(clientId)?.view() ?? {
        ...this.#dependencies.settings.view(clientId),
        phase: 'off',
        transitions: [],
      }
    );
  }

  /** Stores a world's keeper settings; the keeper starts, stops or starts afresh with them. */
  configure(clientId: string, input: KeeperSettingsInput): KeeperView {
    this.#dependencies.settings.update(clientId, input);
    return this.view(clientId);
  }

  /** The world's Foundry address changed: a keeper that runs starts afresh there. */
  addressChanged(clientId: string): void {
    void this.#restart(clientId);
  }

  /**
   * Forgets a world's keeper with the world: its page closes and its token is revoked. Its settings go too; on a full
   * disk they stay in the file, harmless, as no keeper starts for a world the relay no longer knows.
   */
  async forget(clientId: string): Promise<void> {
    const keeper = this.#keepers.get(clientId);
    this.#keepers.delete(clientId);
    await keeper?.stop();
    try {
      this.#dependencies.settings.forget(clientId);
    } catch (error) {
      this.#dependencies.log.error(`Could not forget the keeper settings of world ${clientId}: ${String(error)}`);
    }
  }

  /** Logs in once as the keeper's user (or the one given) and says whether that user can hold the world. */
  async test(clientId: string, given?: Partial<KeeperCredentials>): Promise<KeeperTestResult> {
    const keeper = this.#keepers.get(clientId);
    if (keeper?.holdsWorld())
      return { ok: true, message: 'The keeper is logged in and holds the world now: nothing to test' };
    const world = this.#dependencies.knownWorlds.get(clientId);
    const stored = this.#dependencies.settings.credentials(clientId);
    const username = given?.username ?? stored?.username;
    const password = given?.password ?? (given?.username === undefined ? stored?.password : undefined);
    if (!world?.foundryUrl) return { ok: false, message: "Set the world's Foundry address first" };
    if (!username || password === undefined)
      return { ok: false, message: "Set the keeper's Foundry user and password first" };
    const account = { foundryUrl: world.foundryUrl, username, password, adminPassword: stored?.adminPassword };
    let page: BrowserPage;
    try {
      page = await this.#dependencies.host.openPage({ origin: originOf(world.foundryUrl), quiet: true });
    } catch (error) {
      return failureResult(error);
    }
    try {
      const facts = await logIn(page, account);
      requireWorldHolder(facts, account, [world]);
      return {
        ok: true,
        message: `Logged in to '${facts.worldTitle}' as '${facts.userName}', a Gamemaster, with the module enabled: the keeper can keep this world online`,
      };
    } catch (error) {
      return failureResult(error);
    } finally {
      await page.close().catch(() => undefined);
    }
  }

  #keeperOf(clientId: string): WorldKeeper {
    let keeper = this.#keepers.get(clientId);
    if (!keeper) {
      const { settings } = this.#dependencies;
      keeper = new WorldKeeper(
        clientId,
        { settings: () => settings.view(clientId), credentials: () => settings.credentials(clientId) },
        this.#dependencies,
        (transition) => this.#noteTransition(clientId, transition),
      );
      this.#keepers.set(clientId, keeper);
    }
    return keeper;
  }

  async #restart(clientId: string): Promise<void> {
    const keeper = this.#keepers.get(clientId);
    await keeper?.stop();
    if (this.#dependencies.settings.view(clientId).enabled) this.#keeperOf(clientId).start();
    else this.emit('changed');
  }

  #noteTransition(clientId: string, transition: KeeperTransition): void {
    const title = this.#dependencies.knownWorlds.get(clientId)?.worldTitle ?? clientId;
    this.#dependencies.activity.record({
      at: Date.parse(transition.at),
      keyName: 'World keeper',
      method: 'KEEPER',
      path: title,
      status: ONLINE_PHASES.has(transition.phase) ? 200 : 503,
      durationMs: 0,
      note: transition.reason ? `${transition.phase}: ${transition.reason}` : transition.phase,
    });
    this.emit('changed');
  }
}

function failureResult(error: unknown): KeeperTestResult {
  const failure = describeFailure(error);
  const words = failure.words.charAt(0).toUpperCase() + failure.words.slice(1);
  return {
    ok: false,
    message: error instanceof CaptureFailure ? `${words}: ${failure.detail}` : failure.detail,
    ...(failure.problem !== undefined ? { problem: failure.problem } : {}),
  };
}

/**
 * The keepers of a relay's paired worlds, in the capture's browser: their settings kept in `keepers.json` in the data
 * directory, passwords sealed with the capture's secrets.
 */
export function worldKeepersFor(
  dataDir: string,
  capture: CaptureService,
  relay: KeeperRelayParts,
  timing: Partial<KeeperTiming> = {},
): WorldKeepers {
  const { tabletop, connectionTokens, knownWorlds, activity, log } = relay;
  return new WorldKeepers({
    settings: new KeeperSettings(join(dataDir, 'keepers.json'), capture.secrets, log),
    host: capture.host,
    tabletop,
    connectionTokens,
    knownWorlds,
    activity,
    log,
    timing: { ...DEFAULT_KEEPER_TIMING, ...timing },
  });
}
