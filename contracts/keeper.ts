// What a world keeper is doing, as the admin API, the settings UI and the tray say it. A keeper logs a Foundry user of
// its own into an offscreen page so the world's module stays connected when no GM browser holds the world.

/**
 * - `off`: the GM has not switched the keeper on.
 * - `browser`: a GM's own browser holds the world's link; the keeper stands back.
 * - `waiting`: the world went offline; the keeper starts at `retryAt` unless a GM's browser comes back first.
 * - `starting`: the keeper's page is logging in and its module connecting.
 * - `kept`: the keeper's page holds the world's link.
 * - `retrying`: the last start failed for a reason that may pass (`reason`); the next try is at `retryAt`.
 * - `stopped`: the last start failed for a reason only the GM can mend (`reason`): a wrong password, a user who is not a
 *   Gamemaster, the module not enabled, ... The keeper tries again once its settings change or it is switched on again.
 */
export type KeeperPhase = 'off' | 'browser' | 'waiting' | 'starting' | 'kept' | 'retrying' | 'stopped';

export interface KeeperTransition {
  /** ISO time. */
  at: string;
  phase: KeeperPhase;
  reason?: string;
}

/** A world's keeper: its settings (never the passwords) and what it is doing. */
export interface KeeperView {
  enabled: boolean;
  /** The Foundry user the keeper logs in as; '' when none is set. */
  username: string;
  passwordSet: boolean;
  /** Whether Foundry's administrator password is stored, so the keeper may launch the world from the setup screen. */
  adminPasswordSet: boolean;
  phase: KeeperPhase;
  /** ISO time of the last change of phase; absent while the keeper has not run since the relay started. */
  since?: string;
  reason?: string;
  /** ISO time of the next start, while waiting or retrying. */
  retryAt?: string;
  /** The last changes of phase, newest first. */
  transitions: KeeperTransition[];
}

/** What the tray and the Status page show for a paired world: whether it is online, and through what. */
export interface WorldKeeping {
  clientId: string;
  worldTitle?: string;
  connected: boolean;
  keeper: KeeperView;
}

function secondsUntil(iso: string | undefined, now: Date): number {
  if (!iso) return 0;
  return Math.max(0, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));
}

/** One line that says how a world is online, or why it is not: "Online through the keeper", "Offline: … Retry in 20 s". */
export function keepingText(keeper: KeeperView, connected: boolean, now: Date): string {
  switch (keeper.phase) {
    case 'kept':
      return 'Online through the keeper';
    case 'starting':
      return 'Keeper starting…';
    case 'waiting':
      return `Offline: the keeper starts in ${secondsUntil(keeper.retryAt, now)} s`;
    case 'retrying':
      return `Offline: ${keeper.reason ?? 'the keeper could not start'}. Retry in ${secondsUntil(keeper.retryAt, now)} s`;
    case 'stopped':
      return `${connected ? "Online through the GM's browser" : 'Offline'}, keeper stopped: ${keeper.reason ?? 'it could not start'}`;
    case 'browser':
      return "Online through the GM's browser";
    case 'off':
      return connected ? "Online through the GM's browser" : 'Offline';
  }
}
