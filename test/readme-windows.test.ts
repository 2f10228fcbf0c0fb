// The README on Windows, where most GMs are, checked on Linux (neither PowerShell nor cmd can be installed here: Debian
// has no PowerShell package and npm's only installs one from elsewhere at install time):
// - the quick start is two lines that read alike in cmd, Windows PowerShell 5 and a POSIX shell: plain words only, so no
//   shell gives any of them another meaning (no `&&`, which PowerShell 5 lacks; no `VAR=value command`, `$(…)`, single
//   quotes, `%`, `^`, `<`, `>`, `|`);
// - each terminal recipe reads alike in every shell, or has a Windows form after it (a ```powershell block);
// - a Windows form keeps to what Windows PowerShell 5 runs as meant (curl is Invoke-WebRequest there; JSON handed to a
//   program loses its quotes; a bare comma makes an array; `<` and `>` redirect), and its `npx tabletop-relay` lines to
//   what cmd reads alike too, but for `$NAME`, where cmd users type the value;
// - and the Windows forms' `npx tabletop-relay` lines run, in the README's order, against a relay and the sandbox world,
//   from a fresh HOME as a GM would type them: `$NAME = command` keeps the command's output, `$NAME` gives it back.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './harness/ports.ts';
import { runShell, startShell, type BackgroundShell, type ShellOptions } from './harness/shell.ts';
import { shellBlocks, type ShellBlock } from './readme-blocks.ts';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCK_TIMEOUT_MS = 30_000;

/** A word every shell passes on as it is: letters, digits and `_ - . / : = + ,`, never first a `-` alone or `@`. */
const PLAIN_WORD = /^[\w./:=+,-]+$/;
/** A double-quoted word cmd, PowerShell and POSIX shells all pass on without expanding anything in it. */
const QUOTED_WORD = /^"[^"$`%!\\^]*"$/;

function words(line: string): string[] {
  return line.match(/"[^"]*"|\S+/g) ?? [];
}

/** What makes a line read differently in cmd, PowerShell 5 or a POSIX shell; none for a line that reads alike. */
function portableProblems(line: string, { variables = false } = {}): string[] {
  const problems: string[] = [];
  for (const word of words(line)) {
    if (variables && /^\$[A-Z]+$/.test(word)) continue;
    if (PLAIN_WORD.test(word) && !word.startsWith('@')) {
      // PowerShell makes an array of a bare comma list.
      if (word.includes(',') && !word.startsWith('-')) problems.push(`bare comma in ${word}`);
      continue;
    }
    if (QUOTED_WORD.test(word)) continue;
    problems.push(`'${word}' means something to some shell`);
  }
  return problems;
}

/** What Windows PowerShell 5 runs otherwise than the line means, or cannot run at all. */
function powerShellProblems(line: string): string[] {
  const problems: string[] = [];
  if (/&&|\|\|/.test(line)) problems.push('&& and || exist only from PowerShell 7');
  if (/^\s*[A-Za-z_]+=/.test(line) || /^\s*export /.test(line)) problems.push('a POSIX variable assignment');
  if (/\$\(|`/.test(line)) problems.push('POSIX command substitution');
  if (/(^|\s)curl\s/.test(line)) problems.push('curl is Invoke-WebRequest in PowerShell 5: name curl.exe');
  if (/'\{|'\[/.test(line)) problems.push('JSON handed to a program loses its quotes in PowerShell 5');
  if (/\\$/.test(line)) problems.push('a POSIX line continuation');
  if (/\|\s*node\b/.test(line)) problems.push('piped into node -p');
  return problems;
}

const HELPER = /^npx tabletop-relay /;
const ASSIGNED_HELPER = /^\$([A-Z]+) = (npx tabletop-relay .*)$/;
const SHOWN_VARIABLE = /^\$([A-Z]+)$/;

