import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { mountTinyDisk, temporaryFilesIn, type TinyDisk } from './tiny-disk.ts';

// The injected failing writer, for where no tmpfs can be mounted: while on, creating a file fails with EROFS, as in a
// directory on a read-only file system.
const injected = vi.hoisted(() => ({ readOnly: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = (path: string, flags: string, mode?: number): number => {
    if (injected.readOnly && flags === 'w')
      throw Object.assign(new Error(`EROFS: read-only file system, open '${path}'`), {
        code: 'EROFS',
        syscall: 'open',
      });
    return fs.openSync(path, flags, mode);
  };
  return { ...fs, openSync };
});

let harness: TestRelay | undefined;
let disk: TinyDisk | undefined;
let plainDir: string | undefined;

afterEach(async () => {
  injected.readOnly = false;
  disk?.writable();
  await harness?.close();
  disk?.unmount();
  if (plainDir) rmSync(plainDir, { recursive: true, force: true });
  harness = disk = plainDir = undefined;
  vi.restoreAllMocks();
});

/**
 * Makes a key, turns the data directory read-only, narrows the key's scopes and changes a setting: both must stay as
 * they were. (Revoking is the one exception, which takes effect all the same: item 32.)
 */
async function changeOnReadOnlyDirectory(relay: TestRelay, dataDir: string, makeReadOnly: () => void): Promise<void> {
  const created = await relay.admin('POST', '/admin/keys', { name: 'kept', scopes: ['clients:read'] });
  expect(created.status).toBe(201);
  const { id, key } = created.body as { id: string; key: string };
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});

  makeReadOnly();
  const narrow = await relay.admin('PATCH', `/admin/keys/${id}`, { scopes: ['roll:read'] });
  const settings = await relay.admin('PATCH', '/admin/settings', { requestsPerMinute: 5 });

  expect(narrow.status).toBe(500);
  expect(narrow.body.error).toBe(
    'Tabletop Relay could not write its data directory (EROFS): nothing was changed. Its log names the directory',
  );
  expect(narrow.text).not.toContain(dataDir);
  expect((await relay.api(key, 'GET', '/clients')).status).toBe(200);
  expect(settings.status).toBe(500);
  expect((await relay.admin('GET', '/admin/settings')).body.requestsPerMinute).not.toBe(5);
  expect(temporaryFilesIn(dataDir)).toEqual([]);

  // Stopping stores last-used times, which fails here: it must still stop, with one line that names no key.
  await expect(relay.restart()).resolves.toBeUndefined();
  expect(logged.mock.calls.flat().join('\n')).not.toContain(key);
  expect((await relay.api(key, 'GET', '/clients')).status).toBe(200);
  expect((await relay.admin('GET', '/admin/keys')).body.keys.map((listed: { id: string }) => listed.id)).toContain(id);
}

describe('item 09: with a read-only data directory nothing changes unless it was stored, and stopping never crashes', () => {
  it('on a real read-only tmpfs a key change answers 500, the key keeps working, and still works after a restart', async (context) => {
    const mounted = mountTinyDisk(512);
    if ('reason' in mounted) return context.skip(mounted.reason);
    disk = mounted;
    harness = await startTestRelay({ dataDir: disk.dir, capture: false });
    await changeOnReadOnlyDirectory(harness, disk.dir, () => mounted.readOnly());
  });

  it('with an injected writer that fails with EROFS, the same holds', async () => {
    plainDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-read-only-'));
    harness = await startTestRelay({ dataDir: plainDir, capture: false });
    await changeOnReadOnlyDirectory(harness, plainDir, () => {
      injected.readOnly = true;
    });
  });
});
