import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** One import: the file that imports (a path from the repository root) and what it names, resolved the same way. */
interface Import {
  from: string;
  to: string;
}

interface LayerRule {
  /** The files the rule is about: those under this folder, or this one file. */
  files: string;
  /** Why an import from those files is refused, or undefined when it is allowed. */
  refuses: (target: string) => string | undefined;
}

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_FOLDERS = [
  'relay',
  'cli',
  'contracts',
  'sandbox',
  'main',
  'renderer/src',
  'overlays',
  'play',
  'integrations',
];

/**
 * The module names a file imports: static imports and `export ... from` (type-only ones too) and dynamic `import()`.
 * TypeScript's own pre-processor reads them, so an import inside a comment or a string is not one.
 */
function importedNames(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** A relative name becomes the imported file's path from the repository root; a package or built-in stays as named. */
function resolved(from: string, name: string): string {
  return name.startsWith('.') ? posix.normalize(posix.join(posix.dirname(from), name)) : name;
}

function importsOf(file: string, source: string): Import[] {
  return importedNames(source).map((name) => ({ from: file, to: resolved(file, name) }));
}

function sourceFiles(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => posix.join(folder, name.split('\\').join('/'))),
  );
}

function repositoryImports(): Import[] {
  return sourceFiles().flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')));
}

function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

function isElectron(target: string): boolean {
  return target === 'electron' || target.startsWith('electron/');
}

/** Refuses Electron and the given folders. */
function refusing(...folders: string[]): LayerRule['refuses'] {
  return (target) => {
    if (isElectron(target)) return 'Electron';
    const folder = folders.find((candidate) => isUnder(target, candidate));
    return folder === undefined ? undefined : `${folder}/`;
  };
}

/** Allows only the given folders: packages and built-ins are refused too. */
function onlyFrom(...folders: string[]): LayerRule['refuses'] {
  return (target) => (folders.some((folder) => isUnder(target, folder)) ? undefined : 'outside its folders');
}

const LAYERS = {
  relay: { files: 'relay', refuses: refusing('sandbox', 'main', 'renderer', 'cli') },
  sandbox: { files: 'sandbox', refuses: refusing('relay', 'main', 'renderer', 'cli') },
  // The one package the settings UI bundles: it draws a player invitation's QR code, and needs nothing itself.
  renderer: { files: 'renderer', refuses: onlyFrom('renderer', 'contracts', 'web', 'qrcode-generator') },
  overlays: { files: 'overlays', refuses: onlyFrom('overlays', 'contracts') },
  play: { files: 'play', refuses: onlyFrom('play', 'contracts', 'web') },
  contracts: { files: 'contracts', refuses: onlyFrom('contracts') },
  errors: { files: 'relay/errors.ts', refuses: () => 'the bottom of the relay imports nothing' },
  // The deck integrations reach the relay over HTTP only; their packages (Elgato's SDK) are theirs to import.
  integrations: {
    files: 'integrations',
    refuses: refusing('relay', 'sandbox', 'main', 'renderer', 'cli', 'overlays', 'test', 'scripts'),
  },
  // The client core runs in any host on Node's own fetch: no package, no built-in module.
  integrationsClient: { files: 'integrations/client', refuses: onlyFrom('integrations/client', 'contracts') },
  // The kernel is transport-free: the adapters and the route tables build on it, never the other way.
  routing: { files: 'relay/routing', refuses: refusing('relay/http', 'relay/ws-api', 'relay/admin', 'relay/api') },
  // The tabletop link (/relay) is an upgrade the gate lets through; the HTTP adapter is not its business.
  tabletop: { files: 'relay/tabletop', refuses: refusing('relay/http') },
} satisfies Record<string, LayerRule>;

/**
 * The rooms of relay/, lowest first: a room imports only the rooms below it. Rooms on one line stand side by side and
 * import neither. The files directly in relay/ are its floor (errors, log, the services' types…), which any room
 * imports, but for the composition files, which no room imports.
 */
const RELAY_ROOMS: readonly (readonly string[])[] = [
  ['storage'],
  ['activity'],
  ['gate'],
  ['auth'],
  ['tabletop'],
  ['world-data'],
  ['events'],
  ['journal'],
  ['routing'],
  ['capture'],
  ['keeper'],
  ['overlays'],
  ['play'],
  ['discovery'],
  ['http'],
  ['ws-api'],
  ['api', 'admin'],
  ['mcp'],
];
const RELAY_COMPOSITION = ['relay/relay.ts', 'relay/routes.ts', 'relay/key-changes.ts', 'relay/index.ts'];

