import {
  closeSync,
  copyFileSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { HttpError } from '../errors.ts';
import { consoleLog, type RelayLog } from '../log.ts';

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A store could not be written, so nothing was changed. It is an HttpError so that whichever call caused the write
 * (HTTP or /ws/api) answers 507 or 500 with what went wrong, without a case of its own in every error handler.
 */
export class StorageWriteError extends HttpError {
  readonly code: string | undefined;

  constructor(cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const diskFull = code !== undefined && DISK_FULL_CODES.has(code);
    // The answer may reach a caller on the LAN (pairing writes too), so the path, which names the GM's account, goes
    // to the relay's log only.
    super(
      diskFull ? 507 : 500,
      diskFull
        ? "The disk is full: nothing was changed. Free some space on the disk that holds Tabletop Relay's data directory, then try again"
        : `Tabletop Relay could not write its data directory (${code ?? 'unknown error'}): nothing was changed. Its log names the directory`,
    );
    this.code = code;
  }
}

/**
 * One JSON document on disk, replaced atomically: the new text goes to a temporary file that is flushed and then
 * renamed over the old one, so a crash at any moment leaves either the old or the new document, never a mix.
 * The document it replaces stays as `<file>.bak`, the last good copy read when the file itself is missing or damaged.
 */
export class JsonFile<T> {
  readonly path: string;
  private readonly backupPath: string;
  private readonly mode: number;
  /** Set when the last read came from the backup: the damaged file must not then become the backup. */
  private fileDamaged = false;

  private readonly log: RelayLog;

  constructor(path: string, options: { mode?: number; log?: RelayLog } = {}) {
    this.path = path;
    this.log = options.log ?? consoleLog;
    this.backupPath = `${path}.bak`;
    this.mode = options.mode ?? 0o600;
    this.removeLeftoverTemporaries();
  }

  read(fallback: T): T {
    const current = readJson<T>(this.path);
    if (current.ok) return current.value;
    const backup = readJson<T>(this.backupPath);
    if (backup.ok) {
      this.fileDamaged = true;
      if (current.problem === 'invalid')
        this.log.warn(`${this.path} was damaged; Tabletop Relay started from its last good copy`);
      return backup.value;
    }
    if (current.problem === 'missing') return fallback;
    throw new Error(`${this.path} is not valid JSON; restore it from a backup or delete it to start afresh`);
  }

  /** Replaces the document, or throws StorageWriteError and leaves the previous one as it was. */
  write(value: T): void {
    const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    replaceFile(
      this.path,
      bytes,
      this.mode,
      () => {
        if (!this.fileDamaged) this.keepBackup();
      },
      this.log,
    );
    this.fileDamaged = false;
  }

  /** The current document becomes the backup; a hard link costs no disk space, a copy is for file systems without links. */
  private keepBackup(): void {
    rmSync(this.backupPath, { force: true });
    try {
      linkSync(this.path, this.backupPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      copyBackup(this.path, this.backupPath);
    }
  }

  /** Temporary files left by a crash in the middle of a write. */
  private removeLeftoverTemporaries(): void {
    const prefix = `${basename(this.path)}.`;
    let names: string[];
    try {
      names = readdirSync(dirname(this.path));
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(prefix) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(prefix.length)))
        removeQuietly(join(dirname(this.path), name));
    }
  }
}

/**
 * Replaces a file with these bytes through a flushed temporary file and a rename, or throws StorageWriteError and leaves
 * the file as it was. `beforeRename` runs once the new bytes are safely on disk.
 */
export function replaceFile(
  path: string,
  bytes: Buffer,
  mode: number,
  beforeRename: () => void = () => {},
  log: RelayLog = consoleLog,
): void {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeTemporary(temporary, bytes, mode);
    beforeRename();
    renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    const failure = new StorageWriteError(error);
    log.error(`Could not write ${path} (${failure.code ?? String(error)}); nothing was changed`);
    throw failure;
  }
  flushDirectory(dirname(path));
}

/** A half-written copy must not pass for a good one. */
function copyBackup(from: string, to: string): void {
  try {
    copyFileSync(from, to);
  } catch (error) {
    removeQuietly(to);
    throw error;
  }
}

/** For clean-up on the way out of a failure, which must not hide the failure itself (a read-only directory refuses both). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Left for the clean-up at the next start.
  }
}

type ReadResult<T> = { ok: true; value: T } | { ok: false; problem: 'missing' | 'invalid' };

function readJson<T>(path: string): ReadResult<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, problem: 'missing' };
    throw error;
  }
  try {
    return { ok: true, value: JSON.parse(text) as T };
  } catch {
    return { ok: false, problem: 'invalid' };
  }
}

/** Writes every byte, or throws: a short write (a full disk) never passes for a whole one. */
export function writeAll(descriptor: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) {
    const count = writeSync(descriptor, bytes, written, bytes.length - written);
    if (count <= 0) throw Object.assign(new Error('No byte could be written'), { code: 'ENOSPC' });
    written += count;
  }
}

/** Writes every byte and flushes them, or throws. */
function writeTemporary(path: string, bytes: Buffer, mode: number): void {
  const descriptor = openSync(path, 'w', mode);
  try {
    writeAll(descriptor, bytes);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Makes the rename itself durable. Best effort: the rename has taken effect, and Windows cannot open a directory. */
function flushDirectory(directory: string): void {
  if (process.platform === 'win32') return;
  try {
    const descriptor = openSync(directory, 'r');
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the document is already in place.
  }
}
