// The test's side: starts an app on the stand-in in a child process and talks to control.ts over its IPC channel.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { commands, Command, StandInState } from './control.ts';

const LAUNCH = fileURLToPath(new URL('./launch.ts', import.meta.url));

type Result<C extends Command> = Awaited<ReturnType<(typeof commands)[C]>>;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class LaunchedApp {
  readonly exited: Promise<Exit>;
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #output = '';
  #nextId = 0;
  #exit: Exit | undefined;

  /** Starts `target` (an app folder or an entry file) as Electron would, with this environment (HOME, XDG_CONFIG_HOME…). */
  constructor(target: string, env: NodeJS.ProcessEnv, args: string[] = []) {
    this.#child = spawn(process.execPath, [LAUNCH, target, ...args], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    this.#child.stdout!.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.#child.stderr!.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.#child.on('message', (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
      const call = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      if (message.ok) call?.resolve(message.result);
      else call?.reject(new Error(message.error));
    });
    this.exited = new Promise((resolve) => {
      this.#child.on('exit', (code, signal) => {
        this.#exit = { code, signal };
        for (const call of this.#waiting.values())
          call.reject(new Error(`the app exited (${code ?? signal})\n${this.#output}`));
        this.#waiting.clear();
        resolve({ code, signal });
      });
    });
  }

  /** What the app printed (stdout and stderr). */
  get output(): string {
    return this.#output;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  call<C extends Command>(command: C, ...args: Parameters<(typeof commands)[C]>): Promise<Result<C>> {
    if (this.#exit)
      return Promise.reject(new Error(`the app has exited (${this.#exit.code ?? this.#exit.signal})\n${this.#output}`));
    this.#nextId += 1;
    const id = this.#nextId;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#child.send({ id, command, args });
    });
  }

  state(): Promise<StandInState> {
    return this.call('state');
  }

  /** Reads the state until `check` returns something, or fails after timeoutMs naming what it waited for and the last state. */
  async waitFor<T>(what: string, check: (state: StandInState) => T | undefined | false, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: StandInState | undefined;
    while (Date.now() < deadline) {
      last = await this.state();
      const found = check(last);
      if (found !== undefined && found !== false) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(
      `Timed out after ${timeoutMs} ms waiting for ${what}; the app is ${JSON.stringify(last, null, 1)}\n${this.#output}`,
    );
  }

  /** The exit, or a failure naming what the app printed when it is still running after timeoutMs. */
  exitWithin(timeoutMs = 5000): Promise<Exit> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the app still runs after ${timeoutMs} ms; it printed:\n${this.#output}`)),
        timeoutMs,
      );
    });
    return Promise.race([this.exited, late]).finally(() => clearTimeout(timer));
  }

  /** Waits until the app has printed this line. */
  async waitForLine(line: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#output.split('\n').includes(line)) {
      if (this.#exit || Date.now() > deadline)
        throw new Error(`the app never printed "${line}"; it printed:\n${this.#output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Ends the app, letting it close its Chromium first. */
  async kill(): Promise<void> {
    if (this.#exit) return;
    this.#child.kill('SIGTERM');
    await this.exitWithin(3000).catch(() => this.#child.kill('SIGKILL'));
    await this.exited;
  }
}
