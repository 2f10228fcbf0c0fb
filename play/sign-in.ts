// What the page keeps on the device, in the storage of the relay's origin: the sign-in an invitation left (its key,
// bound to one player in one world) and the player's own choices. Signing out forgets all of it.
import type { InvitationExchange } from '../contracts/invitations.ts';
import { PLAY_STORAGE_KEY, ROLL_MODES, type RollMode } from '../contracts/play.ts';

export type SignIn = Pick<InvitationExchange, 'key' | 'name' | 'userName' | 'worldTitle' | 'clientId' | 'relayUrl'>;

const CHOICES_KEY = `${PLAY_STORAGE_KEY}.choices`;

export interface Choices {
  /** The character last shown, by UUID. */
  character?: string;
  rollMode: RollMode;
}

function read<T>(name: string): T | undefined {
  try {
    const text = localStorage.getItem(name);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function signIn(): SignIn | undefined {
  const stored = read<Partial<SignIn>>(PLAY_STORAGE_KEY);
  return typeof stored?.key === 'string' && stored.key !== '' ? (stored as SignIn) : undefined;
}

/** Forgets the key and the choices: nothing of the sign-in is left on the device. */
export function signOut(): void {
  try {
    localStorage.removeItem(PLAY_STORAGE_KEY);
    localStorage.removeItem(CHOICES_KEY);
  } catch {
    // Storage that cannot be written holds nothing to forget.
  }
}

/**
 * Trades an invitation link's secret (the whole link, or the secret alone) for a key, once, and keeps it: the exchange
 * the invitation page makes, for a page that was opened without it.
 */
export async function redeemInvitation(link: string): Promise<void> {
  const secret = decodeURIComponent(link.trim().split('#').pop() ?? '');
  if (!secret.startsWith('ttr_inv_')) throw new Error('This is not an invitation link: it ends with #ttr_inv_…');
  let answer: Response;
  try {
    answer = await fetch('/auth/invitation', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret }),
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new Error(
      'The relay did not answer: check that this device is on the same network as the GM, then try again.',
    );
  }
  const body = (await answer.json().catch(() => ({}))) as Partial<SignIn> & { error?: string };
  if (!answer.ok) throw new Error(body.error ?? `The relay answered ${answer.status}`);
  localStorage.setItem(PLAY_STORAGE_KEY, JSON.stringify(body));
}

export function choices(): Choices {
  const stored = read<Partial<Choices>>(CHOICES_KEY) ?? {};
  const rollMode = ROLL_MODES.includes(stored.rollMode as RollMode) ? (stored.rollMode as RollMode) : 'public';
  return { ...(typeof stored.character === 'string' ? { character: stored.character } : {}), rollMode };
}

export function choose(change: Partial<Choices>): void {
  try {
    localStorage.setItem(CHOICES_KEY, JSON.stringify({ ...choices(), ...change }));
  } catch {
    // A choice the device will not keep lasts until the page is closed.
  }
}
