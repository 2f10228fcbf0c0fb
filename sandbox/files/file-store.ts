// The world's data folder as the file-system operations see it. The world core only knows this port, so it runs in a
// browser with the memory store; Node callers can pass the disk store (disk-store.ts) to keep files in a real folder.

export interface DirectoryListing {
  /** Paths relative to the store's root, as FilePicker.browse gives them. */
  dirs: string[];
  files: string[];
}

/** Every path a store method receives has passed `storePath` (paths.ts): relative, "/"-separated, no "." or "..". */
export interface FileStore {
  /** The entries directly inside `dir` ("" is the root), or null when there is no such directory. */
  list(dir: string): Promise<DirectoryListing | null>;
  read(path: string): Promise<Uint8Array | null>;
  kindOf(path: string): Promise<'file' | 'directory' | null>;
  /** Writes the file, creating its parent directories. */
  write(path: string, bytes: Uint8Array): Promise<void>;
}

/** A store refusing an operation, e.g. writing where a directory stands. */
export class FileStoreError extends Error {}
