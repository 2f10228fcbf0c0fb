// Builds what runs: the settings UI (served by the relay at /admin/), the CLI (serve, demo, settings) and the desktop
// app (the main process and its preload script).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { PLAY_PAGE } from '../relay/play/page.ts';

const root = join(import.meta.dirname, '..');
export const RENDERER_OUT = join(root, 'dist', 'renderer');
export const CLI_OUT = join(root, 'dist', 'cli');
const BENCH_OUT = join(root, 'dist', 'bench');
const APP_OUT = join(root, 'dist', 'app');

/** Replaces a file in one step, so a relay serving the folder meanwhile (the UI tests) never sends half a file. */
function writeAtomically(path: string, contents: Uint8Array | string, mode = 0o644): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents, { mode });
  renameSync(temporary, path);
}

/** The settings UI as static files: index.html, app.js, styles.css, logo.svg; no source maps. */
export async function buildRenderer(outDir = RENDERER_OUT): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const bundle = await build({
    entryPoints: [join(root, 'renderer', 'src', 'main.ts')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    // The relay serves this folder as it is, and it serves no source maps.
    sourcemap: false,
    logLevel: 'warning',
    write: false,
  });
  rmSync(join(outDir, 'app.js.map'), { force: true });
  for (const file of bundle.outputFiles) writeAtomically(file.path, file.contents);
  for (const file of ['index.html', 'styles.css', 'logo.svg'])
    writeAtomically(join(outDir, file), readFileSync(join(root, 'renderer', file)));
  await Promise.all([buildOverlays(join(outDir, 'overlays')), buildPlayerPage(join(outDir, 'play'))]);
}

/**
 * The overlay pages' script as OBS runs it: OBS 28–30 embed Chromium 103 in their browser source, so esbuild lowers the
 * script to ES2020 and that browser, and fails on syntax it cannot lower (top-level await, for one). One file, no
 * source map: the relay serves it as it is.
 */
export const OVERLAY_SCRIPT = {
  bundle: true,
  format: 'iife',
  minify: true,
  sourcemap: false,
  target: ['es2020', 'chrome103'],
  logLevel: 'warning',
  write: false,
} satisfies BuildOptions;

/**
 * CSS that Chromium 103 does not understand, each with why: the check runs on overlays/overlay.css, written by hand,
 * so that nothing in it silently does nothing in OBS.
 */
