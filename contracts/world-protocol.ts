// The message shapes exchanged between the relay and a world over /relay, and that socket's address
// (module-protocol.md §2, §4). Shared by the relay, the sandbox world and the settings UI, so none may import anything
// platform-specific here.

export const DOCUMENT_TYPES = [
  'Scene',
  'Actor',
  'Item',
  'JournalEntry',
  'RollTable',
  'Cards',
  'Macro',
  'Playlist',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Close codes of module-protocol.md §2.3, and the relay's own `pageRefused`, which the module retries on as on any other. */
export const CloseCode = {
  normal: 1000,
  policyViolation: 1008,
  noAuth: 4002,
  duplicateConnection: 4004,
  /** A valid credential from a web page its world was not paired on (the HTTP 403 of an upgrade, as a close code). */
  pageRefused: 4403,
} as const;

/** A request the relay sends to the world: the operation, its id, and the parameters at the top level. */
export interface WorldRequest {
  type: string;
  requestId: string;
  userId?: string;
  [parameter: string]: unknown;
}

/** A reply or push from the world. A reply's type is `<request type>-result`; an `error` string means failure. */
export interface WorldMessage {
  type: string;
  requestId?: string;
  error?: unknown;
  [field: string]: unknown;
}

export interface PlayerListEntry {
  id: string;
  name: string;
  role: number;
  active: boolean;
}

/** The metadata a world sends as query parameters when it connects (module-protocol.md §2.1). */
export interface WorldMetadata {
  worldId?: string;
  worldTitle?: string;
  foundryVersion?: string;
  systemId?: string;
  systemTitle?: string;
  systemVersion?: string;
  customName?: string;
}

export const WORLD_METADATA_KEYS = [
  'worldId',
  'worldTitle',
  'foundryVersion',
  'systemId',
  'systemTitle',
  'systemVersion',
  'customName',
] as const satisfies readonly (keyof WorldMetadata)[];

export function resultTypeOf(requestType: string): string {
  return `${requestType}-result`;
}

/**
 * The address a Foundry world connects to, derived from the relay's HTTP base URL (http://127.0.0.1:3010 →
 * ws://127.0.0.1:3010/relay). The one form shown everywhere: the 3.x module strips and re-appends `/relay`, and a 2.x
 * module uses the URL as given, which the relay serves on `/relay` too (module-protocol.md §2).
 */
export function worldSocketUrl(httpBaseUrl: string): string {
  return `${httpBaseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/relay`;
}

/** The scene collections the module accepts as `documentType` in the canvas operations, and the class behind each. */
export const CANVAS_DOCUMENT_CLASSES = {
  tokens: 'Token',
  tiles: 'Tile',
  drawings: 'Drawing',
  lights: 'AmbientLight',
  sounds: 'AmbientSound',
  notes: 'Note',
  templates: 'MeasuredTemplate',
  walls: 'Wall',
  regions: 'Region',
} as const;

export type CanvasDocumentType = keyof typeof CANVAS_DOCUMENT_CLASSES;