/**
 * The imports inside relay/ that go against the rooms' order, each with the reason it may (docs/ARCHITECTURE.md lists
 * them too): a new one fails the test until it is justified here, and there may be four at most.
 */
const UPWARD_IMPORTS: Record<string, string> = {
  'relay/overlays/sheet.ts imports relay/api/sheet.ts':
    "the character card's sheet variant runs GET /sheet's own route entry, so the overlay and the route cannot drift",
  'relay/world-data/player-sorts.ts imports relay/routing/route.ts':
    "the sorts are route entries' `playerView`, typed by the kernel's PlayerView; a type-only import",
};
const MOST_UPWARD_IMPORTS = 4;

/** The room of a file under relay/: its first folder, or undefined for a file of the floor. */
function roomOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : undefined;
}

function rankOf(room: string): number {
  return RELAY_ROOMS.findIndex((rooms) => rooms.includes(room));
}

/** Each import between files of relay/ that goes to a room not below its own, or to a composition file, as one line. */
function upwardImports(imports: Import[]): string[] {
  const lines = imports.flatMap(({ from, to }) => {
    if (!isUnder(from, 'relay') || !isUnder(to, 'relay') || RELAY_COMPOSITION.includes(from)) return [];
    const fromRoom = roomOf(from);
    if (fromRoom === undefined) return [];
    const toRoom = roomOf(to);
    const upward =
      toRoom === undefined ? RELAY_COMPOSITION.includes(to) : toRoom !== fromRoom && rankOf(toRoom) >= rankOf(fromRoom);
    return upward ? [`${from} imports ${to}`] : [];
  });
  return [...new Set(lines)].sort();
}

/** Each import the rule refuses, as one readable line. */
function breaches(imports: Import[], rule: LayerRule): string[] {
  return imports.flatMap(({ from, to }) => {
    if (!isUnder(from, rule.files)) return [];
    const reason = rule.refuses(to);
    return reason === undefined ? [] : [`${from} imports ${to} (${reason})`];
  });
}

/** The imports between files of one folder, as a map from each file to the files it imports. */
function graphWithin(imports: Import[], folder: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const { from, to } of imports) {
    if (!isUnder(from, folder) || !isUnder(to, folder)) continue;
    graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  return graph;
}

/** The groups of files that reach one another through imports (Tarjan's strongly connected components). */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file) as number, lowest.get(next) as number));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file) as number, order.get(next) as number));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    components.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return components;
}

