import { DECK_SCOPES } from '../client/actions.ts';
import { requestKey } from '../client/key-request.ts';
import type { ClientLogger } from '../client/log.ts';

export const APP_NAME = 'Bitfocus Companion';
const APP_DESCRIPTION = 'Companion buttons: roll, turns and rounds, playlists, macros, hit points, world status';
/** How long to wait before asking again a relay that did not answer. */
export const RETRY_UNREACHABLE_MS = 5_000;

export type KeySetupOutcome =
  { status: 'approved'; apiKey: string } | { status: 'denied' } | { status: 'failed'; detail: string };

export interface KeySetupOptions {
  relayUrl: string;
  clientId?: string;
  log: ClientLogger;
  signal: AbortSignal;
  /** The relay took the request: the GM approves this code in Tabletop Relay. */
  onPending(code: string): void;
  retryMs?: number;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Asks the relay for a key with exactly the scopes the module's actions need, until the GM decides: an expired request
 * is made again, a relay that does not answer is asked again a few seconds later. Undefined once `signal` aborted.
 */
export async function keyFromTheRelay(options: KeySetupOptions): Promise<KeySetupOutcome | undefined> {
  while (!options.signal.aborted) {
    const outcome = await requestKey({
      relayUrl: options.relayUrl,
      appName: APP_NAME,
      appDescription: APP_DESCRIPTION,
      scopes: DECK_SCOPES,
      clientIds: options.clientId ? [options.clientId] : [],
      logger: options.log,
      signal: options.signal,
      onPending: ({ code }) => options.onPending(code),
    });
    switch (outcome.status) {
      case 'approved':
        return { status: 'approved', apiKey: outcome.apiKey };
      case 'denied':
        return { status: 'denied' };
      case 'failed':
        if (outcome.failure.kind !== 'relay-off') return { status: 'failed', detail: outcome.failure.detail };
        await pause(options.retryMs ?? RETRY_UNREACHABLE_MS, options.signal);
        break;
      case 'expired':
      case 'cancelled':
        break;
    }
  }
  return undefined;
}
