// The shapes the admin API answers with, free of any runtime import so the settings UI and the tray can share them.
import type { PlayerListEntry, WorldMetadata } from './world-protocol.ts';
import type { OverlayName } from './overlays.ts';
import type { KeeperView, WorldKeeping } from './keeper.ts';
import type { AssistantGrant, ToolsetDescription, ToolsetName } from './assistants.ts';

export interface StatusWorld extends WorldMetadata {
  clientId: string;
  connectedSince: string;
  players: PlayerListEntry[];
}

export interface PairRequestView {
  code: string;
  status: string;
  upgradeOnly: boolean;
  world: WorldMetadata & { worldId: string; serverFingerprint?: string; clientId?: string };
  /** The address the request came from. */
  source: string;
  /** Whether `source` is this computer (loopback): its requests cannot be denied as a whole. */
  fromThisComputer: boolean;
  /** The web page that sent the request (its Origin): any web page can send one. Absent when no browser sent it. */
  origin?: string;
  /**
   * `foundry`: the origin is a Foundry page of a paired world (the page it was paired on, its Foundry address, or the
   * page of a request the GM approved); `other`: another web page, which may pose as the GM's Foundry tab; `none`: not
   * sent by a browser, though the module always runs in one.
   */
  page: 'foundry' | 'other' | 'none';
  /** The paired world this request matches (same client id, fingerprint or world id): approving adds this browser to it. */
  pairedWorld?: { clientId: string; worldTitle?: string };
  createdAt: string;
  expiresAt: string;
}

export interface RelayStatus {
  url: string;
  /** The port the relay listens on now. */
  port: number;
  /**
   * Set when the port setting was taken by another program at start, so the relay listens on `port` instead; gone once
   * the GM keeps that port or moves back to the one they chose.
   */
  portFallback?: { wanted: number };
  lan: { enabled: boolean; urls: string[] };
  paused: boolean;
  worlds: StatusWorld[];
  /** Every paired world with its keeper, connected or not; empty where browser capture is off. */
  keeping: WorldKeeping[];
  pairRequests: PairRequestView[];
  /** Tools' key requests waiting for the GM (POST /auth/key-request). */
  keyRequests: KeyRequestView[];
  /** Changes of keys that ask before changes, waiting for the GM to approve or deny them. */
  confirmations: ConfirmationView[];
  /** Addresses whose pair and key requests the GM denied as a whole, until allowed again or the relay restarts. */
  deniedAddresses: string[];
  eventStreams: number;
  pendingWorldRequests: number;
  callsLastMinute: number;
}

/**
 * The admin feed's `status` event: the status without the pair and key requests and the held changes, sent only when it
 * changed. The requests come as `pair-requests` / `key-requests` / `confirmations` (the whole waiting list, once when
 * the feed opens) and `pair-request` / `key-request` / `confirmation` (one that appeared or changed; any status but
 * pending takes it off the list).
 */
export type LiveStatus = Omit<RelayStatus, 'pairRequests' | 'keyRequests' | 'confirmations'>;

/** The admin feed's `counters` event: sent when either changed (calls age out of the minute too), checked every second. */
export type LiveCounters = Pick<RelayStatus, 'eventStreams' | 'callsLastMinute'>;

export interface ActivityEntry {
  /** ISO time, as the settings UI shows it. */
  time: string;
  /** The name of the caller's key; null when the call carried none the relay knows (see `keyProblem`). */
  keyName: string | null;
  /** Why a call has no key name: it sent no key, or one the relay does not know. The key itself is never kept. */
  keyProblem?: 'missing' | 'unknown';
  /** The HTTP method, or WS for a /ws/api message. */
  method: string;
  /** The path without the query string, or the /ws/api message type. */
  path: string;
  status: number;
  durationMs: number;
  /** Set when the relay refused or failed the call: the message its caller was answered with. */
  reason?: string;
  /** Set when the call went otherwise than asked: a key bound to a user acted as that user, not the one named. */
  note?: string;
}

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
  /** Host names besides this computer's loopback and LAN addresses that the relay answers to, e.g. "relay.lan". */
  allowedHosts: string[];
  /** The port to listen on (1024–65535); changing it moves the relay at once, and the worlds' modules must follow. */
  port: number;
  /** Record every change tools make to a world, with what undoes it (the Changes view); off, writes go unrecorded. */
  journalChanges: boolean;
  /** The most changes the journal keeps; the oldest go first. */
  journalMaxChanges: number;
  /** Changes older than this many days leave the journal. */
  journalMaxDays: number;
  /** How long a change of a key that asks before changes waits for the GM before its caller is refused. */
  confirmationTimeoutSeconds: number;
}