const CSS_AFTER_CHROMIUM_103: { pattern: RegExp; feature: string }[] = [
  { pattern: /:has\(/, feature: ':has() (Chromium 105)' },
  { pattern: /@container\b|\bcontainer(-type|-name)?\s*:/, feature: 'container queries (Chromium 105)' },
  { pattern: /\d(cqw|cqh|cqi|cqb|cqmin|cqmax)\b/, feature: 'container query units (Chromium 105)' },
  { pattern: /\d(dvh|svh|lvh|dvw|svw|lvw)\b/, feature: 'dynamic viewport units (Chromium 108)' },
  { pattern: /@scope\b/, feature: '@scope (Chromium 118)' },
  { pattern: /@starting-style\b/, feature: '@starting-style (Chromium 117)' },
  { pattern: /\b(color-mix|oklch|oklab|lab|lch|light-dark)\(/, feature: 'new colour functions (Chromium 111+)' },
  { pattern: /(^|[\s;{])(translate|rotate|scale)\s*:/m, feature: 'individual transform properties (Chromium 104)' },
  { pattern: /@media[^{]*\([^)]*[<>]=?[^)]*\)/, feature: 'media query range syntax (Chromium 104)' },
  { pattern: /\btext-wrap\s*:/, feature: 'text-wrap (Chromium 114)' },
  { pattern: /\bsubgrid\b/, feature: 'subgrid (Chromium 117)' },
  { pattern: /\blinear\(/, feature: 'linear() easing (Chromium 113)' },
  {
    pattern: /\b(animation-timeline|view-timeline|scroll-timeline)\b/,
    feature: 'scroll-driven animations (Chromium 115)',
  },
  { pattern: /\bview-transition/, feature: 'view transitions (Chromium 111)' },
  { pattern: /(^|[^-])\bscrollbar-(width|color)\s*:/m, feature: 'scrollbar-width/-color (Chromium 121)' },
  { pattern: /\b(anchor|anchor-size)\(|position-anchor/, feature: 'anchor positioning (Chromium 125)' },
  { pattern: /:nth-(last-)?child\([^)]*\bof\b/, feature: ':nth-child(… of S) (Chromium 111)' },
  { pattern: /(^|[^-])\bmask(-image)?\s*:/m, feature: 'unprefixed mask (Chromium 120; use -webkit-mask)' },
];

/** Nesting: a block that opens inside a style rule's declarations, or `&` in a selector. */
function nestingLines(css: string): number[] {
  const kinds: ('group' | 'keyframes' | 'declarations')[] = [];
  const lines: number[] = [];
  let prelude = '';
  let line = 1;
  for (const character of css) {
    if (character === '\n') line += 1;
    if (character === '{') {
      const head = prelude.trim();
      const inside = kinds[kinds.length - 1];
      if (inside === 'declarations' || head.includes('&')) lines.push(line);
      if (/^@(media|supports|layer|document)\b/.test(head)) kinds.push('group');
      else if (/^@(-webkit-)?keyframes\b/.test(head)) kinds.push('keyframes');
      else kinds.push('declarations');
      prelude = '';
    } else if (character === '}') {
      kinds.pop();
      prelude = '';
    } else if (character === ';') prelude = '';
    else prelude += character;
  }
  return lines;
}

/** Each construct of the CSS that Chromium 103 lacks, as `line N: what`; comments and strings are not read. */
export function cssChromium103Lacks(css: string): string[] {
  // Comments and strings become blanks of their own length, so lines keep their numbers.
  const code = css.replace(/\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (skipped) =>
    skipped.replace(/[^\n]/g, ' '),
  );
  const problems = nestingLines(code).map((line) => `line ${line}: CSS nesting (Chromium 112)`);
  code.split('\n').forEach((text, index) => {
    for (const { pattern, feature } of CSS_AFTER_CHROMIUM_103)
      if (pattern.test(text)) problems.push(`line ${index + 1}: ${feature}`);
  });
  return problems;
}

/** The overlay pages' script and style, `overlays/overlay.js` and `overlay.css`, which the relay serves to OBS. */
export async function buildOverlays(outDir = join(RENDERER_OUT, 'overlays')): Promise<void> {
  const cssPath = join(root, 'overlays', 'overlay.css');
  const problems = cssChromium103Lacks(readFileSync(cssPath, 'utf8'));
  if (problems.length > 0)
    throw new Error(`overlays/overlay.css uses what OBS's Chromium 103 lacks:\n  ${problems.join('\n  ')}`);
  mkdirSync(outDir, { recursive: true });
  const [script, style] = await Promise.all([
    build({ ...OVERLAY_SCRIPT, entryPoints: [join(root, 'overlays', 'main.ts')], outfile: join(outDir, 'overlay.js') }),
    build({ ...OVERLAY_SCRIPT, format: undefined, entryPoints: [cssPath], outfile: join(outDir, 'overlay.css') }),
  ]);
  for (const file of [...script.outputFiles, ...style.outputFiles]) writeAtomically(file.path, file.contents);
}

/**
 * The player page's script as players' phones run it: Safari on iOS 16 and later, Chrome on Android. One file each for
 * the page and its service worker, no source map: the relay serves them as they are.
 */
const PLAYER_PAGE_SCRIPT = {
  bundle: true,
  format: 'iife',
  minify: true,
  sourcemap: false,
  target: ['es2020', 'safari16', 'chrome100'],
  logLevel: 'warning',
  write: false,
} satisfies BuildOptions;

/** What a phone downloads to open the player page, HTML, script and style sheet gzipped: at most this many bytes. */
export const PLAYER_PAGE_BUDGET_BYTES = 150 * 1024;

/** The player page's gzipped weight: its HTML and the script and style sheet it loads. */
function playerPageWeight(script: Uint8Array, style: Uint8Array): number {
  return [new TextEncoder().encode(PLAY_PAGE), script, style].reduce((sum, file) => sum + gzipSync(file).length, 0);
}

/**
 * The player page's files, `play/play.js`, `play.css`, `sw.js` and its icons, which the relay serves at /play/; a page
 * heavier than its budget fails the build, since a phone on the table's Wi-Fi loads it whole.
 */
async function buildPlayerPage(outDir = join(RENDERER_OUT, 'play')): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const [script, worker, style] = await Promise.all([
    build({ ...PLAYER_PAGE_SCRIPT, entryPoints: [join(root, 'play', 'main.ts')], outfile: join(outDir, 'play.js') }),
    build({ ...PLAYER_PAGE_SCRIPT, entryPoints: [join(root, 'play', 'sw.ts')], outfile: join(outDir, 'sw.js') }),
    build({
      ...PLAYER_PAGE_SCRIPT,
      format: undefined,
      entryPoints: [join(root, 'play', 'play.css')],
      outfile: join(outDir, 'play.css'),
    }),
  ]);
  const weight = playerPageWeight(script.outputFiles[0]!.contents, style.outputFiles[0]!.contents);
  if (weight > PLAYER_PAGE_BUDGET_BYTES)
    throw new Error(`The player page weighs ${weight} bytes gzipped, over its ${PLAYER_PAGE_BUDGET_BYTES}`);
  for (const file of [...script.outputFiles, ...worker.outputFiles, ...style.outputFiles])
    writeAtomically(file.path, file.contents);
  for (const icon of ['icon-180.png', 'icon-192.png', 'icon-512.png'])
    writeAtomically(join(outDir, icon), readFileSync(join(root, 'assets', 'play', icon)));
  writeAtomically(join(outDir, 'icon.svg'), readFileSync(join(root, 'assets', 'icon.svg')));
}

/**
 * Node's built-in modules, required as CommonJS rather than imported. An ES import of a built-in reads every one of its
 * exports, and node:http's include the WebSocket classes whose getters load Node's fetch (undici): 12 MB of resident
 * memory an idle relay never uses.
 */
const requireBuiltins: Plugin = {
  name: 'require-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, ({ path, namespace }) =>
      namespace === 'builtin' ? { path, external: true } : { path, namespace: 'builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
    }));
  },
};

