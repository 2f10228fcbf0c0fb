import type { IncomingMessage } from 'node:http';
import { WORLD_METADATA_KEYS, type WorldMetadata } from '../../contracts/world-protocol.ts';
import { normalisedAddress } from '../gate/addresses.ts';
import { shownClean } from '../shown-text.ts';

export const WORLD_LINK_PATHS = new Set(['/relay', '/relay/', '/']);

/** What the upgrade request of a world says (module-protocol.md §2.1, §3.7). */
export interface WorldUpgrade {
  clientId: string;
  metadata: WorldMetadata;
  /** A 2.x module puts its API key in the URL instead of sending an auth frame. */
  legacyKey: string | undefined;
  remoteAddress: string;
  remotePort: number | undefined;
  /** The web page that opens the socket (a browser's Origin header); undefined for callers that are not browsers. */
  origin: string | undefined;
}

export type UpgradeVerdict = { ok: true; upgrade: WorldUpgrade } | { ok: false; status: number; message: string };

export function readUpgrade(request: IncomingMessage): UpgradeVerdict {
  const url = new URL(request.url ?? '/', 'http://relay.invalid');
  if (!WORLD_LINK_PATHS.has(url.pathname)) return { ok: false, status: 404, message: 'Worlds connect on /relay' };
  const clientId = url.searchParams.get('id')?.trim();
  if (!clientId) return { ok: false, status: 400, message: 'Missing client ID: the module sends it as ?id=' };
  if (clientId.length > 200) return { ok: false, status: 400, message: 'Client ID is too long' };
  // What the world says about itself reaches the settings UI and the tray menu: cleaned to text that shows as it reads.
  const metadata: WorldMetadata = {};
  for (const key of WORLD_METADATA_KEYS) {
    const value = shownClean(url.searchParams.get(key) ?? '', 500);
    if (value) metadata[key] = value;
  }
  return {
    ok: true,
    upgrade: {
      clientId,
      metadata,
      legacyKey: url.searchParams.get('token') || undefined,
      remoteAddress: normalisedAddress(request.socket.remoteAddress),
      remotePort: request.socket.remotePort,
      origin: request.headers.origin,
    },
  };
}

/** The first frame of a 3.x module: `{type: "auth", token}`. Returns the token, or undefined for anything else. */
export function authTokenOf(frame: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(frame);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, token } = message as Record<string, unknown>;
  return type === 'auth' && typeof token === 'string' && token !== '' ? token : undefined;
}
