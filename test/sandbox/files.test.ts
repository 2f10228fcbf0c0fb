import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskFileStore } from '../../sandbox/files/disk-store.ts';
import { memoryFileStore, storePath, type FileStore } from '../../sandbox/index.ts';
import { ask, sandbox } from './helpers.ts';

const ESCAPES = [
  '..',
  '../secret.txt',
  'maps/../../etc',
  '/etc/passwd',
  '%2e%2e/x',
  '%2E%2E%2Fx',
  '%252e%252e/x',
  'maps\\..\\x',
  'a\0b',
  'C:/Windows',
];

function base64Of(bytes: Uint8Array): string {
  return `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`;
}

describe('storePath', () => {
  it('normalises safe paths and refuses every escape, encoded or not', () => {
    expect(storePath('')).toBe('');
    expect(storePath('/')).toBe('');
    expect(storePath('maps//./dungeon/')).toBe('maps/dungeon');
    expect(storePath('my%20map.webp')).toBe('my%20map.webp');
    for (const path of ESCAPES)
      expect(() => storePath(path), path).toThrow(/^Refused path .*: paths must stay inside the world's data folder$/);
  });
});

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-files-'));
  directories.push(dir);
  return dir;
}

const stores: [string, () => Promise<FileStore>][] = [
  ['memory', async () => memoryFileStore()],
  ['disk', async () => diskFileStore(join(await tempDir(), 'data'))],
];

