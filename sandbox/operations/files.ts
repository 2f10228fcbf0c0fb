// file-system, upload-file, download-file (module-protocol.md §4.11 File system) on the world's FileStore.
// Every caller path goes through `storePath`, which refuses anything that would leave the data folder.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { FileStoreError, type FileStore } from '../files/file-store.ts';
import { isUploadable, extensionOf, mimeTypeOf } from '../files/media-types.ts';
import { baseNameOf, joinStorePath, storePath, UnsafePathError } from '../files/paths.ts';
import { dataUrl } from '../images/encoding.ts';
import { assertUserCan } from '../world/permissions.ts';
import { reply, withUser, type OperationContext, type OperationTable } from './context.ts';

/** Bounds one upload; Foundry has no limit of its own, but a sandbox world keeps its files in memory or one folder. */
const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

interface Entry {
  name: string;
  path: string;
  type: 'directory' | 'file';
}

/** The folder `source` names for browsing: the world's data folder, or Foundry's own public folder. */
function browsedStore(request: WorldRequest, context: OperationContext): { source: string; store: FileStore } {
  const source = (request.source as string | undefined) || 'data';
  if (source === 'data') return { source, store: context.files };
  if (source === 'public') return { source, store: context.publicFiles };
  throw new Error(`Unsupported file source "${source}": the sandbox world serves "data" and "public"`);
}

/** Uploads go to the data folder; Foundry's public folder belongs to Foundry. */
function assertUploadSource(request: WorldRequest): void {
  const source = (request.source as string | undefined) || 'data';
  if (source !== 'data')
    throw new Error(`Unsupported upload source "${source}": the sandbox world takes uploads into "data" only`);
}

async function browse(files: FileStore, dir: string): Promise<{ dirs: Entry[]; files: Entry[] }> {
  const listing = await files.list(dir);
  if (!listing) throw new Error(`Directory ${dir || '/'} does not exist or is not accessible in this storage location`);
  const entry =
    (type: Entry['type']) =>
    (path: string): Entry => ({ name: baseNameOf(path), path, type });
  return { dirs: listing.dirs.map(entry('directory')), files: listing.files.map(entry('file')) };
}

/** The module's recursive listing: the subdirectories' contents, and one level further below shallow paths. */
async function nestedEntries(files: FileStore, dirs: Entry[]): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (const dir of dirs) {
    const sub = await browse(files, dir.path);
    entries.push(...sub.dirs, ...sub.files);
    if (dir.path.split('/').length >= 3) continue;
    for (const subDir of sub.dirs) {
      const deep = await browse(files, subDir.path);
      entries.push(...deep.dirs, ...deep.files);
    }
  }
  return entries;
}

function bytesFromArray(values: unknown): Uint8Array {
  if (!Array.isArray(values) || values.length === 0) throw new Error('Invalid binary data: must be non-empty array');
  const bytes = new Uint8Array(values.length);
  values.forEach((value, i) => {
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 255) {
      throw new Error(`Invalid binary data: element ${i} is not a byte value (0-255)`);
    }
    bytes[i] = value as number;
  });
  return bytes;
}

function bytesFromDataUrl(fileData: unknown): Uint8Array {
  const text = String(fileData);
  if (!text.includes(',') || !text.startsWith('data:'))
    throw new Error('Invalid file data format: must be data URL with base64 content');
  const base64 = text.split(',')[1];
  if (!base64) throw new Error('No base64 data found in file data');
  let binary: string;
  try {
    binary = atob(base64);
  } catch (error) {
    throw new Error(`Invalid base64 data: ${(error as Error).message}`, { cause: error });
  }
  if (binary.length === 0) throw new Error('Decoded file data is empty');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function uploadBytes(request: WorldRequest): Uint8Array {
  let bytes: Uint8Array;
  if (request.binaryData) bytes = bytesFromArray(request.binaryData);
  else if (request.fileData) bytes = bytesFromDataUrl(request.fileData);
  else throw new Error('Missing file data (either binaryData or fileData is required)');
  if (bytes.length > MAX_UPLOAD_BYTES)
    throw new Error(`File is too large (${bytes.length} bytes); the limit is ${MAX_UPLOAD_BYTES} bytes`);
  return bytes;
}

/** The stored path of an upload: `filename` must be one plain name inside the (safe) `path`. */
function uploadTarget(request: WorldRequest): string {
  const filename = String(request.filename);
  const name = storePath(filename);
  if (name !== filename || name.includes('/')) throw new UnsafePathError(filename);
  if (!isUploadable(name))
    throw new Error(
      `Files of type ".${extensionOf(name)}" cannot be uploaded; allowed are images, audio, video, text, fonts and 3D models`,
    );
  return joinStorePath(storePath(request.path), name);
}

async function writeUpload(files: FileStore, target: string, bytes: Uint8Array): Promise<void> {
  try {
    await files.write(target, bytes);
  } catch (error) {
    if (error instanceof FileStoreError)
      throw new Error(`Could not create directory structure: ${error.message}`, { cause: error });
    throw error;
  }
}

export const fileOperations: OperationTable = {
  'file-system': withUser({ success: false }, async (request, context, user) => {
    if (user) assertUserCan(user, 'FILES_BROWSE', 'browse the file system');
    const path = (request.path as string | undefined) || '';
    const { source, store } = browsedStore(request, context);
    const recursive = Boolean(request.recursive) && request.recursive !== 'false';
    const top = await browse(store, storePath(path));
    const results = [...top.dirs, ...top.files, ...(recursive ? await nestedEntries(store, top.dirs) : [])];
    return reply(request, { success: true, path, source, results, recursive });
  }),

  'upload-file': withUser({ success: false }, async (request, { files }, user) => {
    if (user) assertUserCan(user, 'FILES_UPLOAD', 'upload files');
    if (!request.path || !request.filename) throw new Error('Missing required parameters (path, filename)');
    const target = uploadTarget(request);
    assertUploadSource(request);
    const bytes = uploadBytes(request);
    const existing = await files.kindOf(target);
    if (existing && request.skipIfExists) return reply(request, { success: true, path: target, skipped: true });
    if (existing && !request.overwrite) throw new Error('File already exists. Set overwrite to true to replace it.');
    await writeUpload(files, target, bytes);
    return reply(request, { success: true, path: target });
  }),

  // The module fetches the path from Foundry's root, where the data folder and the public folder are both served.
  'download-file': withUser({ success: false }, async (request, { files, publicFiles }, user) => {
    if (user) assertUserCan(user, 'FILES_BROWSE', 'download files');
    if (!request.path) throw new Error('Missing required parameter (path)');
    const path = storePath(request.path);
    const bytes = path ? ((await files.read(path)) ?? (await publicFiles.read(path))) : null;
    if (!bytes) throw new Error('Failed to download file: 404 Not Found');
    const mimeType = mimeTypeOf(path);
    return reply(request, {
      success: true,
      path: request.path,
      fileData: dataUrl(mimeType, bytes),
      filename: baseNameOf(path) || 'file',
      mimeType,
    });
  }),
};
