// The admin API as the settings UI sees it. The session cookie from /admin/login authorises every call.
import type {
  ActivityEntry,
  ApiKeyView,
  AssistantsView,
  CaptureSettingsView,
  ChangeView,
  ConfirmationView,
  DeniedAddressAnswer,
  KeyRequestApproval,
  KeyRequestView,
  KnownWorldView,
  NewApiKeyAnswer,
  NewOverlayLink,
  OverlayLinkChanges,
  OverlayLinkRequest,
  OverlayLinkView,
  PairRequestView,
  RelaySettings,
  RelayStatus,
  RevocationAnswer,
  RevokedAnswer,
  StatusWorld,
  WorldLinkAnswer,
} from '../../contracts/admin-api.ts';
import type { PlayerListEntry } from '../../contracts/world-protocol.ts';
import type { InvitationView, NewInvitationAnswer } from '../../contracts/invitations.ts';
import type { IntegrationPackageView } from '../../contracts/integration-packages.ts';
import type { ToolsetName } from '../../contracts/assistants.ts';

export type { ActivityEntry, AssistantsView, ChangeView, ConfirmationView, RelaySettings, RelayStatus };
export type Player = PlayerListEntry;
export type World = StatusWorld;
export type PairRequest = PairRequestView;
export type KnownWorld = KnownWorldView;
export type Invitation = InvitationView;
export type NewInvitation = NewInvitationAnswer;
export type KeyRequest = KeyRequestView;
export type OverlayLink = OverlayLinkView;
export type { NewOverlayLink, OverlayLinkChanges, OverlayLinkRequest };
export type IntegrationPackage = IntegrationPackageView;
export type ApiKey = ApiKeyView;
export type NewKey = NewApiKeyAnswer;
export type WorldLink = WorldLinkAnswer;
export type CaptureSettings = CaptureSettingsView;

export class ApiError extends Error {
  readonly status: number;
  /** The whole answer, for the refusals that say more than their words (an undo's differences). */
  readonly answer: Record<string, unknown>;

  constructor(status: number, message: string, answer: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.answer = answer;
  }
}

/** Called when the session is gone, so the app can say how to sign in again. */
let onSignedOut: () => void = () => undefined;

export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** The relay takes admin changes only as a JSON body, so every change sends one, if only `{}`. */
async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const isChange = method !== 'GET';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: isChange ? { 'content-type': 'application/json' } : {},
    body: isChange ? JSON.stringify(body ?? {}) : undefined,
  });
  if (response.status === 401) onSignedOut();
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(response.status, answer.error ?? `The relay answered ${response.status}`, answer);
  }
  return response;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await (await send(method, path, body)).json()) as T;
}

