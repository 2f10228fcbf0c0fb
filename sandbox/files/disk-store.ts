// A FileStore in a real folder (Node only). Paths have already passed `storePath`; this store checks again, after
// resolving symbolic links, that every path it touches stays inside the root.
import { mkdir, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FileStoreError, type FileStore } from './file-store.ts';
import { UnsafePathError } from './paths.ts';

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function kindAt(absolute: string): Promise<'file' | 'directory' | null> {
  try {
    const info = await stat(absolute);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

export function diskFileStore(rootDir: string): FileStore {
  const root = resolve(rootDir);
  let realRoot: Promise<string> | null = null;
  const ensureRoot = () => (realRoot ??= mkdir(root, { recursive: true }).then(() => realpath(root)));

  /** The absolute path for a store path, refusing one whose nearest existing ancestor resolves outside the root. */
  const locate = async (path: string): Promise<string> => {
    const realRootPath = await ensureRoot();
    const absolute = resolve(root, path);
    if (!isInside(root, absolute)) throw new UnsafePathError(path);
    let existing = absolute;
    while (!(await kindAt(existing)) && existing !== root) existing = dirname(existing);
    if (!isInside(realRootPath, await realpath(existing))) throw new UnsafePathError(path);
    return absolute;
  };

  return {
    async list(dir) {
      const absolute = await locate(dir);
      if ((await kindAt(absolute)) !== 'directory') return null;
      const entries = await readdir(absolute, { withFileTypes: true });
      const pathOf = (name: string) => (dir ? `${dir}/${name}` : name);
      const names = (keep: (entry: (typeof entries)[number]) => boolean) =>
        entries
          .filter(keep)
          .map((entry) => pathOf(entry.name))
          .sort();
      return {
        dirs: names((entry) => entry.isDirectory()),
        files: names((entry) => entry.isFile() && !entry.name.startsWith('.upload-')),
      };
    },
    async read(path) {
      const absolute = await locate(path);
      if ((await kindAt(absolute)) !== 'file') return null;
      return new Uint8Array(await readFile(absolute));
    },
    async kindOf(path) {
      return kindAt(await locate(path));
    },
    async write(path, bytes) {
      const absolute = await locate(path);
      if ((await kindAt(absolute)) === 'directory')
        throw new FileStoreError(`Could not write '${path}': a directory has that name`);
      try {
        await mkdir(dirname(absolute), { recursive: true });
      } catch (error) {
        throw new FileStoreError(
          `Could not create directory '${relative(root, dirname(absolute))}': ${(error as Error).message}`,
        );
      }
      const temporary = join(dirname(absolute), `.upload-${process.pid}-${Date.now()}`);
      await writeFile(temporary, bytes);
      await rename(temporary, absolute);
    },
  };
}
