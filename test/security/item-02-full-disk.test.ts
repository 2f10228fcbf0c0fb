import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOOL_SCOPES } from '../../relay/auth/scopes.ts';
import { keyFileSecrets } from '../../relay/capture/secrets.ts';
import { StorageWriteError } from '../../relay/storage/json-file.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { mountTinyDisk, temporaryFilesIn, type TinyDisk } from './tiny-disk.ts';
import { injectedWriter } from './short-writes.ts';

// The injected failing writer of item 02 (short-writes.ts), for where no tmpfs can be mounted.
vi.mock('node:fs', async (importOriginal) =>
  (await import('./short-writes.ts')).withShortWrites(await importOriginal<typeof import('node:fs')>()),
);

const KEY_COUNT = 10;
let harness: TestRelay | undefined;
let disk: TinyDisk | undefined;
let plainDir: string | undefined;

afterEach(async () => {
  injectedWriter.shortWrites = false;
  disk?.empty();
  await harness?.close();
  disk?.unmount();
  if (plainDir) rmSync(plainDir, { recursive: true, force: true });
  harness = disk = plainDir = undefined;
  vi.restoreAllMocks();
});

interface MadeKey {
  id: string;
  key: string;
}

/** Keys with long names and every scope, so that api-keys.json spans several pages and a full disk cuts it short. */
async function makeKeys(relay: TestRelay): Promise<MadeKey[]> {
  const keys: MadeKey[] = [];
  const scopes = TOOL_SCOPES;
  for (let index = 0; index < KEY_COUNT; index += 1) {
    const answer = await relay.admin('POST', '/admin/keys', { name: `${index} ${'long name '.repeat(9)}`, scopes });
    expect(answer.status).toBe(201);
    keys.push({ id: answer.body.id, key: answer.body.key });
  }
  return keys;
}

async function expectEveryKeyWorks(relay: TestRelay, keys: MadeKey[]): Promise<void> {
  for (const { key } of keys) expect((await relay.api(key, 'GET', '/clients')).status).toBe(200);
  expect((await relay.admin('GET', '/admin/keys')).body.keys.map((key: MadeKey) => key.id).sort()).toEqual(
    keys.map((key) => key.id).sort(),
  );
}

/** Creates keys, fills the disk, tries one more key, and checks that nothing changed, on disk or after a restart. */
async function createKeyOnFullDisk(relay: TestRelay, dataDir: string, fillDisk: () => void): Promise<void> {
  const keys = await makeKeys(relay);
  const keyFile = join(dataDir, 'api-keys.json');
  const before = readFileSync(keyFile);
  expect(before.length).toBeGreaterThan(2 * 4096);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});

  fillDisk();
  const refused = await relay.admin('POST', '/admin/keys', {
    name: 'made while the disk is full',
    scopes: ['clients:read'],
  });

  expect(refused.status).toBe(507);
  expect(refused.body.error).toMatch(/^The disk is full: nothing was changed/);
  expect(refused.body.key).toBeUndefined();
  expect(readFileSync(keyFile).equals(before)).toBe(true);
  expect(temporaryFilesIn(dataDir)).toEqual([]);
  await expectEveryKeyWorks(relay, keys);

  // Stopping stores last-used times, which fails on the full disk: it must still stop, and log no key.
  await relay.restart();
  expect(JSON.stringify(logged.mock.calls)).not.toMatch(/ttr_/);
  await expectEveryKeyWorks(relay, keys);
}

describe('item 02: a full disk never destroys the key store', () => {
  it('on a real full disk (tmpfs) a new key answers 507, is not kept, the old file stays, and a restart keeps every key', async (context) => {
    const mounted = mountTinyDisk(512);
    if ('reason' in mounted) return context.skip(mounted.reason);
    disk = mounted;
    harness = await startTestRelay({ dataDir: disk.dir, capture: false });
    await createKeyOnFullDisk(harness, disk.dir, () => mounted.fill(4096));
  });

  it('with an injected writer that writes short then fails (ENOSPC), the same holds', async () => {
    plainDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-short-writes-'));
    harness = await startTestRelay({ dataDir: plainDir, capture: false });
    await createKeyOnFullDisk(harness, plainDir, () => {
      injectedWriter.shortWrites = true;
    });
  });

  it('the capture password key is never left cut short: sealing fails, then works once there is room', () => {
    plainDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-short-writes-'));
    injectedWriter.shortWrites = true;
    expect(() => keyFileSecrets(plainDir!).seal('hunter2')).toThrow(StorageWriteError);
    expect(readdirSync(plainDir)).toEqual([]);
    injectedWriter.shortWrites = false;
    const secrets = keyFileSecrets(plainDir);
    expect(keyFileSecrets(plainDir).open(secrets.seal('hunter2'))).toBe('hunter2');
  });
});
