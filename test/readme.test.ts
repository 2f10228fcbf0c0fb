// The README is a contract: every shell block in it runs here as written, in bash, as real processes, in the order a
// reader meets them, against a relay with the sandbox world standing in for Foundry. So do the commands `demo` prints.
//
// What differs from a reader's computer, and nothing else:
// - HOME is a fresh folder, so the default data directory (~/.local/share/tabletop-relay) is the test's own; its
//   settings.json sets a free port, as a GM would under Access → Port.
// - `127.0.0.1:3010` and `localhost:3010` in a block become that port; `localhost:8080`, where the OBS recipe serves its
//   page, becomes the port of the test's own static server.
// - curl is run with --fail-with-body --silent --show-error, so an error status fails the block instead of printing JSON.
// - Variables a block sets (TOKEN, KEY) reach the blocks after it, as in one terminal.
// Blocks marked `<!-- readme-test: skip (why) -->` are listed as skipped with their reason (test/readme-blocks.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
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
let overlayPort: number;
const running: BackgroundShell[] = [];

function shellOptions(cwd = ROOT): ShellOptions {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.XDG_DATA_HOME;
  delete env.XDG_CONFIG_HOME;
  return { cwd, env };
}

function onTestPorts(text: string): string {
  return text
    .replaceAll('127.0.0.1:3010', `127.0.0.1:${port}`)
    .replaceAll('localhost:3010', `localhost:${port}`)
    .replaceAll('localhost:8080', `localhost:${overlayPort}`);
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
  [port, overlayPort] = await Promise.all([freePort(), freePort()]);
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

/** Serves one page at /rolls.html, as `python3 -m http.server` would from the recipe's folder. */
function servePage(html: string): Promise<Server> {
  return new Promise((resolve) => {
    const server = createHttpServer((request, response) => {
      if (request.url !== '/rolls.html') response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    server.listen(overlayPort, '127.0.0.1', () => resolve(server));
  });
}

describe('the OBS recipe', () => {
  it(
    'its page, served from the origin the README allows, shows a roll posted to chat',
    async () => {
      const page = README.match(/```html\n([\s\S]*?)\n```/)?.[1];
      expect(page, 'README.md has the OBS page in an html block').toBeDefined();
      const dataDir = join(home, '.local', 'share', 'tabletop-relay');
      const token = (JSON.parse(readFileSync(join(dataDir, 'admin-token'), 'utf8')) as { token: string }).token;
      const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const made = await fetch(`http://127.0.0.1:${port}/admin/keys`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ name: 'OBS', scopes: ['events:subscribe'] }),
      });
      const { key } = (await made.json()) as { key: string };
      const server = await servePage(onTestPorts(page!).replace("'ttr_…'", `'${key}'`));
      const browser = await launchChromium();
      try {
        const overlay = await browser.newPage();
        const streamOpen = overlay.waitForResponse(
          (response) => response.url().endsWith('/rolls/subscribe') && response.status() === 200,
          { timeout: 10_000 },
        );
        await overlay.goto(`http://localhost:${overlayPort}/rolls.html`);
        await streamOpen;
        const roller = await fetch(`http://127.0.0.1:${port}/admin/keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name: 'roller', scopes: ['roll:execute'] }),
        });
        const rolled = await fetch(`http://127.0.0.1:${port}/roll`, {
          method: 'POST',
          headers: { 'x-api-key': ((await roller.json()) as { key: string }).key, 'content-type': 'application/json' },
          body: JSON.stringify({ formula: '1d20+7', createChatMessage: true }),
        });
        const total = ((await rolled.json()) as { data: { roll: { total: number } } }).data.roll.total;
        await overlay.waitForFunction(
          (text) => document.getElementById('roll')?.textContent?.includes(text),
          { timeout: 10_000 },
          `1d20+7 = ${total}`,
        );
      } finally {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
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
