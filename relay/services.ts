import type { ApiKeys } from './auth/api-keys.ts';
import type { ConnectionTokens } from './auth/connection-tokens.ts';
import type { KnownWorlds } from './auth/known-worlds.ts';
import type { Pairing } from './auth/pairing.ts';
import type { EventHub } from './events/event-hub.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { Settings } from './storage/settings.ts';
import type { Tabletop } from './tabletop/tabletop.ts';

/** The parts of a running relay that route handlers use. */
export interface RelayServices {
  tabletop: Tabletop;
  events: EventHub;
  keys: ApiKeys;
  connectionTokens: ConnectionTokens;
  knownWorlds: KnownWorlds;
  pairing: Pairing;
  settings: Settings;
  rateLimiter: RateLimiter;
  adminToken: string;
  /** Replaces every route's own timeout; for tests that need a world's silence to show quickly. */
  timeoutOverrideMs: number | undefined;
}
