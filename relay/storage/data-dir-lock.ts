// One relay per data directory: two relays on one folder each write their own view of the same files, and what one
// stored the other's next write erases (a key made on one vanished). The lock is a socket the relay listens on, which
// the OS takes back when the process ends however it ends (kill -9, a crash, a power cut), so no lock outlives its
// relay: a Unix socket in the data directory itself, or on Windows a named pipe named after the folder. A second relay
// finds it taken, connects, and hears which process holds it.
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Who holds a data directory, as the holder says it: its process, what it is, where it answers. */
export interface DataDirHolder {
  pid?: number;
  /** `npm run serve`, `npm run demo`, `the desktop app`. */
  program?: string;
  url?: string;
}

/** Another relay holds the data directory; the message names it, and each shell adds what the GM can do. */
export class DataDirTakenError extends Error {
  readonly dataDir: string;
  readonly holder: DataDirHolder;

  constructor(dataDir: string, holder: DataDirHolder) {
    super(`${holderText(holder)} already uses the data directory ${dataDir}`);
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

/** "Another Tabletop Relay (npm run serve, process 4242, at http://127.0.0.1:3010)", with what the holder said. */
export function holderText({ pid, program, url }: DataDirHolder): string {
  const facts = [
    program,
    pid === undefined ? undefined : `process ${pid}`,
    url === undefined ? undefined : `at ${url}`,
  ];
  const known = facts.filter((fact) => fact !== undefined);
  return known.length === 0 ? 'Another Tabletop Relay' : `Another Tabletop Relay (${known.join(', ')})`;
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** How long a holder has to say who it is; one that connects but says nothing is still a holder. */
const HOLDER_ANSWER_MS = 2_000;
/** Tries at taking the lock, each after removing what a killed relay left; more would mean it cannot be removed. */
const ATTEMPTS = 3;
/** The longest Unix socket path every system takes (macOS: 104 bytes with the terminating zero). */
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * Holds the data directory for this process, or throws DataDirTakenError naming the relay that holds it. `describe`
 * is asked whenever another relay looks, so it may say what is known only later (the URL, once listening).
 */
export async function lockDataDir(dataDir: string, describe: () => DataDirHolder): Promise<DataDirLock> {
  const path = lockPathOf(dataDir);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const server = await listenOn(path, describe);
      return { release: () => new Promise((resolve) => server.close(() => resolve())) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === ATTEMPTS) throw error;
    }
    const holder = await askHolder(path);
    if (holder !== 'gone') throw new DataDirTakenError(dataDir, holder);
    if (process.platform !== 'win32') await removeLeftOver(path);
  }
}

function lockPathOf(dataDir: string): string {
  const key = createHash('sha256').update(canonical(dataDir)).digest('hex').slice(0, 32);
  if (process.platform === 'win32') return `\\\\.\\pipe\\tabletop-relay-${key}`;
  const inFolder = join(dataDir, 'relay.lock');
  return Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH_BYTES ? inFolder : join(tmpdir(), `tabletop-relay-${key}.lock`);
}

/** One name per folder however it is spelled: through links, and in any case where the file system ignores case. */
function canonical(dataDir: string): string {
  const real = realpathSync.native(dataDir);
  return process.platform === 'win32' || process.platform === 'darwin' ? real.toLowerCase() : real;
}

function listenOn(path: string, describe: () => DataDirHolder): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(JSON.stringify(describe()));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.removeAllListeners('error');
      // The relay's own servers keep the process running; the lock alone must not.
      server.unref();
      resolve(server);
    });
  });
}

/** What the relay listening on `path` says of itself, or 'gone' when nobody listens there any more. */
function askHolder(path: string): Promise<DataDirHolder | 'gone'> {
  return new Promise((resolve) => {
    let answer = '';
    let connected = false;
    const socket = connect(path);
    const settle = (holder: DataDirHolder | 'gone') => {
      socket.destroy();
      resolve(holder);
    };
    socket.setTimeout(HOLDER_ANSWER_MS, () => settle({}));
    socket.once('connect', () => (connected = true));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.once('end', () => settle(parsedHolder(answer)));
    socket.once('error', () => settle(connected ? {} : 'gone'));
  });
}

function parsedHolder(answer: string): DataDirHolder {
  try {
    const { pid, program, url } = JSON.parse(answer) as Record<string, unknown>;
    return {
      ...(typeof pid === 'number' ? { pid } : {}),
      ...(typeof program === 'string' ? { program } : {}),
      ...(typeof url === 'string' ? { url } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Removes the socket a relay that was killed left behind, and nothing else. Two relays may find it at once: each moves
 * what is at the path aside under a name of its own and looks again, so neither can remove a socket the other has just
 * made there; a live one moved aside by mistake gets its name back.
 */
async function removeLeftOver(path: string): Promise<void> {
  const aside = `${path}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  try {
    if ((await askHolder(aside)) !== 'gone') linkSync(aside, path);
  } catch {
    // Another relay holds the path again by now: the look that follows finds it.
  } finally {
    rmSync(aside, { force: true });
  }
}
