// The README's shell blocks (```sh fences) and what the README says the test is to do with each, in an HTML comment on
// the line before the fence:
//   <!-- readme-test: skip (why) -->                  not run; the reason is required
//   <!-- readme-test: background until "TEXT" -->     keeps running (a relay, a world); the next block runs once TEXT is printed
//   <!-- readme-test: then wait for "TEXT" -->        runs, then waits until a background block prints TEXT
// A block without a comment runs to its end and must succeed. Plain fences (``` without sh) hold usage synopses, not commands.
// ```powershell fences hold the Windows form of the shell block before them (test/readme-windows.test.ts).

export type BlockMode =
  | { kind: 'run' }
  | { kind: 'skip'; reason: string }
  | { kind: 'background'; until: string }
  | { kind: 'then-wait'; text: string };

export type BlockLanguage = 'sh' | 'powershell';

export interface ShellBlock {
  language: BlockLanguage;
  /** 1-based line of the opening fence, to name the block in failures. */
  line: number;
  heading: string;
  script: string;
  mode: BlockMode;
}

const DIRECTIVE = /^<!-- readme-test: (.*) -->$/;

function modeFrom(directive: string | undefined, line: number): BlockMode {
  if (directive === undefined) return { kind: 'run' };
  const skip = directive.match(/^skip \((.+)\)$/);
  if (skip) return { kind: 'skip', reason: skip[1]! };
  const background = directive.match(/^background until "(.+)"$/);
  if (background) return { kind: 'background', until: background[1]! };
  const wait = directive.match(/^then wait for "(.+)"$/);
  if (wait) return { kind: 'then-wait', text: wait[1]! };
  throw new Error(`README line ${line - 1}: unknown readme-test directive '${directive}'`);
}

/** The README's blocks in these languages, in the order a reader meets them (POSIX shell blocks by default). */
export function shellBlocks(markdown: string, languages: readonly BlockLanguage[] = ['sh']): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let heading = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = line.match(/^(\s*)```(sh|powershell)\s*$/);
    if (!fence || !languages.includes(fence[2] as BlockLanguage)) continue;
    const indent = fence[1]!.length;
    const directive = lines[index - 1]?.trim().match(DIRECTIVE)?.[1];
    const body: string[] = [];
    const start = index;
    for (index++; index < lines.length && lines[index]!.trim() !== '```'; index++)
      body.push(lines[index]!.slice(indent));
    blocks.push({
      language: fence[2] as BlockLanguage,
      line: start + 1,
      heading,
      script: body.join('\n'),
      mode: modeFrom(directive, start + 1),
    });
  }
  return blocks;
}
