// The README is a contract: every shell block in it runs here as written, in bash, as real processes, in the order a
// reader meets them, against a relay with the sandbox world standing in for Foundry. So do the commands `demo` prints.
//
// What differs from a reader's computer, and nothing else:
// - HOME is a fresh folder, so the default data directory (~/.local/share/tabletop-relay) is the test's own; its
//   settings.json sets a free port, as a GM would under Access → Port.
// - `127.0.0.1:3010` and `localhost:3010` in a block become that port.
// - curl is run with --fail-with-body --silent --show-error, so an error status fails the block instead of printing JSON.
// - Variables a block sets (TOKEN, KEY) reach the blocks after it, as in one terminal.
// Blocks marked `<!-- readme-test: skip (why) -->` are listed as skipped with their reason (test/readme-blocks.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../scripts/chromium.ts';
import { groupsTable, GROUPS_SECTION } from '../scripts/readme-groups.ts';
import { freePort } from './harness/ports.ts';
import { runShell, startShell, type BackgroundShell, type ShellOptions } from './harness/shell.ts';
import { shellBlocks, type ShellBlock } from './readme-blocks.ts';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCK_TIMEOUT_MS = 30_000;

let home: string;
let port: number;
const running: BackgroundShell[] = [];

function shellOptions(cwd = ROOT): ShellOptions {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_DATA_HOME;
  delete env.XDG_CONFIG_HOME;
  return { cwd, env };
}

function onTestPorts(text: string): string {
  return text.replaceAll('127.0.0.1:3010', `127.0.0.1:${port}`).replaceAll('localhost:3010', `localhost:${port}`);
}

/** The script as the test runs it; with `state`, the reader's shell state before and the script's own saved after. */
function prepared(script: string, state: 'keep' | 'none'): string {
  const saved = join(home, '.readme-test-state');
  return [
    'set -eo pipefail',
    'set -a',
    ...(state === 'keep' ? [`[ -f '${saved}' ] && source '${saved}'`] : []),
    'curl() { command curl --fail-with-body --silent --show-error "$@"; }',
    onTestPorts(script),
    ...(state === 'keep' ? [`export -p > '${saved}'`] : []),
  ].join('\n');
}

