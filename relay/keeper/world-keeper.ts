// One paired world's keeper: while it is on and no GM's browser holds the world's /relay socket, it logs its own
// Foundry user into an offscreen page, seeded with a connection token of its own, so the module inside holds the
// socket. The GM's browser always wins: when one connects, the relay hands it the socket and the keeper closes its page.
import type { ConnectionTokens } from '../auth/connection-tokens.ts';
import type { KnownWorlds } from '../auth/known-worlds.ts';
import type { BrowserPage } from '../capture/browser.ts';
import type { BrowserHost } from '../capture/browser-host.ts';
import { logIn } from '../capture/foundry-login.ts';
import { connectModule, requireWorldHolder } from '../capture/gm-page.ts';
import { originOf } from '../gate/request-gate.ts';
import type { RelayLog } from '../log.ts';
import type { Tabletop } from '../tabletop/tabletop.ts';
import type { KeeperPhase, KeeperTransition, KeeperView } from '../../contracts/keeper.ts';
import { describeFailure } from './keeper-problems.ts';
import type { KeeperCredentials, KeeperSettingsView } from './keeper-settings.ts';

export interface KeeperTiming {
  /** How long the world may be offline before the keeper starts, so a GM reloading their tab gets it back first. */
  graceMs: number;
  /** The first wait after a failure that may pass; it doubles with each failure in a row. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How often the keeper's page is asked whether its game still runs and Foundry still answers it. */
  healthCheckMs: number;
}

export const DEFAULT_KEEPER_TIMING: KeeperTiming = {
  graceMs: 5000,
  retryBaseMs: 2000,
  retryMaxMs: 300_000,
  healthCheckMs: 10_000,
};

export interface KeeperDependencies {
  host: Pick<BrowserHost, 'openPage'>;
  tabletop: Pick<Tabletop, 'world' | 'disconnectToken'>;
  connectionTokens: Pick<ConnectionTokens, 'issue' | 'revoke'>;
  knownWorlds: Pick<KnownWorlds, 'get'>;
  log: RelayLog;
  timing: KeeperTiming;
}

export interface KeeperSource {
  settings(): KeeperSettingsView;
  credentials(): KeeperCredentials | undefined;
}

const KEPT_TRANSITIONS = 10;
/** Health checks in a row that must fail before the page is started again: one may fall on a reload. */
const UNHEALTHY_CHECKS = 2;

/** Asked inside the keeper's page: the game runs and Foundry's own socket is connected. */
function gameAlive(): boolean {
  const game = (globalThis as { game?: { ready?: boolean; socket?: { connected?: boolean } } }).game;
  return game?.ready === true && game.socket?.connected !== false;
}

export class WorldKeeper {
  readonly clientId: string;
  readonly #source: KeeperSource;
  readonly #dependencies: KeeperDependencies;
  readonly #changed: (transition: KeeperTransition) => void;
  #phase: KeeperPhase = 'off';
  #since: Date | undefined;
  #reason: string | undefined;
  #retryAt: number | undefined;
  readonly #transitions: KeeperTransition[] = [];
  #timer: NodeJS.Timeout | undefined;
  #page: BrowserPage | undefined;
  #tokenId: string | undefined;
  /** Bumped whenever what runs is dropped, so a start still on its way knows it is no longer wanted. */
  #generation = 0;
  #failuresInARow = 0;

  constructor(
    clientId: string,
    source: KeeperSource,
    dependencies: KeeperDependencies,
    changed: (transition: KeeperTransition) => void,
  ) {
    this.clientId = clientId;
    this.#source = source;
    this.#dependencies = dependencies;
    this.#changed = changed;
  }

  get phase(): KeeperPhase {
    return this.#phase;
  }

