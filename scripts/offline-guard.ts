// Proves a tool works offline: every TCP connection and host name lookup from this process throws, and each attempt is
// recorded; every command it starts is recorded too. Child Node processes inherit the guard through NODE_OPTIONS.
import childProcess from 'node:child_process';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

export const blockedConnections: string[] = [];
export const startedCommands: string[] = [];

function refuse(what: string): never {
  blockedConnections.push(what);
  process.stderr.write(`offline-guard: blocked ${what}\n`);
  throw new Error(`offline-guard: ${what} refused: this step must not use the network`);
}

const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const [first, second] = args;
  const options =
    typeof first === 'object' && first !== null ? (first as { path?: string; host?: string; port?: number }) : {};
  const isLocalSocket = typeof first === 'string' || typeof options.path === 'string';
  if (!isLocalSocket)
    refuse(
      `a connection to ${options.host ?? (typeof second === 'string' ? second : 'localhost')}:${options.port ?? first}`,
    );
  return connect.apply(this, args);
} as typeof net.Socket.prototype.connect;

dns.lookup = ((hostname: string) => refuse(`a lookup of ${hostname}`)) as unknown as typeof dns.lookup;
dns.promises.lookup = ((hostname: string) =>
  refuse(`a lookup of ${hostname}`)) as unknown as typeof dns.promises.lookup;

const COMMAND_STARTERS = ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork'] as const;
for (const name of COMMAND_STARTERS) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as unknown as Record<string, unknown>)[name] = function recordedStart(
    this: unknown,
    ...args: unknown[]
  ) {
    const commandArgs = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    startedCommands.push([String(args[0]), ...commandArgs].join(' '));
    return original.apply(this, args);
  };
}
syncBuiltinESMExports();

const guardOption = `--import=${import.meta.url}`;
if (!(process.env['NODE_OPTIONS'] ?? '').includes(guardOption)) {
  process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} ${guardOption}`.trim();
}
