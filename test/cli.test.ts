import { execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledCli } from './harness/cli.ts';

const CLI = await compiledCli();
const ROOT = join(import.meta.dirname, '..');
let child: ChildProcess | undefined;
let stream: ChildProcess | undefined;

afterEach(() => {
  for (const running of [child, stream]) running?.kill('SIGTERM');
  child = undefined;
  stream = undefined;
});

/** The curl line the demo printed for this part of a URL. */
function printedCommand(output: string, urlEnd: string): string {
  const line = output
    .split('\n')
    .find((candidate) => candidate.trim().startsWith('curl ') && candidate.includes(urlEnd));
  expect(line, `the demo prints a curl line for ${urlEnd}`).toBeDefined();
  return line!.trim();
}

/** Each module the process loads, on its stderr: Node's module hooks see every import, static or dynamic. */
const LOG_LOADS = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; registerHooks({ load(url, context, next) { process.stderr.write(`loads ${url}\\n`); return next(url, context); } });",
)}`;

function runCli(args: string[], execArgv: string[] = []): Promise<{ output: () => string; ready: string }> {
  child = spawn(process.execPath, [...execArgv, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${output}`)), 15_000);
    child!.stdout!.on('data', () => {
      if (!output.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({ output: () => output, ready: output });
    });
  });
}

function runDemo(): Promise<{ output: () => string; ready: string }> {
  return runCli(['demo', '--port', '0']);
}