/**
 * What a revocation adds to its answer (a key, an overlay link, an invitation, a connection token, a forgotten world).
 * It always takes effect at once; when the disk refused to store it (full, read-only) the answer is 202 with
 * `stored: false` and a `warning` that says what to do, and the relay keeps trying to store it.
 */
export interface RevocationAnswer {
  stored?: false;
  warning?: string;
}

/** The answer to revoking a key, an invitation or an overlay link. */
export interface RevokedAnswer extends RevocationAnswer {
  revoked: boolean;
}

/** An API key as the admin API lists it (GET /admin/keys): never the key itself. The relay names its scopes' type. */
export interface ApiKeyView<ScopeName extends string = string> {
  id: string;
  name: string;
  /** The first characters of the key, to recognise it in a list. */
  prefix: string;
  scopes: ScopeName[];
  /** When set, every call made with this key acts as this tabletop user (id or name). */
  userId?: string;
  /** When set, the key reaches only these worlds (client ids). */
  worldIds?: string[];
  /** The player invitation the key was made by: a player's device, listed with its player on the Players page. */
  invitationId?: string;
  /** A 2.x module's key: the origin of the Foundry page it connects from, which /relay admits for its world. */
  origin?: string;
  /** Made for an AI assistant: the toolsets the GM gave it over MCP, and whether it only reads (relay/mcp/). */
  assistant?: AssistantGrant;
  /** Each change this key asks of a world waits for the GM to approve it in the settings (a card and a notification). */
  askBeforeChanges?: boolean;
  createdAt: string;
  lastUsedAt?: string;
}

/** GET /admin/assistants: the toolsets with their tools, and the keys made for assistants with their open sessions. */
export interface AssistantsView {
  toolsets: Array<ToolsetDescription & { name: ToolsetName; byDefault: boolean; tools: string[] }>;
  assistants: Array<ApiKeyView & { assistant: AssistantGrant; sessions: number }>;
}

/** A key just made or rotated (POST /admin/keys, POST /admin/keys/{id}/rotate): the key is in this answer only. */
export interface NewApiKeyAnswer extends ApiKeyView {
  key: string;
}

/** A 2.x module's key with the world settings to type into the module (POST /admin/world-links). */
export interface WorldLinkAnswer extends NewApiKeyAnswer {
  settings: { 'foundry-rest-api.wsRelayUrl': string; 'foundry-rest-api.apiKey': string };
  lanRelayUrls: string[];
  steps: string;
}

/** The browser capture settings (GET /admin/capture): the password never comes back, only whether one is stored. */
export interface CaptureSettingsView {
  foundryUrl: string;
  username: string;
  passwordSet: boolean;
}

/** A paired world the relay remembers (GET /admin/worlds), whether or not it is connected now. */
export interface KnownWorldView extends WorldMetadata {
  clientId: string;
  serverFingerprint?: string;
  /** The Foundry address the GM gave for this world. */
  foundryUrl?: string;
  lastSeen?: string;
  connected: boolean;
  /** The world's keeper, where browser capture is on: whether it is switched on, and what it is doing. */
  keeper?: KeeperView;
}

/**
 * An overlay link (GET /admin/overlay-links): the one credential the relay takes in a URL (`?link=`), for one overlay
 * of one world, read-only, accepted only by that overlay's page, view and stream (/overlays/<overlay>...).
 */
