// The injected failing writer, for where no tmpfs can be mounted. A test file installs it with
//   vi.mock('node:fs', async (importOriginal) =>
//     (await import('./short-writes.ts')).withShortWrites(await importOriginal<typeof import('node:fs')>()));
// This module imports nothing from node:fs itself, so the mock can load it.
type FileSystem = typeof import('node:fs');

/**
 * While `shortWrites` is on, each write to a file is cut to half its bytes and the next write to it fails with ENOSPC,
 * as a disk that fills up in the middle of a write does.
 */
export const injectedWriter = { shortWrites: false, cut: new Set<number>() };

export function withShortWrites(fs: FileSystem): FileSystem {
  const writeSync = (descriptor: number, data: string | NodeJS.ArrayBufferView, ...rest: any[]): number => {
    if (!injectedWriter.shortWrites) return (fs.writeSync as (...args: unknown[]) => number)(descriptor, data, ...rest);
    if (injectedWriter.cut.has(descriptor))
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    injectedWriter.cut.add(descriptor);
    const bytes =
      typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const offset = typeof data === 'string' ? 0 : ((rest[0] as number | undefined) ?? 0);
    const length = typeof data === 'string' ? bytes.length : ((rest[1] as number | undefined) ?? bytes.length - offset);
    return fs.writeSync(descriptor, bytes, offset, Math.ceil(length / 2));
  };
  const closeSync = (descriptor: number) => {
    injectedWriter.cut.delete(descriptor);
    fs.closeSync(descriptor);
  };
  return { ...fs, writeSync, closeSync } as FileSystem;
}
