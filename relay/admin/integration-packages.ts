// The Stream Deck integrations' built files, which the settings UI offers for download: the Elgato plugin and the
// Companion module package. The shells say where each build lands (dist/streamdeck and dist/companion in the project;
// resources/integrations/ in the desktop package); the relay reads the file afresh at each download.
import { join } from 'node:path';
import { HttpError } from '../errors.ts';
import type { Answer } from '../routing/route.ts';
import type { IntegrationPackageFolders } from '../services.ts';
import { fileSystem } from '../storage/file-system.ts';
import type { IntegrationPackageName, IntegrationPackageView } from '../../contracts/integration-packages.ts';

interface PackageKind {
  title: string;
  folder: keyof IntegrationPackageFolders;
  /** Picks the package file among the folder's entries: other build output (the unpacked plugin) stays unserved. */
  isPackageFile(fileName: string): boolean;
  contentType: string;
  buildCommand: string;
}

/** The name Elgato's CLI packs the plugin into: `<plugin UUID>.streamDeckPlugin`. */
export const STREAM_DECK_PLUGIN_FILE = 'org.tabletoprelay.deck.streamDeckPlugin';

export const PACKAGE_KINDS: Record<IntegrationPackageName, PackageKind> = {
  'stream-deck': {
    title: 'Elgato Stream Deck plugin',
    folder: 'streamDeck',
    isPackageFile: (fileName) => fileName === STREAM_DECK_PLUGIN_FILE,
    // A ZIP archive under its own extension; application/zip would let a browser unpack it instead of keeping the file.
    contentType: 'application/octet-stream',
    buildCommand: 'npm run build:streamdeck',
  },
  companion: {
    title: 'Bitfocus Companion module',
    folder: 'companion',
    // Companion imports a module as the .tgz its build tool packs, named after the module and its version.
    isPackageFile: (fileName) => /^[\w.-]+\.tgz$/.test(fileName),
    contentType: 'application/gzip',
    buildCommand: 'npm run build:companion',
  },
};

export function downloadPath(name: IntegrationPackageName): string {
  return `/admin/downloads/${name}`;
}

interface BuiltFile {
  name: string;
  path: string;
  bytes: number;
  modifiedMs: number;
}

/** The package's file, the newest when a folder holds several builds; undefined when it was not built. */
async function builtFile(
  name: IntegrationPackageName,
  folders: IntegrationPackageFolders,
): Promise<BuiltFile | undefined> {
  const kind = PACKAGE_KINDS[name];
  const folder = folders[kind.folder];
  if (folder === undefined) return undefined;
  const { readdir, stat } = await fileSystem();
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries
      .filter((entry) => entry.isFile() && kind.isPackageFile(entry.name))
      .map(async (entry) => {
        const path = join(folder, entry.name);
        const facts = await stat(path);
        return { name: entry.name, path, bytes: facts.size, modifiedMs: facts.mtimeMs };
      }),
  );
  return files.sort((a, b) => b.modifiedMs - a.modifiedMs)[0];
}

export async function packageView(
  name: IntegrationPackageName,
  folders: IntegrationPackageFolders,
): Promise<IntegrationPackageView> {
  const { title, buildCommand } = PACKAGE_KINDS[name];
  const file = await builtFile(name, folders);
  return {
    name,
    title,
    path: downloadPath(name),
    buildCommand,
    ...(file ? { file: { name: file.name, bytes: file.bytes, builtAt: new Date(file.modifiedMs).toISOString() } } : {}),
  };
}

function notBuilt(name: IntegrationPackageName): HttpError {
  const { title, buildCommand } = PACKAGE_KINDS[name];
  return new HttpError(404, `The ${title} was not built. Build it with ${buildCommand} in the project folder`);
}

/** The package's file as an attachment under its own name, or a 404 that says how to build it. */
export async function packageDownload(
  name: IntegrationPackageName,
  folders: IntegrationPackageFolders,
): Promise<Answer> {
  const file = await builtFile(name, folders);
  if (!file) throw notBuilt(name);
  const { readFile } = await fileSystem();
  const bytes = await readFile(file.path).catch(() => {
    throw notBuilt(name);
  });
  return {
    kind: 'bytes',
    bytes,
    headers: {
      'Content-Type': PACKAGE_KINDS[name].contentType,
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}
