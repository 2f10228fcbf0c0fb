// The package, checked without the Electron binary: electron-builder's unpacked Linux build (`--dir`) of a private copy
// of this project, against a stand-in Electron distribution and with the network refused; then the app's archive is opened
// and the compiled main's imports are resolved inside it, as Electron would resolve them on a user's machine.
import { execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveFiles,
  copyProject,
  extractArchive,
  importGraph,
  isNativeBinary,
  isRuntimeModule,
  packageFolderOf,
  packageFolders,
  packageLinuxDir,
  type ArchiveFile,
  type ImportGraph,
  type PackageRun,
} from '../../scripts/package-check.ts';

const root = join(import.meta.dirname, '..', '..');
const MAIN = 'dist/app/main/index.js';
const PRELOAD = 'dist/app/main/preload.cjs';
const SETTINGS_UI = 'dist/app/renderer';

interface PackageManifest {
  name: string;
  main?: string;
  type?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let work: string;
let project: string;
let run: PackageRun;
let files: ArchiveFile[];
let paths: Set<string>;
let unpacked: string;
let mainGraph: Promise<ImportGraph> | undefined;

/** The compiled main's import graph, walked once for the tests that need it. */
function graphOfMain(): Promise<ImportGraph> {
  mainGraph ??= importGraph(unpacked, [MAIN]);
  return mainGraph;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** `ws` for `ws/lib/x.js`, `@scope/name` for `@scope/name/x`. */
function packageNameOf(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

function firstBytes(path: string): Buffer {
  const bytes = Buffer.alloc(4);
  const file = openSync(path, 'r');
  try {
    readSync(file, bytes, 0, 4, 0);
  } finally {
    closeSync(file);
  }
  return bytes;
}

/** Names of the packages that `reached` packages depend on, transitively, by what their package.json files declare. */
function dependencyClosure(reached: readonly string[]): Set<string> {
  const manifests = new Map<string, PackageManifest>();
  for (const folder of packageFolders([...paths])) {
    const manifest = readJson<PackageManifest>(join(unpacked, folder, 'package.json'));
    manifests.set(manifest.name, manifest);
  }
  const names = new Set(
    reached.map((folder) => readJson<PackageManifest>(join(unpacked, folder, 'package.json')).name),
  );
  for (const name of names) {
    const manifest = manifests.get(name);
    const declared = { ...manifest?.dependencies, ...manifest?.optionalDependencies, ...manifest?.peerDependencies };
    for (const dependency of Object.keys(declared)) names.add(dependency);
  }
  return names;
}

beforeAll(async () => {
  mkdirSync(join(root, 'dist'), { recursive: true });
  work = mkdtempSync(join(root, 'dist', 'package-check-'));
  project = join(work, 'project');
  copyProject(project);
  // As npm run package:app does: the app, then the Stream Deck plugin and the Companion package the app offers.
  await Promise.all(
    ['build.ts', 'build-streamdeck.ts', 'build-companion.ts'].map((script) =>
      promisify(execFile)(process.execPath, [join(project, 'scripts', script)], { cwd: project }),
    ),
  );
  run = await packageLinuxDir(project, join(work, 'out'));
  const archive = join(run.appOutDir, 'resources', 'app.asar');
  files = archiveFiles(archive);
  paths = new Set(files.map((file) => file.path));
  // Extracted away from the project, where no node_modules of the project's own can stand in for a missing package.
  unpacked = mkdtempSync(join(tmpdir(), 'tabletop-relay-app-asar-'));
  extractArchive(archive, unpacked);
}, 180_000);

afterAll(() => {
  for (const folder of [work, unpacked]) if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('npm run package:app, unpacked Linux build with a stand-in Electron', () => {
  it('packages offline: no connection attempted, no tool started but npm listing the production packages', () => {
    expect(run.blockedConnections).toEqual([]);
    for (const command of run.startedCommands) expect(command).toMatch(/^npm (prefix|list) /);
  });

  it('lays out the Linux app: the renamed executable, Electron license, and resources/app.asar', () => {
    const executable = statSync(join(run.appOutDir, 'tabletop-relay'));
    expect(executable.mode & 0o111).not.toBe(0);
    expect(existsSync(join(run.appOutDir, 'electron'))).toBe(false);
    expect(existsSync(join(run.appOutDir, 'LICENSE.electron.txt'))).toBe(true);
    expect(existsSync(join(run.appOutDir, 'resources', 'app.asar'))).toBe(true);
  });

  it("flips Electron's fuses for production: no running as Node, no NODE_OPTIONS or --inspect, ASAR only and checked", async () => {
    const { getCurrentFuseWire, FuseV1Options } = await import('@electron/fuses');
    const wire = await getCurrentFuseWire(join(run.appOutDir, 'tabletop-relay'));
    // Each fuse is a byte of the wire: '1' on, '0' off.
    const fuse = (option: number) => String.fromCharCode(wire[option as keyof typeof wire] as number);
    expect(fuse(FuseV1Options.RunAsNode)).toBe('0');
    expect(fuse(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(fuse(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(fuse(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe('0');
    expect(fuse(FuseV1Options.EnableCookieEncryption)).toBe('1');
    expect(fuse(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');
    expect(fuse(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
  });

  it('starts Electron on the compiled main, an ES module', () => {
    const manifest = readJson<PackageManifest>(join(unpacked, 'package.json'));
    expect(manifest.main).toBe(MAIN);
    expect(manifest.type).toBe('module');
    expect(paths.has(MAIN)).toBe(true);
  });

  it('holds the preload next to the compiled main, needing only what a sandboxed preload may require', async () => {
    expect(paths.has(PRELOAD)).toBe(true);
    // Sandboxed preloads get `electron` and a few Node modules only: https://www.electronjs.org/docs/latest/tutorial/sandbox#preload-scripts
    const graph = await importGraph(unpacked, [PRELOAD]);
    expect(graph.files).toEqual([PRELOAD]);
    for (const module of graph.runtimeModules)
      expect(['electron', 'events', 'timers', 'url', 'node:events', 'node:timers', 'node:url']).toContain(module);
  });

  it('holds the settings UI where the compiled relay serves it, with every file its page links to', () => {
    const page = readFileSync(join(unpacked, SETTINGS_UI, 'index.html'), 'utf8');
    const linked = [...page.matchAll(/(?:src|href)="([^":]+)"/g)].map((match) => match[1]!);
    expect(linked).toEqual(expect.arrayContaining(['app.js', 'styles.css']));
    for (const file of linked) expect(paths, file).toContain(`${SETTINGS_UI}/${file}`);
  });

  it('carries the Stream Deck plugin and the Companion package beside the archive, where the app hands them to the relay', () => {
    const integrations = join(run.appOutDir, 'resources', 'integrations');
    expect(readdirSync(join(integrations, 'streamdeck'))).toEqual(['org.tabletoprelay.deck.streamDeckPlugin']);
    expect(readdirSync(join(integrations, 'companion'))).toEqual([
      expect.stringMatching(/^tabletop-relay-[\d.]+\.tgz$/),
    ]);
    const desktopApp = readFileSync(join(unpacked, 'dist', 'app', 'main', 'desktop-app.js'), 'utf8');
    expect(desktopApp).toContain("join(process.resourcesPath, 'integrations')");
  });

  it('holds every icon of the project: the app icon and each tray image', () => {
    const trayImages = readdirSync(join(project, 'assets', 'tray')).map((file) => `assets/tray/${file}`);
    expect(trayImages.length).toBeGreaterThan(0);
    for (const icon of ['assets/icon.png', ...trayImages]) expect(paths, icon).toContain(icon);
  });

  it('resolves inside the archive every module the compiled main can import', async () => {
    const graph = await graphOfMain();
    expect(graph.resolvedOutside).toEqual([]);
    expect(graph.runtimeModules.filter((module) => !isRuntimeModule(module))).toEqual([]);
    expect(graph.files).toEqual(
      expect.arrayContaining([MAIN, 'dist/app/relay/relay.js', 'node_modules/express/index.js']),
    );
    // A missing import is only acceptable where its package does not declare it as a dependency (an optional peer).
    for (const missing of graph.missingOptional) {
      const [importer, specifier] = missing.split(' → ') as [string, string];
      const folder = packageFolderOf(importer);
      const declared = folder
        ? readJson<PackageManifest>(join(unpacked, folder, 'package.json')).dependencies
        : undefined;
      expect(Object.keys(declared ?? {}), missing).not.toContain(packageNameOf(specifier));
    }
  });

  it('holds no package that nothing the app runs depends on, and no devDependency', async () => {
    const graph = await graphOfMain();
    const reached = [...new Set(graph.files.map(packageFolderOf).filter((folder) => folder !== undefined))];
    const needed = dependencyClosure(reached);
    const held = packageFolders([...paths]).map(
      (folder) => readJson<PackageManifest>(join(unpacked, folder, 'package.json')).name,
    );
    expect(held.filter((name) => !needed.has(name))).toEqual([]);
    const devDependencies = Object.keys(readJson<PackageManifest>(join(project, 'package.json')).devDependencies ?? {});
    expect(held.filter((name) => devDependencies.includes(name))).toEqual([]);
  });

  it('holds no tests, source maps or TypeScript sources', () => {
    const all = [...paths];
    expect(all.filter((path) => /\.map$/.test(path))).toEqual([]);
    expect(all.filter((path) => /\.(ts|mts|cts|tsx)$/.test(path))).toEqual([]);
    expect(all.filter((path) => /(^|\/)(test|tests|__tests__|spec)\/|\.(test|spec)\.[cm]?js$/.test(path))).toEqual([]);
    expect(
      all.filter((path) => !path.startsWith('node_modules/') && !/^(dist\/app\/|assets\/|package\.json$)/.test(path)),
    ).toEqual([]);
  });

  it('holds no native binary: no downloaded browser, nothing that would have to be unpacked from the archive', () => {
    const binaries = files.filter((file) => file.size >= 4 && isNativeBinary(firstBytes(join(unpacked, file.path))));
    expect(binaries.map((file) => file.path)).toEqual([]);
  });
});
