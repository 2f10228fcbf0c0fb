// Packages the desktop app as `npm run package:app` does, but only electron-builder's unpacked Linux build (`--dir`), against
// a stand-in Electron distribution and with the network refused, then reads what the package holds.
//   node scripts/package-check.ts [outDir]   packages this project into outDir (default: release/package-check)
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { extractAll, getRawHeader } from '@electron/asar';
import { build, type Plugin } from 'esbuild';

const root = join(import.meta.dirname, '..');
const THIS_SCRIPT = join(import.meta.dirname, 'package-check.ts');
/** What a fresh clone does not have: builds, packages, history. */
const LEFT_OUT_OF_THE_COPY = new Set(['.git', 'dist', 'release', '.data']);

/** Copies a folder as hard links (no time, no disk), falling back to copies across file systems; links stay links. */
function linkTree(from: string, to: string, leftOut: ReadonlySet<string> = new Set()): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (leftOut.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkOrCopy(source, target);
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
}

/**
 * A private copy of this project, node_modules included, where the app is built and packaged: other steps that rebuild
 * dist/ (tests run in parallel) cannot change it meanwhile. Nothing in it may be written in place: its files are links.
 */
export function copyProject(to: string): void {
  linkTree(root, to, LEFT_OUT_OF_THE_COPY);
}

function installedElectronVersion(projectDir = root): string {
  const manifest = JSON.parse(readFileSync(join(projectDir, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

export interface PackageRun {
  /** The unpacked app, as electron-builder's `dir` target leaves it (linux-unpacked). */
  appOutDir: string;
  /** Network connections and host lookups that were attempted (and refused). */
  blockedConnections: string[];
  /** Commands electron-builder started. */
  startedCommands: string[];
}

/** Runs electron-builder's unpacked Linux build of `projectDir` into `outDir`, in its own process with the network refused. */
export async function packageLinuxDir(projectDir: string, outDir: string): Promise<PackageRun> {
  await promisify(execFile)(process.execPath, [THIS_SCRIPT, projectDir, outDir], {
    cwd: projectDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(readFileSync(join(outDir, 'package-run.json'), 'utf8')) as PackageRun;
}

interface HeaderNode {
  files?: Record<string, HeaderNode>;
  link?: string;
  size?: number;
}

export interface ArchiveFile {
  path: string;
  size: number;
}

/** Every file in an asar archive, with its size, read from the archive's own header. */
export function archiveFiles(archive: string): ArchiveFile[] {
  const files: ArchiveFile[] = [];
  const visit = (node: HeaderNode, path: string): void => {
    if (node.files)
      for (const [name, child] of Object.entries(node.files)) visit(child, path ? `${path}/${name}` : name);
    else if (node.link === undefined) files.push({ path, size: node.size ?? 0 });
  };
  visit(getRawHeader(archive).header as HeaderNode, '');
  return files;
}

export function extractArchive(archive: string, to: string): void {
  extractAll(archive, to);
}

export interface ImportGraph {
  /** Every file the entries load, relative to the archive's root. */
  files: string[];
  /** Specifiers left to the runtime: Node's built-in modules and Electron's own `electron`. */
  runtimeModules: string[];
  /** Imports that resolve to nothing in the archive but sit in a try/catch, so the code runs without them: `importer → specifier`. */
  missingOptional: string[];
  /** Imports that resolved outside the archive: the package would miss them on a user's machine. */
  resolvedOutside: string[];
}

const INNER_RESOLVE = Symbol('inner resolve');

function watchResolution(archiveRoot: string, graph: ImportGraph): Plugin {
  return {
    name: 'inside-the-archive',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === INNER_RESOLVE) return undefined;
        const result = await builder.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER_RESOLVE,
        });
        const importer = relative(archiveRoot, args.importer).split(sep).join('/');
        if (result.errors.length > 0) graph.missingOptional.push(`${importer} → ${args.path}`);
        else if (result.external) graph.runtimeModules.push(args.path);
        else if (relative(archiveRoot, result.path).startsWith('..'))
          graph.resolvedOutside.push(`${importer} → ${result.path}`);
        return undefined;
      });
    },
  };
}

/**
 * Walks the import graph from `entries` (paths inside the extracted archive) the way Node resolves it in Electron's main
 * process: static imports, `require` calls and `import()` of string literals, through each package's `exports` with
 * Node's conditions (Electron 45 runs Node 24: `node`, `module-sync`, then `import`/`require`, `default`) or its `main`
 * (never the bundlers' `module` field). Only `electron` is left to the runtime, as Electron provides it. An import
 * that cannot resolve fails the walk unless it sits in a try/catch; `require` of a computed name cannot be followed.
 */
export async function importGraph(archiveRoot: string, entries: string[]): Promise<ImportGraph> {
  const graph: ImportGraph = { files: [], runtimeModules: [], missingOptional: [], resolvedOutside: [] };
  const result = await build({
    absWorkingDir: archiveRoot,
    entryPoints: entries,
    outdir: join(archiveRoot, '..', 'import-graph-bundle'),
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    mainFields: ['main'],
    conditions: ['node', 'module-sync'],
    external: ['electron'],
    metafile: true,
    logLevel: 'silent',
    plugins: [watchResolution(archiveRoot, graph)],
  });
  graph.files = Object.keys(result.metafile.inputs).sort();
  graph.runtimeModules = [...new Set(graph.runtimeModules)].sort();
  return graph;
}

export function isRuntimeModule(specifier: string): boolean {
  return specifier === 'electron' || isBuiltin(specifier);
}

/** The package folders in an archive's file list: `node_modules/x` and `node_modules/@scope/x`, nested ones included. */
export function packageFolders(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(file);
    if (match) folders.add(match[1]!);
  }
  return [...folders].sort();
}

/** The package folder a file belongs to, or undefined for the app's own files. */
export function packageFolderOf(file: string): string | undefined {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/** The first bytes of native executables and libraries: ELF (Linux), Mach-O (macOS), PE (Windows). */
export function isNativeBinary(firstBytes: Buffer): boolean {
  const magic = firstBytes.readUInt32BE(0);
  const machO = [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe];
  return magic === 0x7f454c46 || machO.includes(magic) || firstBytes.subarray(0, 2).toString('latin1') === 'MZ';
}

async function runElectronBuilder(projectDir: string, outDir: string): Promise<void> {
  // The guard goes first, so that nothing electron-builder loads can reach the network unseen.
  const { blockedConnections, startedCommands } = await import('./offline-guard.ts');
  const { Arch, Platform, build: electronBuilder } = await import('electron-builder');
  const { makeElectronDistStandIn } = await import('./electron-dist-stand-in.ts');
  const electronDist = join(outDir, 'electron-dist');
  const electronVersion = installedElectronVersion(projectDir);
  await makeElectronDistStandIn(electronDist, electronVersion);
  await electronBuilder({
    projectDir,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    publish: 'never',
    config: {
      electronDist,
      electronVersion,
      // The app has no native module: nothing to rebuild for Electron's Node.
      npmRebuild: false,
      nodeGypRebuild: false,
      directories: { output: join(outDir, 'package') },
    },
  });
  const run: PackageRun = { appOutDir: join(outDir, 'package', 'linux-unpacked'), blockedConnections, startedCommands };
  writeFileSync(join(outDir, 'package-run.json'), JSON.stringify(run, null, 2));
}

if (import.meta.main) {
  const [projectDir = root, outDir = join(root, 'release', 'package-check')] = process.argv.slice(2);
  await runElectronBuilder(projectDir, outDir);
  process.stdout.write(`Packaged into ${join(outDir, 'package', 'linux-unpacked')}\n`);
}
