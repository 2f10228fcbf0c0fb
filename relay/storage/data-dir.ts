import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data directory cannot be used; the message says what is wrong, which folder, and what to do, in one line. */
export class DataDirError extends Error {}

const ANOTHER_FOLDER = 'give another folder with --data-dir';

/** One line a GM can act on for a failed file system call in the data directory, by its error code. */
export function dataDirProblem(dir: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EEXIST':
    case 'ENOTDIR':
      return `The data directory ${dir} is a file, or lies inside one, not a folder: move that file away, or ${ANOTHER_FOLDER}.`;
    case 'EACCES':
    case 'EPERM':
      return `Tabletop Relay has no permission to write in the data directory ${dir}: make it yours (chown, or its Properties → Security on Windows), or ${ANOTHER_FOLDER}.`;
    case 'EROFS':
      return `The data directory ${dir} is on a read-only file system: ${ANOTHER_FOLDER} on a writable disk.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `The disk that holds the data directory ${dir} is full: free some space, or ${ANOTHER_FOLDER} on another disk.`;
    case 'EISDIR':
      return `A file Tabletop Relay keeps in the data directory ${dir} is a folder (${(error as NodeJS.ErrnoException).path ?? 'unknown'}): move it away, or ${ANOTHER_FOLDER}.`;
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return `Tabletop Relay cannot use the data directory ${dir} (${reason}): ${ANOTHER_FOLDER}.`;
    }
  }
}

/**
 * Creates the data directory if needed and proves that a file can be written in it, before any store reads or writes
 * there: a relay that starts would otherwise fail later, at the GM's first change.
 */
export function prepareDataDir(dir: string): void {
  const probe = join(dir, `.write-check-${randomBytes(6).toString('hex')}`);
  try {
    makeFolder(dir);
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    throw new DataDirError(dataDirProblem(dir, error));
  }
}

/** A recursive mkdir says ENOENT for every failure on the way (a read-only file system too); a plain one says why. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { mode: 0o700 });
  }
}