describe('tabletop-relay demo', () => {
  it('prints a key and a curl line that returns ranked search results', async () => {
    const { ready } = await runDemo();
    const curl = ready.match(/curl -H "x-api-key: (ttr_[\w-]+)" "(http:\/\/127\.0\.0\.1:\d+\/search\?query=goblin)"/);
    expect(curl).not.toBeNull();
    const response = await fetch(curl![2]!, { headers: { 'x-api-key': curl![1]! } });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.type).toBe('search-result');
    expect(body.results[0].name).toBe('Goblin');
    expect(body.results.length).toBeGreaterThan(5);
  });

  it('prints a stream of live rolls and a roll command whose roll arrives on it, under the id the roll command answered', async () => {
    const { ready } = await runDemo();
    const subscribe = printedCommand(ready, '/rolls/subscribe');
    const roll = printedCommand(ready, '/roll"');
    stream = spawn('sh', ['-c', subscribe], { stdio: ['ignore', 'pipe', 'ignore'] });
    let streamed = '';
    stream.stdout!.on('data', (chunk) => (streamed += chunk));
    await expect.poll(() => streamed, { timeout: 10_000 }).toContain('event: connected');
    const answer = JSON.parse(execSync(roll, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    expect(answer).toMatchObject({ type: 'roll-result', success: true, data: { chatMessageCreated: true } });
    const rollEvent = () => /^event: roll\ndata: (.*)$/m.exec(streamed)?.[1];
    await expect.poll(rollEvent, { timeout: 10_000 }).toBeDefined();
    expect(JSON.parse(rollEvent()!)).toMatchObject({ type: 'roll-data', data: { id: answer.data.id } });
  });

  it("prints the dice feed overlay's URL, whose page and live view answer through its link", async () => {
    const { ready } = await runDemo();
    const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/overlays\/dice\?link=ttol_[\w-]+)$/m.exec(ready)?.[1];
    expect(url, ready).toBeDefined();
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/overlays/assets/overlay.js');
    for (const asset of ['overlay.js', 'overlay.css']) {
      const served = await fetch(new URL(`/overlays/assets/${asset}`, url));
      expect(served.status, `${asset}: ${await served.clone().text()}`).toBe(200);
      expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const state = await fetch(url!.replace('/overlays/dice?', '/overlays/dice/state?'));
    expect(state.status).toBe(200);
    expect(Array.isArray(await state.json())).toBe(true);
  });

  it('leaves no temporary data directory behind when stopped', async () => {
    const { ready } = await runDemo();
    const dataDir = ready.match(/Data directory: (\S+) \(temporary/)![1]!;
    expect(existsSync(dataDir)).toBe(true);
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGINT');
    await exited;
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('the compiled CLI', () => {
  it('is what package.json runs: serve, demo, settings and the tabletop-relay command', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(join(ROOT, manifest.bin['tabletop-relay']!)).toBe(CLI);
    for (const command of ['serve', 'demo', 'settings'])
      expect(manifest.scripts[command]).toContain(`node dist/cli/index.js ${command}`);
    const asProgram = spawnSync(CLI, ['--help'], { encoding: 'utf8' });
    expect(asProgram.status).toBe(0);
    expect(asProgram.stdout).toContain('Usage');
  });

  it('serve loads neither browser capture, the LAN advertisement, the MCP SDK, node:fs/promises nor the sandbox world, which only capture, LAN access, AI assistants, file routes and demo use', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-cli-'));
    try {
      const serve = await runCli(['serve', '--port', '0', '--data-dir', dataDir], ['--import', LOG_LOADS]);
      await expect.poll(serve.output).toContain('/dist/cli/index.js');
      const loaded = serve
        .output()
        .split('\n')
        .filter((line) => line.startsWith('loads '));
      const unneeded =
        /puppeteer|chromium-bidi|\/sandbox\/|\/chunks\/demo-|multicast-dns|dns-packet|@modelcontextprotocol|node:fs\/promises/;
      expect(loaded.filter((line) => unneeded.test(line))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('tabletop-relay demo --foundry-version', () => {
  it('14.366 runs a Foundry 14 world, listed as such on /clients', async () => {
    const { ready } = await runCli(['demo', '--port', '0', '--foundry-version', '14.366']);
    const curl = ready.match(/curl -H "x-api-key: (ttr_[\w-]+)" "(http:\/\/127\.0\.0\.1:\d+)\/search/);
    const response = await fetch(`${curl![2]!}/clients`, { headers: { 'x-api-key': curl![1]! } });
    const body = await response.json();
    expect(body.clients[0].foundryVersion).toBe('14.366');
  });

  it('refuses a version the sandbox cannot imitate with status 2, naming the ones it can', () => {
    const result = spawnSync(process.execPath, [CLI, 'demo', '--foundry-version', '12.331'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "--foundry-version must be a Foundry 13 or 14 version such as 13.348 or 14.366, not '12.331'",
    );
  });
});

describe('tabletop-relay demo --empty-encounters', () => {
  it('starts the sandbox world without an encounter, and says so', async () => {
    const { ready } = await runCli(['demo', '--port', '0', '--empty-encounters']);
    expect(ready).toContain('The sandbox world starts with no encounter.');
    const curl = ready.match(/curl -H "x-api-key: (ttr_[\w-]+)" "(http:\/\/127\.0\.0\.1:\d+)\/search/);
    const response = await fetch(`${curl![2]!}/encounters`, { headers: { 'x-api-key': curl![1]! } });
    expect((await response.json()).encounters).toEqual([]);
  });
});

describe('tabletop-relay options', () => {
  it('--help documents the commands and the port, host and data directory options', () => {
    const result = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const text of ['serve', 'demo', '--port', '--host', '--lan', '--data-dir', '--foundry-version'])
      expect(result.stdout).toContain(text);
  });

  it('explains a bad option and exits with status 2', () => {
    const result = spawnSync(process.execPath, [CLI, 'serve', '--port', 'eighty'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--port must be a whole number from 0 to 65535, not 'eighty'");
    const unknown = spawnSync(process.execPath, [CLI, 'launch'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown command 'launch'");
  });
});

describe('tabletop-relay demo --keep-online', () => {
  it('lets the sandbox GM link leave, and the keeper takes the world over while the printed call keeps answering', async () => {
    const { ready, output } = await runCli(['demo', '--port', '0', '--keep-online']);
    expect(ready).toContain("Keep online: the sandbox's GM browser leaves in 10 s");
    const curl = ready.match(/curl -H "x-api-key: (ttr_[\w-]+)" "(http:\/\/127\.0\.0\.1:\d+\/search\?query=goblin)"/)!;
    await expect.poll(output, { timeout: 30_000, interval: 250 }).toContain('Keeper: Online through the keeper');
    expect(output()).toContain("The sandbox's GM browser left");
    const response = await fetch(curl[2]!, { headers: { 'x-api-key': curl[1]! } });
    expect(response.status).toBe(200);
    expect((await response.json()).results[0].name).toBe('Goblin');
  }, 45_000);
});
