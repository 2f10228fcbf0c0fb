import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGE = 4096;

/** A real, tiny file system (tmpfs) to hold a relay's data directory, which the test can fill up or make read-only. */
export interface TinyDisk {
  dir: string;
  /** Fills the disk, then frees `freeBytes` (whole pages): a write bigger than that is cut short, then fails. */
  fill(freeBytes: number): void;
  /** Gives the filled space back. */
  empty(): void;
  readOnly(): void;
  writable(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeKiB` on a new temporary directory, or says why it cannot (not root, no mount in a container…). */
export function mountTinyDisk(sizeKiB: number): TinyDisk | { reason: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tabletop-relay-tiny-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return {
      reason: `a tmpfs could not be mounted here (${stderr || (error as Error).message}); the injected failing writer covers this case`,
    };
  }
  const filler = join(dir, 'filler');
  const remount = (mode: 'ro' | 'rw') => execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
  return {
    dir,
    fill(freeBytes) {
      const descriptor = openSync(filler, 'w');
      const chunk = Buffer.alloc(PAGE, 1);
      try {
        for (;;) writeSync(descriptor, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      const written = fstatSync(descriptor).size;
      ftruncateSync(descriptor, Math.max(0, written - Math.ceil(freeBytes / PAGE) * PAGE));
      closeSync(descriptor);
    },
    empty: () => rmSync(filler, { force: true }),
    readOnly: () => remount('ro'),
    writable: () => remount('rw'),
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function temporaryFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp'));
}

/** The errno-style error a system call gives; for the injected failing writer. */
export function systemError(code: 'ENOSPC' | 'EROFS', syscall: string): NodeJS.ErrnoException {
  const message = code === 'ENOSPC' ? 'no space left on device' : 'read-only file system';
  return Object.assign(new Error(`${code}: ${message}, ${syscall}`), {
    code,
    syscall,
    errno: code === 'ENOSPC' ? -28 : -30,
  });
}