/** The npm packages bundled into a program: zod's ES modules, tree-shaken in one file, take 3 MB less memory. */
const BUNDLED_PACKAGE = /^zod(\/|$)/;

/** Every other npm package stays in node_modules, loaded from there (and, like puppeteer-core, only when imported). */
const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, kind }) =>
      kind === 'entry-point' || BUNDLED_PACKAGE.test(path) ? undefined : { path, external: true },
    );
  },
};

/** A program for Node as the CLI runs: one ES module with zod, other npm packages left to node_modules, a source map. */
const NODE_PROGRAM = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // The built-ins first: node:http must become a require, not an external import.
  plugins: [requireBuiltins, packagesExternal],
  // `require` for the built-ins above, which an ES module does not have of its own.
  banner: {
    js: "import { createRequire as createRequireForBuiltins } from 'node:module';\nconst require = createRequireForBuiltins(import.meta.url);",
  },
} satisfies BuildOptions;

/**
 * The CLI as one ES module for Node, `dist/cli/index.js`, with the npm packages but zod left to node_modules. The demo's
 * sandbox world is a chunk of its own, which `serve` never loads.
 */
export function buildCli(outDir = CLI_OUT): Promise<string> {
  return buildSplitProgram(join(root, 'cli', 'index.ts'), outDir);
}

/**
 * A Node program whose dynamic imports are chunks of their own, loaded at first need. Each file is replaced in one step
 * and chunks are named by their contents, so a program started meanwhile (tests build and run the CLI in parallel)
 * never loads half a build. Returns the entry's path.
 */
async function buildSplitProgram(entryPoint: string, outDir: string): Promise<string> {
  const bundle = await build({
    ...NODE_PROGRAM,
    entryPoints: [entryPoint],
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    write: false,
  });
  const entry = join(outDir, `${basename(entryPoint, '.ts')}.js`);
  const written = new Set(bundle.outputFiles.map((file) => file.path));
  for (const file of bundle.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    // `bin` in package.json points at the CLI's entry, and npx runs it as a program.
    writeAtomically(file.path, file.contents, file.path === entry ? 0o755 : 0o644);
  }
  removeAllBut(join(outDir, 'chunks'), written);
  return entry;
}

/** Chunks of earlier builds, which no entry imports any more; not the files another build is writing. */
function removeAllBut(folder: string, keep: Set<string>): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.tmp') && !keep.has(join(folder, name))) rmSync(join(folder, name), { force: true });
  }
}

/**
 * A benchmark's server child, compiled as the CLI is, chunks included, so that the relay it measures runs as `serve`
 * runs it: in one file, what the relay imports at first need (the LAN advertiser with its mDNS library, 4.5 MB) would
 * be loaded at start.
 */
export function buildBenchServer(name: 'relay-server' | 'bare-server'): Promise<string> {
  return buildSplitProgram(join(root, 'bench', `${name}.ts`), join(BENCH_OUT, name));
}

/** Sandboxed preload scripts cannot be ES modules, so the preload is bundled to CommonJS next to the compiled main. */
async function buildPreload(appOut: string): Promise<void> {
  await build({
    entryPoints: [join(root, 'main', 'preload.ts')],
    outfile: join(appOut, 'main', 'preload.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    external: ['electron'],
    target: 'node22',
    logLevel: 'warning',
  });
}

function compileMain(appOut: string): void {
  rmSync(appOut, { recursive: true, force: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.main.json'), '--outDir', appOut], {
    stdio: 'inherit',
  });
}

/** The desktop app: compiled main, preload, and the settings UI in the folder main hands the relay. */
export async function buildApp(appOut = APP_OUT): Promise<void> {
  compileMain(appOut);
  await buildPreload(appOut);
  await buildRenderer(join(appOut, 'renderer'));
}

const TARGETS = {
  renderer: { build: buildRenderer, built: 'dist/renderer' },
  cli: {
    build: async () => void (await Promise.all([buildRenderer(), buildCli()])),
    built: 'dist/cli and dist/renderer',
  },
  all: {
    build: async () => void (await Promise.all([buildRenderer(), buildCli(), buildApp()])),
    built: 'dist/cli, dist/renderer and dist/app',
  },
};

if (process.argv[1] && dirname(process.argv[1]) === import.meta.dirname) {
  const what = process.argv[2] ?? 'all';
  if (!Object.hasOwn(TARGETS, what)) throw new Error(`Build one of ${Object.keys(TARGETS).join(', ')}, not '${what}'`);
  const target = TARGETS[what as keyof typeof TARGETS];
  await target.build();
  process.stdout.write(`Built ${target.built}\n`);
}
