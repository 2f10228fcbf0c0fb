// A FileStore held in memory: the default, so the world core needs no file system.
import type { DirectoryListing, FileStore } from './file-store.ts';
import { FileStoreError } from './file-store.ts';
import { parentOf } from './paths.ts';

export function memoryFileStore(): FileStore {
  const files = new Map<string, Uint8Array>();
  const directories = new Set<string>(['']);

  const kindOf = (path: string) => (directories.has(path) ? 'directory' : files.has(path) ? 'file' : null);

  const makeDirectories = (dir: string) => {
    const missing: string[] = [];
    for (let current = dir; !directories.has(current); current = parentOf(current)) {
      if (files.has(current)) throw new FileStoreError(`Could not create directory '${current}': a file has that name`);
      missing.push(current);
    }
    missing.forEach((path) => directories.add(path));
  };

  return {
    async list(dir) {
      if (!directories.has(dir)) return null;
      const listing: DirectoryListing = { dirs: [], files: [] };
      const isChild = (path: string) => path !== '' && path !== dir && parentOf(path) === dir;
      listing.dirs = [...directories].filter(isChild).sort();
      listing.files = [...files.keys()].filter(isChild).sort();
      return listing;
    },
    async read(path) {
      const bytes = files.get(path);
      return bytes ? bytes.slice() : null;
    },
    async kindOf(path) {
      return kindOf(path);
    },
    async write(path, bytes) {
      if (directories.has(path)) throw new FileStoreError(`Could not write '${path}': a directory has that name`);
      makeDirectories(parentOf(path));
      files.set(path, bytes.slice());
    },
  };
}
