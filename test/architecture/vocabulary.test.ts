// One spelling per concept: each vocabulary has one table, and the names the glossary gives (docs/ARCHITECTURE.md) are
// the names in the code. The compiler holds most of it (the stream table, the operation unions, the admin types); these
// checks hold what a compiler cannot see: a second table written as strings, or a name that came back.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { RELAY_OPERATIONS, WORLD_OPERATIONS } from '../../contracts/operations.ts';
import { STREAM_KINDS, STREAMS } from '../../contracts/streams.ts';
import { allRoutes } from '../../relay/routes.ts';
import { OPERATIONS } from '../../sandbox/operations/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** The code that speaks the relay's own vocabulary; the sandbox plays the module, and writes its messages as they are. */
const PRODUCT_FOLDERS = ['relay', 'contracts', 'main', 'cli', 'renderer/src', 'overlays', 'integrations'];

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => posix.join(folder, name.split('\\').join('/')));
}

const SOURCES = new Map(
  PRODUCT_FOLDERS.flatMap(filesUnder).map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const),
);

/** The files that hold one of these strings as a quoted literal. */
function filesQuoting(words: readonly string[]): string[] {
  const quoted = words.flatMap((word) => [`'${word}'`, `"${word}"`]);
  return [...SOURCES].filter(([, text]) => quoted.some((word) => text.includes(word))).map(([file]) => file);
}

describe('stream kinds: one table (contracts/streams.ts)', () => {
  it('spells channels, push types and /ws/api frame types nowhere else', () => {
    const kinds = new Set<string>(STREAM_KINDS);
    const names = STREAM_KINDS.flatMap((kind) => {
      const { channel, pushType, frameType } = STREAMS[kind];
      return [channel, pushType, frameType];
    }).filter((name) => !kinds.has(name));
    expect(filesQuoting(names)).toEqual(['contracts/streams.ts']);
  });

  it("refuses a stream that is the GM's only to a key bound to a player, and no other", () => {
    const keyedStreams = allRoutes.filter((route) => route.kind === 'stream' && typeof route.access === 'object');
    for (const route of keyedStreams) {
      if (route.kind !== 'stream') continue;
      const refused = route.playerView !== undefined && 'refused' in route.playerView;
      expect(refused, route.path).toBe(STREAMS[route.stream].gmOnly);
    }
    expect(new Set(keyedStreams.map((route) => route.kind === 'stream' && route.stream))).toEqual(
      new Set(STREAM_KINDS),
    );
  });
});

describe('operations: one list each for the world and the relay (contracts/operations.ts)', () => {
  it('the sandbox world answers exactly the operations a world knows', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual([...WORLD_OPERATIONS].sort());
  });

  it('every world operation is asked by a route, and every relay operation is a keyed route of the relay', () => {
    const asked = new Set(allRoutes.flatMap((route) => (route.kind === 'world' ? [route.operation] : [])));
    expect(WORLD_OPERATIONS.filter((operation) => !asked.has(operation))).toEqual([]);
    const local = allRoutes.flatMap((route) => (route.kind === 'local' && route.operation ? [route.operation] : []));
    expect(local.sort()).toEqual([...RELAY_OPERATIONS].sort());
  });

  it('no relay operation takes the name of a world operation', () => {
    const world = new Set<string>(WORLD_OPERATIONS);
    expect(RELAY_OPERATIONS.filter((operation) => world.has(operation))).toEqual([]);
  });
});

describe('images: an answer kind, not headers passed between modules', () => {
  it('X-Image-* headers are written by the HTTP adapter alone (and named in its CORS list and the documentation)', () => {
    const writing = [...SOURCES].filter(([, text]) => text.includes('X-Image-')).map(([file]) => file);
    expect(writing.sort()).toEqual(['relay/api/openapi.ts', 'relay/http/app.ts', 'relay/http/write-answer.ts']);
  });
});

/** The names a file declares at its top level: functions, classes, interfaces, types, and variables. */
function declaredNames(file: string): string[] {
  const tree = ts.createSourceFile(file, SOURCES.get(file) ?? '', ts.ScriptTarget.Latest, true);
  return tree.statements.flatMap((statement) => {
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((declaration) => declaration.name.getText());
    const named = statement as ts.Statement & { name?: ts.Identifier };
    return named.name ? [named.name.text] : [];
  });
}

describe('the glossary: tools are callers, and the tabletop link is not a world link', () => {
  it('/ws/api names its parts for the caller, never the client: a client is a world', () => {
    const files = [...SOURCES.keys()].filter((file) => file.startsWith('relay/ws-api/'));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => /client/i.test(posix.basename(file)))).toEqual([]);
    expect(files.flatMap(declaredNames).filter((name) => /^client/i.test(name))).toEqual([]);
  });

  it('the /relay socket lives in relay/tabletop/, and "world link" names only the 2.x module\'s key', () => {
    const tabletop = [...SOURCES].filter(([file]) => file.startsWith('relay/tabletop/'));
    expect(tabletop.length).toBeGreaterThan(0);
    expect(tabletop.filter(([, text]) => /\bworld[ -]links?\b/i.test(text)).map(([file]) => file)).toEqual([]);
    expect([...SOURCES.keys()].filter((file) => file.startsWith('relay/world-link/'))).toEqual([]);
  });
});

describe('admin types: in contracts/ alone', () => {
  it("the settings UI's admin API client declares no interface or object type of its own", () => {
    const file = 'renderer/src/admin-api.ts';
    const tree = ts.createSourceFile(file, SOURCES.get(file) ?? '', ts.ScriptTarget.Latest, true);
    const own = tree.statements.flatMap((statement) => {
      if (ts.isInterfaceDeclaration(statement)) return [statement.name.text];
      if (ts.isTypeAliasDeclaration(statement) && !ts.isTypeReferenceNode(statement.type)) return [statement.name.text];
      return [];
    });
    expect(own).toEqual([]);
  });
});