  view(): KeeperView {
    return {
      ...this.#source.settings(),
      phase: this.#phase,
      ...(this.#since ? { since: this.#since.toISOString() } : {}),
      ...(this.#reason !== undefined ? { reason: this.#reason } : {}),
      ...(this.#retryAt !== undefined ? { retryAt: new Date(this.#retryAt).toISOString() } : {}),
      transitions: [...this.#transitions],
    };
  }

  /** Whether the world's /relay socket is the socket the keeper's page opened. */
  holdsWorld(): boolean {
    const world = this.#dependencies.tabletop.world(this.clientId);
    return world?.open === true && this.#tokenId !== undefined && world.tokenId === this.#tokenId;
  }

  /** Starts keeping: stands back while a GM's browser holds the world, starts after the grace time when it is offline. */
  start(): void {
    this.#failuresInARow = 0;
    if (this.#dependencies.tabletop.world(this.clientId)?.open) this.#standBack();
    else this.#retryIn('waiting', this.#dependencies.timing.graceMs);
  }

  /** Closes the page and revokes its token; the keeper is off until started again. */
  async stop(): Promise<void> {
    this.#drop();
    this.#enter('off');
    await this.#release();
  }

  /** The world's /relay socket changed hands (connected or disconnected): stand back, wait, or start again. */
  linkChanged(): void {
    if (this.#phase === 'off' || this.#phase === 'stopped') return;
    const world = this.#dependencies.tabletop.world(this.clientId);
    if (world?.open && !this.holdsWorld()) return this.#standBack();
    if (world?.open) return;
    if (this.#phase === 'kept') return this.#lost('The keeper lost its link to the relay');
    if (this.#phase === 'browser' || this.#phase === 'waiting')
      this.#retryIn('waiting', this.#dependencies.timing.graceMs);
  }

  /** The browser that runs the keeper's page died: start again. */
  browserCrashed(): void {
    if (this.#phase === 'kept' || this.#phase === 'starting') this.#lost("The keeper's browser crashed");
  }

  #standBack(): void {
    this.#failuresInARow = 0;
    this.#drop();
    this.#enter('browser');
    void this.#release();
  }

  /** What ran is lost (a crash, a dropped link, Foundry gone): start again after the next wait. */
  #lost(reason: string): void {
    this.#drop();
    void this.#release();
    this.#failuresInARow += 1;
    this.#retryIn('retrying', this.#nextWait(), reason);
  }

  #retryIn(phase: 'waiting' | 'retrying', waitMs: number, reason?: string): void {
    clearTimeout(this.#timer);
    this.#enter(phase, reason, Date.now() + waitMs);
    this.#timer = setTimeout(() => void this.#launch(), waitMs);
    this.#timer.unref();
  }

  #nextWait(): number {
    const { retryBaseMs, retryMaxMs } = this.#dependencies.timing;
    return Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, this.#failuresInARow - 1));
  }

  async #launch(): Promise<void> {
    const generation = ++this.#generation;
    this.#enter('starting');
    const foundryUrl = this.#dependencies.knownWorlds.get(this.clientId)?.foundryUrl;
    const credentials = this.#source.credentials();
    if (!foundryUrl || !credentials) {
      const missing = !foundryUrl ? "the world's Foundry address" : "the keeper's Foundry user and password";
      this.#enter('stopped', `Set ${missing} in the settings (Status → Paired worlds)`);
      return;
    }
    const account = { foundryUrl, ...credentials };
    const { token, record } = this.#dependencies.connectionTokens.issue(
      this.clientId,
      `World keeper: ${credentials.username}`,
      'keeper',
      originOf(foundryUrl),
    );
    this.#tokenId = record.id;
    try {
      const page = await this.#dependencies.host.openPage({ origin: originOf(foundryUrl), quiet: true });
      if (generation !== this.#generation) return await page.close();
      this.#page = page;
      page.onCrash(() => {
        if (generation === this.#generation) this.#lost("The keeper's page crashed");
      });
      const world = this.#dependencies.knownWorlds.get(this.clientId);
      requireWorldHolder(await logIn(page, account), account, world ? [world] : []);
      await connectModule(page, foundryUrl, token, { held: () => this.holdsWorld(), heldElsewhere: () => false }, true);
      if (generation !== this.#generation) return;
      this.#failuresInARow = 0;
      this.#enter('kept');
      this.#watchHealth(generation, page);
    } catch (error) {
      if (generation !== this.#generation) return;
      this.#drop();
      await this.#release();
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    const failure = describeFailure(error);
    this.#dependencies.log.warn(`The keeper of world ${this.clientId} could not start: ${failure.detail}`);
    if (failure.final) {
      this.#enter('stopped', failure.words);
      return;
    }
    this.#failuresInARow += 1;
    this.#retryIn('retrying', this.#nextWait(), failure.words);
  }

  /** Asks the page now and then whether its game still runs; a page whose Foundry went away is started again. */
  #watchHealth(generation: number, page: BrowserPage): void {
    let unhealthy = 0;
    const check = async () => {
      const alive = await page.evaluate(gameAlive, undefined).catch(() => false);
      if (generation !== this.#generation) return;
      unhealthy = alive ? 0 : unhealthy + 1;
      if (unhealthy >= UNHEALTHY_CHECKS) this.#lost("Foundry stopped answering the keeper's page");
      else this.#timer = setTimeout(() => void check(), this.#dependencies.timing.healthCheckMs).unref();
    };
    this.#timer = setTimeout(() => void check(), this.#dependencies.timing.healthCheckMs).unref();
  }

  /** Whatever runs or waits is no longer wanted. */
  #drop(): void {
    this.#generation += 1;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Closes the page and revokes its token, so nothing the keeper held outlives it. */
  async #release(): Promise<void> {
    const page = this.#page;
    const tokenId = this.#tokenId;
    this.#page = undefined;
    this.#tokenId = undefined;
    if (tokenId !== undefined) {
      this.#dependencies.tabletop.disconnectToken(tokenId, 'The world keeper stopped');
      try {
        this.#dependencies.connectionTokens.revoke(tokenId);
      } catch (error) {
        this.#dependencies.log.error(`Could not revoke the keeper's token of world ${this.clientId}: ${String(error)}`);
      }
    }
    await page?.close().catch(() => undefined);
  }

  #enter(phase: KeeperPhase, reason?: string, retryAt?: number): void {
    const same = phase === this.#phase && reason === this.#reason && retryAt === this.#retryAt;
    this.#phase = phase;
    this.#reason = reason;
    this.#retryAt = retryAt;
    if (same) return;
    const since = new Date();
    this.#since = since;
    const transition: KeeperTransition = {
      at: since.toISOString(),
      phase,
      ...(reason !== undefined ? { reason } : {}),
    };
    this.#transitions.unshift(transition);
    this.#transitions.length = Math.min(this.#transitions.length, KEPT_TRANSITIONS);
    this.#changed(transition);
  }
}