export interface OverlayLinkView {
  id: string;
  name: string;
  overlay: OverlayName;
  /** The world it shows. */
  clientId: string;
  /** When set, the overlay shows what this tabletop user sees: their whispers, not the GM's or other players'. */
  userId?: string;
  /** character-card: the actor shown. */
  actorUuid?: string;
  /** initiative: show combatants' HP as bars (off unless the GM allows it). */
  hpBars: boolean;
  /** CSS the GM added, applied after the overlay's own. */
  customCss: string;
  /** What the link may read, for the list; derived from the overlay. */
  scopes: string[];
  /** The first characters of the link's secret, to recognise it. */
  prefix: string;
  createdAt: string;
  lastUsedAt?: string;
}

/** POST /admin/overlay-links and POST /admin/overlay-links/{id}/rotate: the secret is in this answer only. */
export interface NewOverlayLink {
  record: OverlayLinkView;
  link: string;
  /** The overlay's page with the link and no options: what goes into OBS. */
  url: string;
  /** The browser source size to give it in OBS. */
  size: { width: number; height: number };
}

/** What the GM chooses for an overlay link when making it (POST /admin/overlay-links). */
export type OverlayLinkRequest = Pick<OverlayLinkView, 'overlay' | 'clientId'> &
  Partial<Pick<OverlayLinkView, 'name' | 'userId' | 'actorUuid' | 'hpBars' | 'customCss'>>;

/** What may change on an overlay link afterwards (PATCH /admin/overlay-links/{id}); null clears an optional field. */
export type OverlayLinkChanges = Partial<{
  name: string;
  userId: string | null;
  actorUuid: string | null;
  hpBars: boolean;
  customCss: string;
}>;

/**
 * A tool's request for an API key (POST /auth/key-request), waiting for the GM in the settings UI. The tool shows the
 * same `code`, so the GM can tell which tool asks; it polls with a secret of its own that the admin API never shows.
 */
export interface KeyRequestView {
  /** Short and readable, e.g. `K7P-4QX`: what the tool shows its user. */
  code: string;
  appName: string;
  appDescription?: string;
  appUrl?: string;
  /** The scopes the tool asks for; the GM may approve fewer. */
  scopes: string[];
  /**
   * The asked-for scopes to grant only knowingly, for the UI to flag: `execute-js` (runs any script in the world as the
   * GM) and `world:link` (a 2.x module's link, which holds no other scope).
   */
  riskyScopes: string[];
  /** The tabletop user the tool asks to act as. */
  userId?: string;
  /** The worlds the tool asks to reach; empty asks for every world. */
  clientIds: string[];
  /** An AI assistant's request: the toolsets it asks for over MCP (contracts/assistants.ts), which the GM picks among. */
  toolsets?: ToolsetName[];
  /** The address the request came from. */
  source: string;
  /** Whether `source` is this computer (loopback): its requests cannot be denied as a whole. */
  fromThisComputer: boolean;
  /** `replaced`: the same tool asked again from the same address, and the newer request (with a new code) took its place. */
  status: 'pending' | 'approved' | 'denied' | 'expired' | 'delivered' | 'replaced';
  /** The key made on approval (GET /admin/keys lists it); revoked again if the tool never collects it. */
  keyId?: string;
  createdAt: string;
  expiresAt: string;
}

/** POST /admin/denied-addresses: the address as it will be refused, and the waiting requests it took with it. */
export interface DeniedAddressAnswer {
  address: string;
  pairRequestsDenied: number;
  keyRequestsDenied: number;
}

/**
 * POST /admin/key-requests/{code}/approve: what the GM grants, never more than the tool asked for (400 otherwise). A field
 * left out grants what the tool asked, but for scopes never execute-js or world:link, which only naming them grants.
 */
