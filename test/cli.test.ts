import { execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../cli/index.ts', import.meta.url));
let child: ChildProcess | undefined;
let stream: ChildProcess | undefined;

afterEach(() => {
  for (const running of [child, stream]) running?.kill('SIGTERM');
  child = undefined;
  stream = undefined;
});

/** The curl line the demo printed for this part of a URL. */
function printedCommand(output: string, urlEnd: string): string {
  const line = output.split('\n').find((candidate) => candidate.trim().startsWith('curl ') && candidate.includes(urlEnd));
  expect(line, `the demo prints a curl line for ${urlEnd}`).toBeDefined();
  return line!.trim();
}

function runDemo(): Promise<{ output: () => string; ready: string }> {
  child = spawn(process.execPath, [CLI, 'demo', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo did not start: ${output}`)), 15_000);
    child!.stdout!.on('data', () => {
      if (!output.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({ output: () => output, ready: output });
    });
  });
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
    const event = `event: roll\ndata: {"id":"${answer.data.id}"`;
    await expect.poll(() => streamed, { timeout: 10_000 }).toContain(event);
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

describe('tabletop-relay options', () => {
  it('--help documents the commands and the port, host and data directory options', () => {
    const result = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const text of ['serve', 'demo', '--port', '--host', '--lan', '--data-dir']) expect(result.stdout).toContain(text);
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
