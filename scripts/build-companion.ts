// Builds the Bitfocus Companion module as Companion 4.3+ imports it (Modules → Import module package), in the layout
// @companion-module/tools' companion-module-build makes: a folder named after the module's id holding main.js (the
// module bundled with @companion-module/base, nothing left to install), companion/manifest.json (entrypoint ../main.js,
// the project's version from the root package.json, the module-base version as apiVersion), companion/HELP.md and a minimal package.json;
// and that folder packed as <id>-<version>.tgz beside it.
//   node scripts/build-companion.ts [outDir]   (npm run build:companion; outDir defaults to dist/companion)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { validateManifest, type ModuleManifest } from '@companion-module/base/manifest';
import { build } from 'esbuild';
import project from '../package.json' with { type: 'json' };

const root = join(import.meta.dirname, '..');
export const COMPANION_SOURCE = join(root, 'integrations', 'companion');
export const COMPANION_OUT = join(root, 'dist', 'companion');

export interface CompanionPackage {
  /** The unpacked module: what Companion's developer modules folder takes as it is. */
  folder: string;
  /** The importable package. */
  tgz: string;
  manifest: ModuleManifest;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The installed module-base's version, which Companion checks the module's API against. */
function moduleBaseVersion(): string {
  const require = createRequire(import.meta.url);
  return readJson<{ version: string }>(require.resolve('@companion-module/base/package.json')).version;
}

/** The module's manifest: the source's, with the project's version (package.json) and the module-base API it runs on. */
export function moduleManifest(): ModuleManifest {
  // The source's $schema points into this project's node_modules: the package has none.
  const { $schema: _schema, ...written } = readJson<ModuleManifest>(
    join(COMPANION_SOURCE, 'companion', 'manifest.json'),
  );
  const manifest: ModuleManifest = { ...written, version: project.version, isPrerelease: false };
  manifest.runtime = {
    ...manifest.runtime,
    api: 'nodejs-ipc',
    apiVersion: moduleBaseVersion(),
    entrypoint: '../main.js',
  };
  validateManifest(manifest, false);
  return manifest;
}

export async function buildCompanion(outDir = COMPANION_OUT): Promise<CompanionPackage> {
  const source = readJson<{ main: string; license: string }>(join(COMPANION_SOURCE, 'package.json'));
  const manifest = moduleManifest();

  const folder = join(outDir, manifest.id);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  await build({
    entryPoints: [join(COMPANION_SOURCE, source.main)],
    outfile: join(folder, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
    // CommonJS code inside the bundle may `require` Node's built-ins, which an ES module does not have of its own.
    banner: {
      js: "import { createRequire as createRequireOfModule } from 'node:module';\nconst require = createRequireOfModule(import.meta.url);",
    },
  });
  cpSync(join(COMPANION_SOURCE, 'companion'), join(folder, 'companion'), { recursive: true });
  writeFileSync(join(folder, 'companion', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const packageJson = {
    name: manifest.name,
    version: manifest.version,
    license: source.license,
    type: 'module',
    dependencies: {},
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);

  const tgz = join(outDir, `${manifest.id}-${manifest.version}.tgz`.replace(/[^a-zA-Z0-9.-]/g, '-'));
  rmSync(tgz, { force: true });
  execFileSync('tar', ['-czf', tgz, '-C', outDir, manifest.id]);
  return { folder, tgz, manifest };
}

if (import.meta.main) {
  const built = await buildCompanion(process.argv[2] ?? COMPANION_OUT);
  console.log(`Companion module ${built.manifest.id} ${built.manifest.version}: ${built.tgz}`);
}
