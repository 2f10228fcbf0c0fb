import type { Answer } from '../routing/route.ts';
import type { Revocation } from '../storage/retried-write.ts';
import type { StorageWriteError } from '../storage/json-file.ts';
import type { RevocationAnswer } from '../../contracts/admin-api.ts';

/**
 * The answer to a revocation: `body` as it is once every part was stored, or 202 with the disk problem and what to do
 * about it while one part is in memory only. The revocation took effect either way.
 */
export function revocationAnswer(body: Record<string, unknown>, ...revocations: Revocation[]): Answer {
  const unstored = revocations.find((revocation) => revocation.unstored)?.unstored;
  if (!unstored) return { body };
  const warning: Required<RevocationAnswer> = { stored: false, warning: unstoredWarning(unstored) };
  return { status: 202, body: { ...body, ...warning } };
}

function unstoredWarning(failure: StorageWriteError): string {
  const problem =
    failure.status === 507
      ? "the disk is full, so it is not stored yet: free some space on the disk that holds Tabletop Relay's data directory"
      : `Tabletop Relay could not write its data directory (${failure.code ?? 'unknown error'}), so it is not stored yet: make the directory writable again (the relay's log names it)`;
  return `This took effect at once, but ${problem}. The relay keeps trying to store it; restarting the relay before then would undo this.`;
}
