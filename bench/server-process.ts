// The parent side of a server under test: forks it in its own process (so its CPU time and memory are its own) and
// sends it the commands of server-child.ts.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildBenchServer } from '../scripts/build.ts';
import type { BenchCommand, ChildMessage, ProcessStats } from './server-child.ts';

export type ServerKind = 'relay' | 'bare';

const SOURCE: Record<ServerKind, 'relay-server' | 'bare-server'> = { relay: 'relay-server', bare: 'bare-server' };

/**
 * Both servers run compiled, as `serve` runs the relay: no TypeScript is stripped in the measured process. A CPU
 * profile is read by source file, so a profiled child runs the sources instead of one bundle.
 */
function entryOf(kind: ServerKind, profiled: boolean): Promise<string> {
  if (profiled) return Promise.resolve(fileURLToPath(new URL(`./${SOURCE[kind]}.ts`, import.meta.url)));
  return buildBenchServer(SOURCE[kind]);
}

export interface ServerProcess {
  readonly kind: ServerKind;
  readonly url: string;
  readonly apiKey: string;
  stats(): Promise<ProcessStats>;
  counters(): Promise<Record<string, number>>;
  pushRolls(count: number, intervalMs: number): Promise<void>;
  prepareSheet(bytes: number): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Write a V8 CPU profile of the child to this folder when it stops. */
  cpuProfileDir?: string;
  /** Variables the child sees besides this process's own (BENCH_JOURNAL=off). */
  env?: Record<string, string>;
}

export async function startServerProcess(kind: ServerKind, options: StartOptions = {}): Promise<ServerProcess> {
  const execArgv = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child = fork(await entryOf(kind, options.cpuProfileDir !== undefined), [], {
    execArgv,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await firstMessage(child);
  const answers = new Map<number, (result: unknown) => void>();
  child.on('message', (message: ChildMessage) => {
    if (message.type !== 'answer') return;
    answers.get(message.id)?.(message.result);
    answers.delete(message.id);
  });
  let nextId = 0;
  const ask = <T>(command: BenchCommand) =>
    new Promise<T>((resolve) => {
      const id = (nextId += 1);
      answers.set(id, resolve as (result: unknown) => void);
      child.send({ ...command, id });
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return {
    kind,
    url: ready.url,
    apiKey: ready.apiKey,
    stats: () => ask<ProcessStats>({ command: 'stats' }),
    counters: () => ask<Record<string, number>>({ command: 'counters' }),
    pushRolls: (count, intervalMs) => ask<void>({ command: 'push-rolls', count, intervalMs }),
    prepareSheet: (bytes) => ask<void>({ command: 'prepare-sheet', bytes }),
    stop: async () => {
      await ask<void>({ command: 'stop' });
      await exited;
    },
  };
}

function firstMessage(child: ChildProcess): Promise<Extract<ChildMessage, { type: 'ready' }>> {
  return new Promise((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'ready') resolve(message);
      else reject(new Error(`Unexpected first message from the ${child.pid} child`));
    });
    child.once('exit', (code) => reject(new Error(`The server process exited (${code}) before it was ready`)));
  });
}