export const admin = {
  status: () => call<RelayStatus>('GET', '/admin/status'),
  approve: (code: string) => call<PairRequest>('POST', `/admin/pair-requests/${encodeURIComponent(code)}/approve`),
  deny: (code: string) => call<PairRequest>('POST', `/admin/pair-requests/${encodeURIComponent(code)}/deny`),
  approveKeyRequest: (code: string, approval: KeyRequestApproval) =>
    call<KeyRequest>('POST', `/admin/key-requests/${encodeURIComponent(code)}/approve`, approval),
  denyKeyRequest: (code: string) => call<KeyRequest>('POST', `/admin/key-requests/${encodeURIComponent(code)}/deny`),
  /** Denies every waiting request from the address and refuses new ones until allowed again or the relay restarts. */
  denyAddress: (address: string) => call<DeniedAddressAnswer>('POST', '/admin/denied-addresses', { address }),
  allowAddress: (address: string) =>
    call<{ allowed: boolean }>('DELETE', `/admin/denied-addresses/${encodeURIComponent(address)}`),
  pairingCode: () => call<{ code: string; expiresAt: string; expiresIn: number }>('POST', '/admin/pairing-codes'),
  keys: () => call<{ keys: ApiKey[] }>('GET', '/admin/keys'),
  scopes: () => call<{ scopes: string[]; defaultScopes: string[] }>('GET', '/admin/scopes'),
  createKey: (key: {
    name: string;
    scopes: string[];
    userId?: string;
    worldIds?: string[];
    askBeforeChanges?: boolean;
  }) => call<NewKey>('POST', '/admin/keys', key),
  setAskBeforeChanges: (id: string, askBeforeChanges: boolean) =>
    call<ApiKey>('PATCH', `/admin/keys/${encodeURIComponent(id)}`, { askBeforeChanges }),
  linkWorld: (link: { clientId: string; foundryUrl: string; name?: string }) =>
    call<WorldLink>('POST', '/admin/world-links', link),
  rotateKey: (id: string) => call<NewKey>('POST', `/admin/keys/${encodeURIComponent(id)}/rotate`),
  revokeKey: (id: string) => call<RevokedAnswer>('DELETE', `/admin/keys/${encodeURIComponent(id)}`),
  invitations: () => call<{ invitations: Invitation[] }>('GET', '/admin/invitations'),
  createInvitation: (invitation: { clientId: string; userId: string; name?: string; lifetimeDays?: number }) =>
    call<NewInvitation>('POST', '/admin/invitations', invitation),
  revokeInvitation: (id: string) => call<RevokedAnswer>('DELETE', `/admin/invitations/${encodeURIComponent(id)}`),
  knownWorlds: () => call<{ worlds: KnownWorld[] }>('GET', '/admin/worlds'),
  /** null clears the address. */
  setWorldFoundryUrl: (clientId: string, foundryUrl: string | null) =>
    call<KnownWorld>('PATCH', `/admin/worlds/${encodeURIComponent(clientId)}`, { foundryUrl }),
  setKeeper: (
    clientId: string,
    change: { keepOnline?: boolean; keeperUsername?: string; keeperPassword?: string; foundryAdminPassword?: string },
  ) => call<KnownWorld>('PATCH', `/admin/worlds/${encodeURIComponent(clientId)}`, change),
  testKeeper: (clientId: string, given: { keeperUsername?: string; keeperPassword?: string }) =>
    call<{ ok: boolean; message: string; problem?: string }>(
      'POST',
      `/admin/worlds/${encodeURIComponent(clientId)}/keeper-test`,
      given,
    ),
  forgetWorld: (clientId: string) =>
    call<{ forgotten: boolean } & RevocationAnswer>('DELETE', `/admin/worlds/${encodeURIComponent(clientId)}`),
  overlayLinks: () => call<{ links: OverlayLink[] }>('GET', '/admin/overlay-links'),
  createOverlayLink: (link: OverlayLinkRequest) => call<NewOverlayLink>('POST', '/admin/overlay-links', link),
  updateOverlayLink: (id: string, changes: OverlayLinkChanges) =>
    call<OverlayLink>('PATCH', `/admin/overlay-links/${encodeURIComponent(id)}`, changes),
  rotateOverlayLink: (id: string) =>
    call<NewOverlayLink>('POST', `/admin/overlay-links/${encodeURIComponent(id)}/rotate`),
  revokeOverlayLink: (id: string) => call<RevokedAnswer>('DELETE', `/admin/overlay-links/${encodeURIComponent(id)}`),
  settings: () => call<RelaySettings>('GET', '/admin/settings'),
  updateSettings: (changes: Partial<RelaySettings>) => call<RelaySettings>('PATCH', '/admin/settings', changes),
  activity: () => call<{ entries: ActivityEntry[] }>('GET', '/admin/activity'),
  /** The journal's changes, newest first; `before` (a change id) pages to older ones. */
  changes: (before?: string) =>
    call<{ changes: ChangeView[]; more: boolean }>(
      'GET',
      `/admin/changes${before ? `?before=${encodeURIComponent(before)}` : ''}`,
    ),
  /** Undoes a change; refused with a 409 whose answer is an `UndoRefusal` when its documents changed since. */
  undo: (id: string, force = false) =>
    call<ChangeView>('POST', `/admin/changes/${encodeURIComponent(id)}/undo`, force ? { force } : {}),
  approveChange: (code: string) =>
    call<ConfirmationView>('POST', `/admin/confirmations/${encodeURIComponent(code)}/approve`),
  denyChange: (code: string) => call<ConfirmationView>('POST', `/admin/confirmations/${encodeURIComponent(code)}/deny`),
  capture: () => call<CaptureSettings>('GET', '/admin/capture'),
  saveCapture: (settings: { foundryUrl: string; username: string; password?: string }) =>
    call<CaptureSettings>('PUT', '/admin/capture', settings),
  testCapture: async (): Promise<Blob> => (await send('POST', '/admin/capture/test')).blob(),
  /** The Stream Deck plugin and the Companion package: whether each was built; each `path` downloads it. */
  downloads: () => call<{ packages: IntegrationPackage[] }>('GET', '/admin/downloads'),
  assistants: () => call<AssistantsView>('GET', '/admin/assistants'),
  createAssistantKey: (key: { name: string; toolsets?: ToolsetName[]; readOnly?: boolean }) =>
    call<NewKey>('POST', '/admin/assistant-keys', key),
};
