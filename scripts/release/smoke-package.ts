// Starts each unpacked desktop package in a release folder once, as a GM would after installing it, with a home of its
// own: the relay must answer GET /api/status, the app's log must say the tray was created, and starting the app again
// with --quit must end it with exit code 0.
//   node scripts/release/smoke-package.ts <release folder>
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STARTUP_DEADLINE_MS = 60_000;
/** electron-builder's unpacked folders and the executable in each. */
const UNPACKED = [
  { folder: 'linux-unpacked', executable: 'tabletop-relay' },
  { folder: 'win-unpacked', executable: 'Tabletop Relay.exe' },
  { folder: 'mac', executable: 'Tabletop Relay.app/Contents/MacOS/Tabletop Relay' },
  { folder: 'mac-arm64', executable: 'Tabletop Relay.app/Contents/MacOS/Tabletop Relay' },
];

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}

/** The app's log, wherever this system puts it under the fresh home. */
function logOf(home: string): string {
  return filesUnder(home)
    .filter((path) => /[\\/]logs?[\\/]/i.test(path) && path.endsWith('.log'))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

function freshEnvironment(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    APPDATA: join(home, 'AppData', 'Roaming'),
    LOCALAPPDATA: join(home, 'AppData', 'Local'),
  };
}

async function until<T>(what: string, check: () => Promise<T | undefined>, app: ChildProcess): Promise<T> {
  const deadline = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (app.exitCode !== null) throw new Error(`the app exited with ${app.exitCode} before ${what}`);
    if (Date.now() > deadline) throw new Error(`no ${what} within ${STARTUP_DEADLINE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function smoke(executable: string): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'tabletop-relay-smoke-'));
  const env = freshEnvironment(home);
  // Linux CI runners refuse Chromium's sandbox to unprivileged users.
  const switches = process.platform === 'linux' ? ['--no-sandbox'] : [];
  const app = spawn(executable, switches, { env, stdio: 'inherit' });
  const exited = exitOf(app);
  try {
    const url = await until(
      'log line saying where the relay listens',
      async () => /Relay listening at (http:\/\/\S+)/.exec(logOf(home))?.[1],
      app,
    );
    const status = await until(
      'answer to GET /api/status',
      async () => {
        const answer = await fetch(`${url}/api/status`).catch(() => undefined);
        return answer?.ok ? ((await answer.json()) as { status?: string }) : undefined;
      },
      app,
    );
    if (status.status !== 'ok') throw new Error(`GET /api/status answered ${JSON.stringify(status)}`);
    await until('log line saying the tray was created', async () => (logOf(home).includes('Tray created') ? true : undefined), app);
    const second = await exitOf(spawn(executable, [...switches, '--quit'], { env, stdio: 'inherit' }));
    if (second !== 0) throw new Error(`the second start with --quit exited with ${second}`);
    const code = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(resolve, 30_000, 'still running').unref()),
    ]);
    if (code !== 0) throw new Error(`the app did not quit with 0 after --quit: ${String(code)}`);
    console.log(`${executable}: relay at ${url} answered, tray created, quit with 0`);
  } finally {
    if (app.exitCode === null) app.kill();
    rmSync(home, { recursive: true, force: true });
  }
}

const release = process.argv[2] ?? 'release';
const found = UNPACKED.map(({ folder, executable }) => join(release, folder, executable)).filter(existsSync);
if (found.length === 0) {
  console.error(`No unpacked package in ${release}: expected one of ${UNPACKED.map((entry) => entry.folder).join(', ')}`);
  process.exit(1);
}
for (const executable of found) await smoke(executable);
