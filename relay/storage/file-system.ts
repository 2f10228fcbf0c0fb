/**
 * node:fs/promises, loaded at first use: its module loads readline and Node's file watchers with it, 1.5 MB of memory
 * that a relay serving no file from it never needs (`serve` loads nothing else of it at start).
 */
export function fileSystem() {
  return import('node:fs/promises');
}
