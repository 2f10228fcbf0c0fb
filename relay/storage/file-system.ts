type FileSystem = typeof import('node:fs/promises');

/**
 * node:fs/promises, loaded at first use: its module loads readline and Node's file watchers with it, 1.5 MB of memory
 * that a relay serving no file from it never needs (`serve` loads nothing else of it at start). Compiled, a built-in
 * is required as CommonJS (scripts/build.ts), so its functions come as the default export; run from the sources, Node
 * gives them as named exports too.
 */
export async function fileSystem(): Promise<FileSystem> {
  const loaded: FileSystem & { default?: FileSystem } = await import('node:fs/promises');
  return loaded.default ?? loaded;
}
