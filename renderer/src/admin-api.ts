// The admin API as the settings UI sees it. The session cookie from /admin/login authorises every call.
import type { ActivityEntry, PairRequestView, RelaySettings, RelayStatus, StatusWorld } from '../../relay/admin/admin-types.ts';
import type { PlayerListEntry } from '../../relay/protocol/messages.ts';

export type { ActivityEntry, RelaySettings, RelayStatus };
export type Player = PlayerListEntry;
export type World = StatusWorld;
export type PairRequest = PairRequestView;

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  userId?: string;
  worldIds?: string[];
  createdAt: string;
  lastUsedAt?: string;
}

export interface NewKey extends ApiKey {
  key: string;
}

export interface CaptureSettings {
  foundryUrl: string;
  username: string;
  passwordSet: boolean;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Called when the session is gone, so the app can say how to sign in again. */
let onSignedOut: () => void = () => undefined;

export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) onSignedOut();
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(response.status, answer.error ?? `The relay answered ${response.status}`);
  }
  return (await response.json()) as T;
}

export const admin = {
  status: () => call<RelayStatus>('GET', '/admin/status'),
  approve: (code: string) => call<PairRequest>('POST', `/admin/pair-requests/${encodeURIComponent(code)}/approve`),
  deny: (code: string) => call<PairRequest>('POST', `/admin/pair-requests/${encodeURIComponent(code)}/deny`),
  pairingCode: () => call<{ code: string; expiresAt: string; expiresIn: number }>('POST', '/admin/pairing-codes', {}),
  keys: () => call<{ keys: ApiKey[] }>('GET', '/admin/keys'),
  scopes: () => call<{ scopes: string[]; defaultScopes: string[] }>('GET', '/admin/scopes'),
  createKey: (key: { name: string; scopes: string[]; userId?: string; worldIds?: string[] }) => call<NewKey>('POST', '/admin/keys', key),
  rotateKey: (id: string) => call<NewKey>('POST', `/admin/keys/${encodeURIComponent(id)}/rotate`),
  revokeKey: (id: string) => call<{ revoked: boolean }>('DELETE', `/admin/keys/${encodeURIComponent(id)}`),
  settings: () => call<RelaySettings>('GET', '/admin/settings'),
  updateSettings: (changes: Partial<RelaySettings>) => call<RelaySettings>('PATCH', '/admin/settings', changes),
  activity: () => call<{ entries: ActivityEntry[] }>('GET', '/admin/activity'),
  capture: () => call<CaptureSettings>('GET', '/admin/capture'),
  saveCapture: (settings: { foundryUrl: string; username: string; password?: string }) => call<CaptureSettings>('PUT', '/admin/capture', settings),
  async testCapture(): Promise<Blob> {
    const response = await fetch('/admin/capture/test', { method: 'POST', credentials: 'same-origin' });
    if (!response.ok) {
      const answer = (await response.json().catch(() => ({}))) as { error?: string };
      throw new ApiError(response.status, answer.error ?? `The relay answered ${response.status}`);
    }
    return response.blob();
  },
};
