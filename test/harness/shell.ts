// Runs shell text as a reader of the README would, in bash, as real processes: one at a time in the foreground, or
// left running in the background (a relay, a world) in a process group of its own, so that stopping it stops all of it.
import { spawn, type ChildProcess } from 'node:child_process';

export interface ShellRun {
  code: number | null;
  output: string;
}

export interface BackgroundShell {
  readonly output: () => string;
  waitFor(text: string, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ShellOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return () => output;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group has already gone.
  }
}

function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a script to its end; a script still running after the deadline is stopped, and fails. */
export async function runShell(script: string, options: ShellOptions, timeoutMs: number): Promise<ShellRun> {
  const child = spawn('bash', ['-c', script], { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeoutMs);
  const code = await exited(child);
  clearTimeout(timer);
  return { code, output: output() };
}

/** Starts a script that keeps running (a server); stop() ends its whole process group and waits for it. */
export function startShell(script: string, options: ShellOptions): BackgroundShell {
  const child = spawn('bash', ['-c', script], { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  const ended = exited(child);
  return {
    output,
    async waitFor(text, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!output().includes(text)) {
        const running = child.exitCode === null && child.signalCode === null;
        if (!running || Date.now() > deadline) {
          throw new Error(
            `${running ? 'Still no' : 'The command ended without'} "${text}" in its output:\n${output()}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      signalGroup(child, 'SIGTERM');
      const deadline = Date.now() + 5000;
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
      // A server bash started may still be closing (its browser, its sockets): give the whole group time to end.
      while (groupAlive(child) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      signalGroup(child, 'SIGKILL');
      await ended;
    },
  };
}