export interface KeyRequestApproval {
  /** The key's name; the tool's appName by default. */
  name?: string;
  /** Some or all of the scopes asked for. */
  scopes?: string[];
  /** The tabletop user the key acts as; may replace the user the tool asked for, never remove it. */
  userId?: string;
  /** The worlds the key reaches: some of those asked for, or any when the tool asked for every world (empty). */
  clientIds?: string[];
  /** An AI assistant's toolsets, some of those asked for; without it, those of Play and Prepare it asked for. */
  toolsets?: ToolsetName[];
  /** An AI assistant's key only reads. */
  readOnly?: AssistantGrant['readOnly'];
  /** Each change the key asks of a world then waits for the GM's approval (an AI assistant's, say). */
  askBeforeChanges?: boolean;
}

/** One field a change set: `before` or `after` absent means the field was not there on that side. */
export interface FieldChangeView {
  /** Dotted, e.g. `system.attributes.hp.value`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/**
 * What a change did to one document: made it, deleted it (its whole data with the documents embedded in it), or
 * changed fields of it; each embedded document changed is a change of its own.
 */
export interface DocumentChangeView {
  uuid: string;
  documentName: string;
  name?: string;
  kind: 'created' | 'deleted' | 'changed';
  /** created: the document as made; deleted: the document as it was. */
  document?: Record<string, unknown>;
  /** changed: each field, before and after. */
  fields?: FieldChangeView[];
}

/**
 * One change a tool made to a world (GET /admin/changes): who asked, what, what the world answered, and what it did to
 * each document it touched, read from the world just before and just after.
 */
export interface ChangeView {
  /** Ordered by time: a later change has a greater id. */
  id: string;
  /** ISO time the call came. */
  at: string;
  clientId: string;
  worldTitle?: string;
  /** The key that asked (a tool, an overlay's or an assistant's), or the GM for an undo. */
  by: { keyId?: string; name: string };
  /** The tabletop user the call acted as; absent: the GM. */
  userId?: string;
  method: string;
  path: string;
  /** The route's summary, e.g. "Update a document". */
  summary: string;
  /** The parameters as asked; long texts and file bytes shortened. */
  asked: Record<string, unknown>;
  /**
   * `pending`: the world has not answered yet; `done`: answered and read again; `unknown`: the relay stopped or the
   * world went silent before the relay could see what the call did (its `before` is kept: a forced undo restores it).
   */
  state: 'pending' | 'done' | 'unknown';
  /** The world's answer, without its type and request id; shortened when large. */
  answer?: unknown;
  changes: DocumentChangeView[];
  /** The documents the call touched as they were before it, kept while its outcome is not known. */
  before?: DocumentStateView[];
  /** Why this change cannot be undone; absent when it can. */
  notUndoable?: string;
  /** The change this one undid. */
  undoes?: string;
  /** The change that undid this one. */
  undoneBy?: string;
}

/** A document as it was at one moment; without `document` it did not exist. */
export interface DocumentStateView {
  uuid: string;
  documentName: string;
  name?: string;
  document?: Record<string, unknown>;
}

/** 409 from POST /admin/changes/{id}/undo: the documents changed again since; `differences` says how. */
export interface UndoRefusal {
  error: string;
  /** What changed since the change, from the state it left to the state now. */
  differences: DocumentChangeView[];
}

/**
 * A change held for the GM (a key that asks before changes): the call, what it would change where the relay can tell,
 * and until when it waits. The caller is answered when the GM approves (the change is made), denies (403) or the time
 * is up (408).
 */
export interface ConfirmationView {
  /** Short and readable, like a key request's. */
  code: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  keyName: string;
  keyId: string;
  clientId: string;
  worldTitle?: string;
  userId?: string;
  method: string;
  path: string;
  summary: string;
  asked: Record<string, unknown>;
  /** What the call would change, as a dry run answers it; absent where only the world can tell. */
  changes?: DocumentChangeView[];
  /** Why it cannot be undone once made; absent when it can. */
  notUndoable?: string;
  createdAt: string;
  expiresAt: string;
}
