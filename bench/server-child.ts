// The child side of a server under test: tells the bench harness where it listens, then answers its commands over IPC
// (the process's CPU time and memory, the server's own counters, the peer's pushes) until told to stop.
import type { Peer } from './peer.ts';

export const BENCH_CLIENT_ID = 'bench-world';

export interface ServerUnderTest {
  url: string;
  apiKey: string;
  peer: Peer;
  /** The server's own bookkeeping, e.g. requests awaiting the world; empty for servers that keep none. */
  counters(): Record<string, number>;
  stop(): Promise<void>;
}

export interface ProcessStats {
  /** User plus system CPU time since the process started, µs. */
  cpuMicros: number;
  rssBytes: number;
  maxRssBytes: number;
}

export type BenchCommand =
  | { command: 'stats' }
  | { command: 'counters' }
  | { command: 'push-rolls'; count: number; intervalMs: number }
  | { command: 'prepare-sheet'; bytes: number }
  | { command: 'stop' };

export type ChildMessage =
  { type: 'ready'; url: string; apiKey: string } | { type: 'answer'; id: number; result: unknown };

function processStats(): ProcessStats {
  const cpu = process.cpuUsage();
  return {
    cpuMicros: cpu.user + cpu.system,
    rssBytes: process.memoryUsage.rss(),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/** Open sockets and timers as the process itself counts them: what a leak would leave behind. */
function processCounters(): Record<string, number> {
  const resources = process.getActiveResourcesInfo();
  const count = (name: string) => resources.filter((resource) => resource === name).length;
  return { openSockets: count('TCPSocketWrap'), timers: count('Timeout') };
}

async function run(server: ServerUnderTest, command: BenchCommand): Promise<unknown> {
  switch (command.command) {
    case 'stats':
      return processStats();
    case 'counters':
      return { ...server.counters(), ...processCounters() };
    case 'push-rolls':
      return server.peer.pushRolls(command.count, command.intervalMs);
    case 'prepare-sheet':
      return server.peer.prepareSheet(command.bytes);
    case 'stop':
      await server.peer.close();
      await server.stop();
      setImmediate(() => process.exit(0));
      return undefined;
  }
}

export function serveParent(server: ServerUnderTest): void {
  const send = (message: ChildMessage) => process.send!(message);
  process.on('message', (message: BenchCommand & { id: number }) => {
    void run(server, message).then((result) => send({ type: 'answer', id: message.id, result: result ?? null }));
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url: server.url, apiKey: server.apiKey });
}