async function waitInBackground(text: string): Promise<void> {
  const deadline = Date.now() + BLOCK_TIMEOUT_MS;
  while (!running.some((shell) => shell.output().includes(text))) {
    if (Date.now() > deadline)
      throw new Error(
        `No running command printed "${text}":\n${running.map((shell) => shell.output()).join('\n---\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runBlock(block: ShellBlock): Promise<void> {
  if (block.mode.kind === 'background') {
    const shell = startShell(prepared(block.script, 'keep'), shellOptions());
    running.push(shell);
    await shell.waitFor(block.mode.until, BLOCK_TIMEOUT_MS);
    return;
  }
  const result = await runShell(prepared(block.script, 'keep'), shellOptions(), BLOCK_TIMEOUT_MS);
  expect(result.code, `README line ${block.line} failed:\n${block.script}\n\nOutput:\n${result.output}`).toBe(0);
  if (block.mode.kind === 'then-wait') await waitInBackground(block.mode.text);
}

function blockName(block: ShellBlock): string {
  const first = block.script.split('\n')[0]!.slice(0, 70);
  const why = block.mode.kind === 'skip' ? ` — skipped: ${block.mode.reason}` : '';
  return `line ${block.line} (${block.heading}): ${first}${why}`;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tabletop-relay-readme-'));
  port = await freePort();
  const dataDir = join(home, '.local', 'share', 'tabletop-relay');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ port }));
});

afterAll(async () => {
  await Promise.all(running.map((shell) => shell.stop()));
  rmSync(home, { recursive: true, force: true });
});

describe('README shell blocks, in order', () => {
  const blocks = shellBlocks(README);
  it('has blocks to run, and the path from a fresh clone to a roll among them', () => {
    const runnable = blocks
      .filter((block) => block.mode.kind !== 'skip')
      .map((block) => block.script)
      .join('\n');
    for (const step of ['npm run serve', 'npm run sandbox:pair', '/approve', '/admin/keys', '-d formula=1d20'])
      expect(runnable).toContain(step);
  });
  for (const block of blocks) {
    if (block.mode.kind === 'skip') it.skip(blockName(block), () => {});
    else it(blockName(block), () => runBlock(block), BLOCK_TIMEOUT_MS * 2);
  }
});

/** The URL options the README's OBS section names, each with the first value it offers (`theme=dark|light|none`). */
function readmeOverlayOptions(): URLSearchParams {
  const section = README.slice(README.indexOf('### Streaming with OBS'), README.indexOf("### Players' phones"));
  const paragraph = section.slice(section.indexOf('Options can also go in the URL'));
  const options = new URLSearchParams();
  for (const [, name, value] of paragraph.matchAll(/`(\w+)=([^`|]+)[^`]*`/g))
    options.set(name!, decodeURIComponent(value!));
  return options;
}

describe('the Streaming with OBS section', () => {
  it(
    'an overlay link with the options it names shows a roll posted to chat, and its view and stream answer',
    async () => {
      const options = readmeOverlayOptions();
      expect([...options.keys()].sort()).toEqual(['accent', 'fontSize', 'hold', 'max', 'position', 'theme']);
      const dataDir = join(home, '.local', 'share', 'tabletop-relay');
      const token = (JSON.parse(readFileSync(join(dataDir, 'admin-token'), 'utf8')) as { token: string }).token;
      const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const relay = `http://127.0.0.1:${port}`;
      const status = (await (await fetch(`${relay}/admin/status`, { headers: admin })).json()) as {
        worlds: { clientId: string }[];
      };
      const made = await fetch(`${relay}/admin/overlay-links`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ overlay: 'dice', clientId: status.worlds[0]!.clientId }),
      });
      const { url } = (await made.json()) as { url: string };
      for (const path of ['/overlays/dice/state', '/overlays/dice/events']) {
        const answer = await fetch(url.replace('/overlays/dice', path), { signal: AbortSignal.timeout(5000) });
        expect(answer.status, path).toBe(200);
        await answer.body?.cancel();
      }
      const browser = await launchChromium();
      try {
        const overlay = await browser.newPage();
        await overlay.goto(`${url}&${options}`);
        expect(await overlay.evaluate(() => document.body.className)).toContain(options.get('theme')!);
        const roller = await fetch(`${relay}/admin/keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'roller', scopes: ['roll:execute'] }),
        });
        const rolled = await fetch(`${relay}/roll`, {
          method: 'POST',
          headers: { 'x-api-key': ((await roller.json()) as { key: string }).key, 'content-type': 'application/json' },
          body: JSON.stringify({ formula: '1d20+7', createChatMessage: true }),
        });
        const total = ((await rolled.json()) as { data: { roll: { total: number } } }).data.roll.total;
        await overlay.waitForFunction(
          (formula, sum) =>
            [...document.querySelectorAll('.roll')].some(
              (roll) => roll.textContent?.includes(formula) && roll.textContent.includes(sum),
            ),
          { timeout: 10_000 },
          '1d20+7',
          String(total),
        );
      } finally {
        await browser.close();
      }
    },
    BLOCK_TIMEOUT_MS,
  );
});

describe('README API groups', () => {
  it('lists every group and operation the relay serves, from the route tables', () => {
    const listed = README.match(GROUPS_SECTION)?.[2];
    expect(listed, 'README.md needs the api-groups markers around the list of groups').toBeDefined();
    expect(listed, 'The route tables changed: run npm run readme:groups').toBe(groupsTable());
  });
});

describe('the commands demo prints', () => {
  it(
    'each runs as printed, and the stream it prints shows the roll it prints',
    async () => {
      const demo = startShell('npm run demo -- --port 0', shellOptions());
      running.push(demo);
      await demo.waitFor('Press Ctrl+C', BLOCK_TIMEOUT_MS);
      const commands = demo
        .output()
        .split('\n')
        .filter((line) => /^\s+curl /.test(line))
        .map((line) => line.trim());
      const [stream, ...others] = [
        ...commands.filter((line) => line.includes(' -N ')),
        ...commands.filter((line) => !line.includes(' -N ')),
      ];
      expect(stream).toContain('/rolls/subscribe');
      expect(others.some((line) => line.includes('/roll"'))).toBe(true);
      const folder = join(home, 'demo');
      mkdirSync(folder);
      const events = startShell(prepared(stream!, 'none'), shellOptions(folder));
      running.push(events);
      await events.waitFor('event: connected', BLOCK_TIMEOUT_MS);
      for (const command of others) {
        const result = await runShell(prepared(command, 'none'), shellOptions(folder), BLOCK_TIMEOUT_MS);
        expect(result.code, `${command}\n\nOutput:\n${result.output}`).toBe(0);
      }
      await events.waitFor('event: roll', BLOCK_TIMEOUT_MS);
      expect(readFileSync(join(folder, 'sheet.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
    },
    BLOCK_TIMEOUT_MS * 3,
  );
});