/** The shortest way back to `start` through files of `within`, as a path that begins and ends with `start`. */
function shortestCircle(graph: Map<string, string[]>, start: string, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let index = 0; index < queue.length; index += 1) {
    const file = queue[index];
    for (const next of [...(graph.get(file) ?? [])].sort()) {
      if (next === start) return [...pathFromStart(file, start, cameFrom), start];
      if (within.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [];
}

/** The files the search went through from `start` to `file`. */
function pathFromStart(file: string, start: string, cameFrom: Map<string, string>): string[] {
  const path = [file];
  while (path[0] !== start) path.unshift(cameFrom.get(path[0]) as string);
  return path;
}

/**
 * One line per import circle: the shortest circle through the first file of each group of files that import one
 * another, then the whole group when it holds more files than that circle.
 */
function importCircles(graph: Map<string, string[]>): string[] {
  return stronglyConnected(graph).flatMap((component) => {
    const [first] = component;
    const circle = shortestCircle(graph, first, new Set(component));
    if (circle.length === 0) return [];
    const whole = component.length > circle.length - 1 ? ` (${component.length} files: ${component.join(', ')})` : '';
    return [`${circle.join(' → ')}${whole}`];
  });
}

describe('layering of the source folders', () => {
  const imports = repositoryImports();

  it('reads the imports of every source folder', () => {
    for (const folder of SOURCE_FOLDERS) expect(imports.some(({ from }) => isUnder(from, folder))).toBe(true);
  });

  it('has no import circle among the files of relay/, type-only imports counted', () => {
    expect(importCircles(graphWithin(imports, 'relay'))).toEqual([]);
  });

  it('relay/ imports nothing from sandbox/, main/, renderer/, cli/ or Electron', () => {
    expect(breaches(imports, LAYERS.relay)).toEqual([]);
  });

  it('sandbox/ imports nothing from relay/, main/, renderer/, cli/ or Electron: it reaches the relay over the wire', () => {
    expect(breaches(imports, LAYERS.sandbox)).toEqual([]);
  });

  it('renderer/ imports only renderer/, contracts/, web/ and the QR code drawer', () => {
    expect(breaches(imports, LAYERS.renderer)).toEqual([]);
  });

  it('overlays/ imports only overlays/ and contracts/: the pages OBS loads are one small bundle', () => {
    expect(breaches(imports, LAYERS.overlays)).toEqual([]);
  });

  it("play/ imports only play/, contracts/ and web/: the player page is one small bundle that reaches the relay's API", () => {
    expect(breaches(imports, LAYERS.play)).toEqual([]);
  });

  it('contracts/ imports only contracts/', () => {
    expect(breaches(imports, LAYERS.contracts)).toEqual([]);
  });

  it('relay/errors.ts imports nothing', () => {
    expect(breaches(imports, LAYERS.errors)).toEqual([]);
  });

  it('integrations/ imports only integrations/, contracts/ and packages: it reaches the relay over HTTP', () => {
    expect(breaches(imports, LAYERS.integrations)).toEqual([]);
  });

  it('integrations/client/ imports only itself and contracts/: no package, no Electron, no built-in module', () => {
    expect(breaches(imports, LAYERS.integrationsClient)).toEqual([]);
  });

  it('relay/routing/ imports nothing from http/, ws-api/, admin/ or api/: the kernel knows no transport and no table', () => {
    expect(breaches(imports, LAYERS.routing)).toEqual([]);
  });

  it('relay/tabletop/ (the /relay socket) imports nothing from http/', () => {
    expect(breaches(imports, LAYERS.tabletop)).toEqual([]);
  });

  it('places every folder of relay/ among the ranked rooms', () => {
    const rooms = new Set(sourceFiles().flatMap((file) => (isUnder(file, 'relay') ? [roomOf(file)] : [])));
    rooms.delete(undefined);
    expect([...rooms].filter((room) => rankOf(room as string) < 0)).toEqual([]);
  });

  it(`has no upward import inside relay/ but the ${Object.keys(UPWARD_IMPORTS).length} listed with their reasons`, () => {
    expect(upwardImports(imports)).toEqual(Object.keys(UPWARD_IMPORTS).sort());
    expect(Object.keys(UPWARD_IMPORTS).length).toBeLessThanOrEqual(MOST_UPWARD_IMPORTS);
  });

  it('names each upward import in docs/ARCHITECTURE.md', () => {
    const architecture = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const unnamed = Object.keys(UPWARD_IMPORTS).filter((line) => {
      const [from, to] = line.split(' imports ').map((file) => `\`${file.slice('relay/'.length)}\``);
      return !architecture.includes(`${from} → ${to}`);
    });
    expect(unnamed).toEqual([]);
  });
});

describe('the layering checks', () => {
  it('read static, export-from, type-only and dynamic imports, and not those in comments or strings', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type {\n  B,\n} from '../b.ts';",
      "import './side-effect.ts';",
      "export { c } from './c.ts';",
      "export type * from './d.ts';",
      "const lazy = () => import('./e.ts');",
      "// import { f } from './f.ts';",
      'const text = "import { g } from \'./g.ts\'";',
      "import { randomUUID } from 'node:crypto';",
    ].join('\n');
    expect(importsOf('relay/x/file.ts', source).map(({ to }) => to)).toEqual([
      'relay/x/a.ts',
      'relay/b.ts',
      'relay/x/side-effect.ts',
      'relay/x/c.ts',
      'relay/x/d.ts',
      'relay/x/e.ts',
      'node:crypto',
    ]);
  });

  it('find an import circle and name it as a path of files', () => {
    const graph = new Map([
      ['relay/a.ts', ['relay/b.ts', 'relay/d.ts']],
      ['relay/b.ts', ['relay/c.ts']],
      ['relay/c.ts', ['relay/a.ts']],
      ['relay/d.ts', ['relay/e.ts']],
    ]);
    expect(importCircles(graph)).toEqual(['relay/a.ts → relay/b.ts → relay/c.ts → relay/a.ts']);
  });

  it('find a file that imports itself, and a circle inside a larger group, naming the group', () => {
    expect(importCircles(new Map([['relay/self.ts', ['relay/self.ts']]]))).toEqual(['relay/self.ts → relay/self.ts']);
    const graph = new Map([
      ['relay/a.ts', ['relay/b.ts']],
      ['relay/b.ts', ['relay/a.ts', 'relay/c.ts']],
      ['relay/c.ts', ['relay/b.ts']],
    ]);
    expect(importCircles(graph)).toEqual([
      'relay/a.ts → relay/b.ts → relay/a.ts (3 files: relay/a.ts, relay/b.ts, relay/c.ts)',
    ]);
  });

  it('find no circle where imports only fan out and meet again', () => {
    const graph = new Map([
      ['relay/top.ts', ['relay/left.ts', 'relay/right.ts']],
      ['relay/left.ts', ['relay/errors.ts']],
      ['relay/right.ts', ['relay/errors.ts']],
    ]);
    expect(importCircles(graph)).toEqual([]);
  });

  it('count only circles inside relay/', () => {
    const imports = [
      { from: 'relay/a.ts', to: 'contracts/b.ts' },
      { from: 'contracts/b.ts', to: 'relay/a.ts' },
    ];
    expect(importCircles(graphWithin(imports, 'relay'))).toEqual([]);
  });

  it('count an import to a room not below its own, or to a composition file, as upward, and no other', () => {
    const imports = [
      { from: 'relay/routing/call.ts', to: 'relay/http/body.ts' },
      { from: 'relay/api/pairing.ts', to: 'relay/admin/routes.ts' },
      { from: 'relay/ws-api/session.ts', to: 'relay/routes.ts' },
      { from: 'relay/http/app.ts', to: 'relay/routing/pipeline.ts' },
      { from: 'relay/routing/call.ts', to: 'relay/routing/route.ts' },
      { from: 'relay/routing/call.ts', to: 'relay/errors.ts' },
      { from: 'relay/routing/call.ts', to: 'contracts/world-protocol.ts' },
      { from: 'relay/relay.ts', to: 'relay/api/pairing.ts' },
    ];
    expect(upwardImports(imports)).toEqual([
      'relay/api/pairing.ts imports relay/admin/routes.ts',
      'relay/routing/call.ts imports relay/http/body.ts',
      'relay/ws-api/session.ts imports relay/routes.ts',
    ]);
  });

  it('refuse each import that points out of its layer, and allow the others', () => {
    const imports = [
      { from: 'relay/demo.ts', to: 'sandbox/world.ts' },
      { from: 'relay/tray.ts', to: 'electron' },
      { from: 'relay/ok.ts', to: 'contracts/world-protocol.ts' },
      { from: 'sandbox/link.ts', to: 'main/ipc.ts' },
      { from: 'sandbox/link.ts', to: 'relay/tabletop/tabletop.ts' },
      { from: 'sandbox/ok.ts', to: 'ws' },
      { from: 'sandbox/ok.ts', to: 'contracts/world-protocol.ts' },
      { from: 'renderer/src/page.ts', to: 'main/ipc.ts' },
      { from: 'renderer/src/page.ts', to: 'zod' },
      { from: 'renderer/src/ok.ts', to: 'contracts/admin-api.ts' },
      { from: 'overlays/dice.ts', to: 'renderer/src/dom.ts' },
      { from: 'overlays/ok.ts', to: 'contracts/overlays.ts' },
      { from: 'contracts/admin-api.ts', to: 'relay/errors.ts' },
      { from: 'contracts/ok.ts', to: 'contracts/world-protocol.ts' },
      { from: 'relay/errors.ts', to: 'node:http' },
    ];
    expect(Object.values(LAYERS).flatMap((rule) => breaches(imports, rule))).toEqual([
      'relay/demo.ts imports sandbox/world.ts (sandbox/)',
      'relay/tray.ts imports electron (Electron)',
      'sandbox/link.ts imports main/ipc.ts (main/)',
      'sandbox/link.ts imports relay/tabletop/tabletop.ts (relay/)',
      'renderer/src/page.ts imports main/ipc.ts (outside its folders)',
      'renderer/src/page.ts imports zod (outside its folders)',
      'overlays/dice.ts imports renderer/src/dom.ts (outside its folders)',
      'contracts/admin-api.ts imports relay/errors.ts (outside its folders)',
      'relay/errors.ts imports node:http (the bottom of the relay imports nothing)',
    ]);
  });
});