describe.each(stores)('file operations on the %s store', (_kind, makeStore) => {
  it('uploads binary and base64 data, browses and downloads identical bytes', async () => {
    const world = sandbox({ files: await makeStore() });
    const bytes = new Uint8Array(256).map((_, i) => i);
    expect(
      await ask(world, 'upload-file', { path: 'maps/dungeon', filename: 'floor.png', binaryData: [...bytes] }),
    ).toMatchObject({ success: true, path: 'maps/dungeon/floor.png' });
    expect(
      await ask(world, 'upload-file', {
        path: '/',
        filename: 'notes.txt',
        fileData: base64Of(new TextEncoder().encode('hello')),
        mimeType: 'text/plain',
      }),
    ).toMatchObject({ success: true, path: 'notes.txt' });
    const listing = await ask(world, 'file-system', {});
    expect(listing).toEqual({
      type: 'file-system-result',
      requestId: listing.requestId,
      success: true,
      path: '',
      source: 'data',
      recursive: false,
      results: [
        { name: 'maps', path: 'maps', type: 'directory' },
        { name: 'notes.txt', path: 'notes.txt', type: 'file' },
      ],
    });
    const deep = await ask(world, 'file-system', { recursive: true });
    expect(deep.results.map((entry: { path: string }) => entry.path)).toEqual([
      'maps',
      'notes.txt',
      'maps/dungeon',
      'maps/dungeon/floor.png',
    ]);
    const download = await ask(world, 'download-file', { path: 'maps/dungeon/floor.png' });
    expect(download).toMatchObject({
      success: true,
      path: 'maps/dungeon/floor.png',
      filename: 'floor.png',
      mimeType: 'image/png',
    });
    expect(new Uint8Array(Buffer.from(download.fileData.split(',')[1], 'base64'))).toEqual(bytes);
  });

  it('refuses overwrites unless asked, and skips existing files when told to', async () => {
    const world = sandbox({ files: await makeStore() });
    await ask(world, 'upload-file', { path: 'a', filename: 'b.txt', binaryData: [1] });
    expect((await ask(world, 'upload-file', { path: 'a', filename: 'b.txt', binaryData: [2] })).error).toBe(
      'File already exists. Set overwrite to true to replace it.',
    );
    expect(
      await ask(world, 'upload-file', { path: 'a', filename: 'b.txt', binaryData: [3], skipIfExists: true }),
    ).toMatchObject({ success: true, path: 'a/b.txt', skipped: true });
    await ask(world, 'upload-file', { path: 'a', filename: 'b.txt', binaryData: [4], overwrite: true });
    expect((await ask(world, 'download-file', { path: 'a/b.txt' })).fileData).toBe('data:text/plain;base64,BA==');
  });

  it('refuses path escapes in path, filename and download, touching nothing', async () => {
    const world = sandbox({ files: await makeStore() });
    for (const path of ESCAPES) {
      const upload = await ask(world, 'upload-file', { path, filename: 'x.txt', binaryData: [1] });
      expect(upload, path).toMatchObject({ success: false, error: expect.stringMatching(/^Refused path /) });
      expect((await ask(world, 'download-file', { path })).error, path).toMatch(/^Refused path /);
      expect((await ask(world, 'file-system', { path })).error, path).toMatch(/^Refused path /);
    }
    for (const filename of ['../x.txt', 'a/b.txt', '%2e%2e%2fx.txt']) {
      expect((await ask(world, 'upload-file', { path: 'ok', filename, binaryData: [1] })).error).toMatch(
        /^Refused path /,
      );
    }
    expect((await ask(world, 'file-system', {})).results).toEqual([]);
  });

  it('validates the upload and the permissions', async () => {
    const world = sandbox({ files: await makeStore() });
    const upload = (extra: Record<string, unknown>) =>
      ask(world, 'upload-file', { path: 'p', filename: 'f.txt', ...extra });
    expect((await upload({})).error).toBe('Missing file data (either binaryData or fileData is required)');
    expect((await upload({ binaryData: [] })).error).toBe('Invalid binary data: must be non-empty array');
    expect((await upload({ binaryData: [1, 256] })).error).toBe(
      'Invalid binary data: element 1 is not a byte value (0-255)',
    );
    expect((await upload({ fileData: 'aGVsbG8=' })).error).toBe(
      'Invalid file data format: must be data URL with base64 content',
    );
    expect((await upload({ fileData: 'data:text/plain;base64,***' })).error).toMatch(/^Invalid base64 data: /);
    expect((await ask(world, 'upload-file', { path: 'p', filename: 'run.exe', binaryData: [1] })).error).toMatch(
      /^Files of type "\.exe" cannot be uploaded/,
    );
    expect((await ask(world, 'upload-file', { filename: 'f.txt', binaryData: [1] })).error).toBe(
      'Missing required parameters (path, filename)',
    );
    expect((await upload({ binaryData: [1], userId: 'Dana' })).error).toBe(
      "User 'Dana' does not have 'FILES_UPLOAD' permission required to upload files",
    );
    expect((await ask(world, 'file-system', { userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have 'FILES_BROWSE' permission required to browse the file system",
    );
    expect((await ask(world, 'file-system', { userId: 'Dana' })).success).toBe(true);
    expect((await ask(world, 'file-system', { source: 's3' })).error).toBe(
      'Unsupported file source "s3": the sandbox world serves "data" and "public"',
    );
    expect((await ask(world, 'file-system', { path: 'nowhere' })).error).toBe(
      'Directory nowhere does not exist or is not accessible in this storage location',
    );
    expect((await ask(world, 'download-file', { path: 'nothing.png' })).error).toBe(
      'Failed to download file: 404 Not Found',
    );
    expect((await ask(world, 'download-file', {})).error).toBe('Missing required parameter (path)');
  });

  it('round-trips a 20 MB upload', async () => {
    const world = sandbox({ files: await makeStore() });
    const bytes = new Uint8Array(20 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 11)) & 0xff;
    expect(
      (await ask(world, 'upload-file', { path: 'big', filename: 'map.webp', fileData: base64Of(bytes) })).success,
    ).toBe(true);
    const download = await ask(world, 'download-file', { path: 'big/map.webp' });
    expect(Buffer.from(download.fileData.split(',')[1], 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('disk store', () => {
  it('writes real files inside its folder only', async () => {
    const outside = await tempDir();
    const root = join(outside, 'data');
    const world = sandbox({ files: diskFileStore(root) });
    await ask(world, 'upload-file', { path: 'maps', filename: 'm.png', binaryData: [9, 8, 7] });
    expect([...(await readFile(join(root, 'maps', 'm.png')))]).toEqual([9, 8, 7]);
    await ask(world, 'upload-file', { path: '..', filename: 'escape.txt', binaryData: [1] });
    expect(await readdir(outside)).toEqual(['data']);
  });

  it('refuses to follow a symbolic link out of the folder', async () => {
    const outside = await tempDir();
    await writeFile(join(outside, 'secret.txt'), 'secret');
    const root = join(outside, 'data');
    const store = diskFileStore(root);
    await store.list('');
    await symlink(outside, join(root, 'link'));
    const world = sandbox({ files: store });
    expect((await ask(world, 'download-file', { path: 'link/secret.txt' })).error).toMatch(/^Refused path /);
    expect((await ask(world, 'upload-file', { path: 'link', filename: 'x.txt', binaryData: [1] })).error).toMatch(
      /^Refused path /,
    );
    expect((await readdir(outside)).sort()).toEqual(['data', 'secret.txt']);
  });
});
