import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

/**
 * One JSON document on disk, replaced atomically: the new text goes to a temporary file that is flushed and then
 * renamed over the old one, so a crash at any moment leaves either the old or the new document, never a mix.
 */
export class JsonFile<T> {
  readonly path: string;
  private readonly mode: number;

  constructor(path: string, options: { mode?: number } = {}) {
    this.path = path;
    this.mode = options.mode ?? 0o600;
  }

  read(fallback: T): T {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${this.path} is not valid JSON; restore it from a backup or delete it to start afresh`);
    }
  }

  write(value: T): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    const descriptor = openSync(temporary, 'w', this.mode);
    try {
      writeSync(descriptor, `${JSON.stringify(value, null, 2)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, this.path);
  }
}
