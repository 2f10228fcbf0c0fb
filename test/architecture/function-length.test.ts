import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** A function longer than this needs a comment that says why (`Long because …`). */
const MOST_LINES = 80;
/** The composition of the relay stays a page: network state and the key-change fan-out live in their own modules. */
const MOST_CREATE_RELAY_LINES = 100;
const SAYS_WHY_LONG = /\bLong because\b/;

interface FunctionLength {
  /** The file and the line where the function begins, and its name where it has one. */
  where: string;
  name: string;
  lines: number;
  /** The comments just before the function, or before the statement or property it is the value of. */
  comment: string;
}

/** The node whose leading comments document a function: the function itself, or what it is assigned to. */
function documented(node: ts.Node): ts.Node {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent)) return parent.parent.parent;
  if (ts.isPropertyAssignment(parent) || ts.isExportAssignment(parent)) return parent;
  return node;
}

function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

function functionLengths(file: string, source: string): FunctionLength[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = tree.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = tree.getLineAndCharacterOfPosition(node.end).line;
      const owner = documented(node);
      const comment = (ts.getLeadingCommentRanges(source, owner.getFullStart()) ?? [])
        .map((range) => source.slice(range.pos, range.end))
        .join('\n');
      found.push({ where: `${file}:${first + 1}`, name: nameOf(node), lines: last - first + 1, comment });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

function relayFunctions(): FunctionLength[] {
  return readdirSync(join(ROOT, 'relay'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => posix.join('relay', name.split('\\').join('/')))
    .flatMap((file) => functionLengths(file, readFileSync(join(ROOT, file), 'utf8')));
}

/** A comment's words on one line: without the `*` that starts each line of a block comment. */
function asProse(comment: string): string {
  return comment.replace(/\s*\n\s*(\*(?!\/)|\/\/)?\s*/g, ' ');
}

/** The functions over the limit whose comment does not say why they are long, one line each. */
function unexplained(functions: FunctionLength[]): string[] {
  return functions
    .filter(({ lines, comment }) => lines > MOST_LINES && !SAYS_WHY_LONG.test(asProse(comment)))
    .map(({ where, name, lines }) => `${where} ${name}: ${lines} lines`);
}

describe('function length in relay/', () => {
  const functions = relayFunctions();

  it(`has no function over ${MOST_LINES} lines without a comment saying why it is long`, () => {
    expect(unexplained(functions)).toEqual([]);
  });

  it(`keeps createRelay under ${MOST_CREATE_RELAY_LINES} lines`, () => {
    const createRelay = functions.filter(
      ({ name, where }) => name === 'createRelay' && where.startsWith('relay/relay.ts'),
    );
    expect(createRelay).toHaveLength(1);
    expect(createRelay[0]!.lines).toBeLessThan(MOST_CREATE_RELAY_LINES);
  });
});

describe('the function length check', () => {
  const body = (count: number) =>
    Array.from({ length: count }, (_, index) => `  const line${index} = ${index};`).join('\n');

  it('measures declarations, methods and arrow functions, and reads the comment of what holds them', () => {
    const source = [
      `function plain() {\n${body(3)}\n}`,
      `/** Long because it must. */\nexport const arrow = () => {\n${body(2)}\n};`,
      `class Holder {\n  method(): void {\n${body(1)}\n  }\n}`,
    ].join('\n');
    expect(functionLengths('relay/x.ts', source).map(({ name, lines, comment }) => [name, lines, comment])).toEqual([
      ['plain', 5, ''],
      ['arrow', 4, '/** Long because it must. */'],
      ['method', 3, ''],
    ]);
  });

  it('names a long function without its reason, and lets one with a reason pass', () => {
    const long = `function tooLong() {\n${body(MOST_LINES)}\n}\n/** Long because the page gets it whole. */\nfunction explained() {\n${body(MOST_LINES)}\n}`;
    expect(unexplained(functionLengths('relay/x.ts', long))).toEqual([`relay/x.ts:1 tooLong: ${MOST_LINES + 2} lines`]);
  });
});
