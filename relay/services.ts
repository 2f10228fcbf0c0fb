import type { EventEmitter } from 'node:events';
import type { ActivityLog } from './activity/activity-log.ts';
import type { AdminSessions } from './auth/admin-sessions.ts';
import type { CaptureService } from './capture/capture-service.ts';
import type { WorldKeepers } from './keeper/world-keepers.ts';
import type { ApiKeys } from './auth/api-keys.ts';
import type { OverlayLinks } from './auth/overlay-links.ts';
import type { ConnectionTokens } from './auth/connection-tokens.ts';
import type { KnownWorlds } from './auth/known-worlds.ts';
import type { Invitations } from './auth/invitations.ts';
import type { KeyRequests } from './auth/key-requests.ts';
import type { Pairing } from './auth/pairing.ts';
import type { RequestSources } from './auth/request-sources.ts';
import type { EventHub } from './events/event-hub.ts';
import type { RollIds } from './events/roll-ids.ts';
import type { RateLimiter } from './routing/rate-limit.ts';
import type { RelayLog } from './log.ts';
import type { Settings } from './storage/settings.ts';
import type { Tabletop } from './tabletop/tabletop.ts';
import type { OAuthServer } from './mcp/oauth.ts';
import type { ToolsetScopes } from './auth/key-requests.ts';
import type { ToolsetName } from '../contracts/assistants.ts';
import type { ChangeJournal } from './journal/change-journal.ts';
import type { Confirmations } from './journal/confirmations.ts';

/** Where the builds put the Stream Deck plugin and the Companion module package; unset or empty: not built. */
export interface IntegrationPackageFolders {
  streamDeck?: string;
  companion?: string;
}

/** A move of the listener: to another port, LAN access on or off, or both. */
export interface ListenPlace {
  port?: number;
  lanAccess?: boolean;
}

export interface RelayNetwork {
  /** The local base URL, e.g. http://127.0.0.1:3010. */
  url(): string;
  /** The base URLs on this computer's LAN addresses; empty while LAN access is off. */
  lanUrls(): string[];
  lanAccess(): boolean;
  /** The port listened on now. */
  port(): number;
  /** The port setting when another program held it at start (the relay then took the next free one). */
  portFallback(): { wanted: number } | undefined;
  /**
   * Listens on another port or with LAN access switched, then runs `commit` (which stores the setting), and only then
   * closes what is no longer needed. An address that cannot be bound is a 409 and a failed commit undoes the binds:
   * either the relay listens where the stored settings say, or nothing changed; it listens somewhere throughout.
   */
  moveTo(place: ListenPlace, commit: () => void): Promise<void>;
  paused(): boolean;
  setPaused(on: boolean): void;
}

/** The parts of a running relay that route handlers use. */
export interface RelayServices {
  tabletop: Tabletop;
  events: EventHub;
  /** Gives a roll posted to chat one id in answers, recent rolls and events. */
  rollIds: RollIds;
  keys: ApiKeys;
  /** The links OBS overlays load with: one overlay, one world, read-only. */
  overlayLinks: OverlayLinks;
  connectionTokens: ConnectionTokens;
  knownWorlds: KnownWorlds;
  pairing: Pairing;
  /** Players' one-time invitation links, each traded once for a key bound to that player. */
  invitations: Invitations;
  /** Tools' requests for a key, waiting for the GM (POST /auth/key-request). */
  keyRequests: KeyRequests;
  /** AI assistants' sign-ins (OAuth for /mcp), each ending in a key request the GM approves. */
  oauth: OAuthServer;
  /** The scopes an assistant's toolsets need, and the tools each toolset holds (relay/mcp/tools.ts). */
  toolsetScopes: ToolsetScopes;
  toolsetTools(toolset: ToolsetName): string[];
  /** The open MCP sessions per key id. */
  assistantSessions(): Map<string, number>;
  /** Where pair and key requests count against the caps, the places kept for the GM's own, the addresses denied. */
  requestSources: RequestSources;
  settings: Settings;
  rateLimiter: RateLimiter;
  adminToken: string;
  adminSessions: AdminSessions;
  activity: ActivityLog;
  /** Every change tools make to a world, with what undoes it (relay/journal/). */
  journal: ChangeJournal;
  /** Changes of keys that ask before changes, held for the GM's decision. */
  confirmations: Confirmations;
  /** Where the relay listens, and the switches the tray flips. */
  network: RelayNetwork;
  /** Says 'status' whenever anything the tray or the settings UI shows may have changed. */
  changes: EventEmitter<{ status: [] }>;
  /** The settings UI's built files, where the overlay pages' script and style sheet are too (overlays/). */
  settingsUiDir?: string;
  /** Where the Stream Deck plugin and the Companion module package are built, for the settings UI's downloads. */
  integrationPackages?: IntegrationPackageFolders;
  /** Browser capture (GET /sheet in an offscreen page, GM sessions); absent where no browser may be driven. */
  capture?: CaptureService;
  /** The paired worlds' keepers, which hold a world online without a GM's browser; absent with capture. */
  keepers?: WorldKeepers;
  /** Where the relay's own log lines go. */
  log: RelayLog;
  /** Replaces every route's own timeout; for tests that need a world's silence to show quickly. */
  timeoutOverrideMs: number | undefined;
}