function lines(block: ShellBlock): string[] {
  return block.script
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Every problem a Windows form's line has: PowerShell 5's, and cmd's and POSIX shells' for its npx tabletop-relay commands. */
function windowsFormProblems(line: string): string[] {
  const problems = powerShellProblems(line);
  const helper = ASSIGNED_HELPER.exec(line)?.[2] ?? (HELPER.test(line) ? line : undefined);
  if (helper !== undefined) problems.push(...portableProblems(helper, { variables: true }));
  else if (!SHOWN_VARIABLE.test(line) && !/^\(Invoke-RestMethod [^()]+\)\.\w+$/.test(line))
    problems.push('neither an npx tabletop-relay command nor plain PowerShell this test knows');
  return problems;
}

const blocks = shellBlocks(README, ['sh', 'powershell']);

/** The Windows form of each POSIX block: the PowerShell block right after it. */
function windowsFormOf(block: ShellBlock): ShellBlock | undefined {
  const next = blocks[blocks.indexOf(block) + 1];
  return next?.language === 'powershell' ? next : undefined;
}

describe('the README on Windows: how the commands read', () => {
  it('the quick start is two commands that read alike in cmd, PowerShell 5 and POSIX shells', () => {
    const quickStart = README.slice(README.indexOf('## Quick start'));
    const [first] = shellBlocks(quickStart);
    expect(lines(first!)).toEqual(['npm ci', 'npm run demo']);
    for (const line of lines(first!))
      expect([...portableProblems(line), ...powerShellProblems(line)], line).toEqual([]);
  });

  it('npm ci needs nothing set first: of what it installs, only these run an install step, and Electron does not', () => {
    // Electron 45's package has no install step: it fetches its binary when the app is first started. esbuild checks
    // its platform package, node installs its own from the npm registry, electron-winstaller picks its bundled 7-Zip.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const installing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.replace(/^node_modules\//, ''));
    expect(installing.sort()).toEqual(['electron-winstaller', 'esbuild', 'node']);
  });

  it('every terminal recipe reads alike in every shell, or has a Windows form after it', () => {
    const posixOnly = blocks
      .filter((block) => block.language === 'sh' && windowsFormOf(block) === undefined)
      .filter((block) => lines(block).some((line) => portableProblems(line).length > 0))
      .map((block) => `README line ${block.line}: ${lines(block)[0]}`);
    expect(posixOnly).toEqual([]);
  });

  it('each Windows form keeps to what PowerShell 5 runs as meant, its npx lines to what cmd reads alike too', () => {
    const windowsForms = blocks.filter((block) => block.language === 'powershell');
    expect(windowsForms.length).toBeGreaterThanOrEqual(8);
    const problems = windowsForms.flatMap((block) =>
      lines(block).flatMap((line) =>
        windowsFormProblems(line).map((problem) => `line ${block.line}: ${line}: ${problem}`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('the rules catch what fails in those shells', () => {
    expect(portableProblems('ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci && npm run demo')).not.toEqual([]);
    expect(powerShellProblems('npm ci && npm run demo')).not.toEqual([]);
    expect(powerShellProblems(`TOKEN=$(node -p "1")`)).not.toEqual([]);
    expect(powerShellProblems(`curl -H "x-api-key: $KEY" http://127.0.0.1:3010/clients`)).not.toEqual([]);
    expect(powerShellProblems(`curl.exe -d '{"formula":"1d20"}' http://127.0.0.1:3010/roll`)).not.toEqual([]);
    expect(portableProblems('npx tabletop-relay key create --scopes a:read,b:read')).toEqual([
      'bare comma in a:read,b:read',
    ]);
    expect(portableProblems('npx tabletop-relay call POST /x clientId=foundry-<id>')).not.toEqual([]);
    expect(portableProblems('npx tabletop-relay call POST /x "name=%USERNAME%"')).not.toEqual([]);
  });
});

// The Windows forms, run: the POSIX blocks that read alike everywhere (npm run serve, the sandbox's pairing) as they
// are, and each Windows form in place of the POSIX block it stands for.
let home: string;
let port: number;
const running: BackgroundShell[] = [];

function shellOptions(): ShellOptions {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_DATA_HOME;
  delete env.XDG_CONFIG_HOME;
  return { cwd: ROOT, env };
}

/** A Windows form's lines as bash runs them: `$NAME = command` keeps the output; PowerShell's own lines are left out. */
function asBash(block: ShellBlock): string {
  return lines(block)
    .map((line) => {
      const assigned = ASSIGNED_HELPER.exec(line);
      if (assigned) return `${assigned[1]}=$(${assigned[2]})`;
      const shown = SHOWN_VARIABLE.exec(line);
      if (shown) return `echo "$${shown[1]}"`;
      return HELPER.test(line) ? line : '';
    })
    .join('\n');
}

function prepared(script: string): string {
  const saved = join(home, '.windows-test-state');
  return [
    'set -eo pipefail',
    'set -a',
    `[ -f '${saved}' ] && source '${saved}'`,
    script.replaceAll('127.0.0.1:3010', `127.0.0.1:${port}`),
    `export -p > '${saved}'`,
  ].join('\n');
}

async function waitInBackground(text: string): Promise<void> {
  const deadline = Date.now() + BLOCK_TIMEOUT_MS;
  while (!running.some((shell) => shell.output().includes(text))) {
    if (Date.now() > deadline) throw new Error(`No running command printed "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tabletop-relay-readme-windows-'));
  port = await freePort();
  const dataDir = join(home, '.local', 'share', 'tabletop-relay');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ port }));
});

afterAll(async () => {
  await Promise.all(running.map((shell) => shell.stop()));
  rmSync(home, { recursive: true, force: true });
});

describe('the README on Windows: the Windows forms run, in order', () => {
  for (const block of blocks.filter((candidate) => candidate.language === 'sh')) {
    const windowsForm = windowsFormOf(block);
    const ran = windowsForm ?? block;
    const name = `line ${ran.line} (${ran.heading}): ${lines(ran)[0]!.slice(0, 70)}`;
    if (block.mode.kind === 'skip' || ran.mode.kind === 'skip') {
      it.skip(`${name} — skipped: ${block.mode.kind === 'skip' ? block.mode.reason : 'as its POSIX form'}`, () => {});
      continue;
    }
    if (windowsForm && asBash(windowsForm).trim() === '') {
      it.skip(`${name} — skipped: PowerShell's own command, read by the rules above`, () => {});
      continue;
    }
    it(
      name,
      async () => {
        if (block.mode.kind === 'background') {
          const shell = startShell(prepared(block.script), shellOptions());
          running.push(shell);
          await shell.waitFor(block.mode.until, BLOCK_TIMEOUT_MS);
          return;
        }
        const script = windowsForm ? asBash(windowsForm) : block.script;
        const result = await runShell(prepared(script), shellOptions(), BLOCK_TIMEOUT_MS);
        expect(result.code, `README line ${ran.line} failed:\n${script}\n\nOutput:\n${result.output}`).toBe(0);
        if (block.mode.kind === 'then-wait') await waitInBackground(block.mode.text);
      },
      BLOCK_TIMEOUT_MS * 2,
    );
  }
});
