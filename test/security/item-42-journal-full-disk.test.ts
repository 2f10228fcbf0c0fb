import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { latestOf } from '../harness/journal.ts';
import { mountTinyDisk, type TinyDisk } from './tiny-disk.ts';
import { injectedWriter } from './short-writes.ts';

// Item 42: a change the journal cannot store is not made. The change is stored before its call goes to the world, so a
// full or read-only disk refuses the call (507 or 500, "nothing was changed") and the world stays as it was: no tool's
// change ever escapes the journal, and so its undo, because the disk filled up.

vi.mock('node:fs', async (importOriginal) =>
  (await import('./short-writes.ts')).withShortWrites(await importOriginal<typeof import('node:fs')>()),
);

let harness: WorldHarness | undefined;
let disk: TinyDisk | undefined;
let plainDir: string | undefined;

afterEach(async () => {
  injectedWriter.shortWrites = false;
  disk?.empty();
  if (disk?.dir) disk.writable();
  await harness?.close();
  disk?.unmount();
  if (plainDir) rmSync(plainDir, { recursive: true, force: true });
  harness = disk = plainDir = undefined;
  vi.restoreAllMocks();
});

/** Renames the Goblin while the disk refuses writes: refused with `status`, and neither the world nor the journal moved. */
async function renameRefused(relay: WorldHarness, dataDir: string, status: number, refuseWrites: () => void) {
  const goblin = await uuidOf(relay, 'Goblin');
  const rename = (name: string) => relay.api(relay.key, 'PUT', '/update', { body: { uuid: goblin, data: { name } } });
  expect((await rename('Goblin Scout')).status).toBe(200);
  const journaled = (await latestOf(relay, 'PUT', '/update')).id;
  vi.spyOn(console, 'error').mockImplementation(() => {});

  refuseWrites();
  const refused = await rename('Goblin Boss');
  expect(refused.status).toBe(status);
  expect(refused.body.error).toMatch(/nothing was changed/);
  expect(relay.world.game.fromUuid(goblin)!.name).toBe('Goblin Scout');
  const { changes } = (await relay.admin('GET', '/admin/changes')).body;
  expect(changes.map((change: { id: string }) => change.id)).toEqual([journaled]);
  expect(readdirSync(join(dataDir, 'changes')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  return rename;
}

describe('item 42: a change the journal cannot store is refused, never made unrecorded', () => {
  it('on a real full disk (tmpfs) the write is a 507 and the world stays as it was; with room again it is made', async (context) => {
    const mounted = mountTinyDisk(1024);
    if ('reason' in mounted) return context.skip(mounted.reason);
    disk = mounted;
    harness = await startRelayWithWorld({ relay: { dataDir: mounted.dir, capture: false } });
    const rename = await renameRefused(harness, mounted.dir, 507, () => mounted.fill(0));
    mounted.empty();
    expect((await rename('Goblin Boss')).status).toBe(200);
    expect((await latestOf(harness, 'PUT', '/update')).asked).toMatchObject({ data: { name: 'Goblin Boss' } });
  });

  it('on a read-only disk the write is a 500 that says the data directory could not be written', async (context) => {
    const mounted = mountTinyDisk(1024);
    if ('reason' in mounted) return context.skip(mounted.reason);
    disk = mounted;
    harness = await startRelayWithWorld({ relay: { dataDir: mounted.dir, capture: false } });
    await renameRefused(harness, mounted.dir, 500, () => mounted.readOnly());
  });

  it('with an injected writer that writes short then fails (ENOSPC), the same holds', async () => {
    plainDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-journal-short-writes-'));
    harness = await startRelayWithWorld({ relay: { dataDir: plainDir, capture: false } });
    await renameRefused(harness, plainDir, 507, () => {
      injectedWriter.shortWrites = true;
    });
  });
});
