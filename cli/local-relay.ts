// The relay running on this computer, as the commands that talk to it find it: its data directory, the admin token
// kept there, and its port (--port, or the stored setting). The admin token goes to 127.0.0.1 only.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HOST, DEFAULT_PORT } from '../relay/relay.ts';

/** Something the GM can fix outside the command line: one line that says what to do, no stack trace, exit code 1. */
export function stop(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

export function defaultDataDir(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'tabletop-relay');
}

function readJsonIn(dataDir: string, name: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface LocalRelay {
  base: string;
  adminToken: string;
}

interface LocalRelayPlace {
  dataDir?: string;
  port?: number;
}

/** Where the relay with this data directory answers on this computer: --port, or its stored port setting. */
export function localRelayUrl(options: LocalRelayPlace): string {
  const storedPort = readJsonIn(options.dataDir ?? defaultDataDir(), 'settings.json')?.port;
  const port = options.port ?? (typeof storedPort === 'number' ? storedPort : DEFAULT_PORT);
  return `http://${DEFAULT_HOST}:${port}`;
}

export function localRelay(options: LocalRelayPlace): LocalRelay {
  const dataDir = options.dataDir ?? defaultDataDir();
  const token = readJsonIn(dataDir, 'admin-token')?.token;
  if (typeof token !== 'string') {
    stop(
      `No admin token in ${dataDir}: start the relay with 'npm run serve', or give its data directory with --data-dir.`,
    );
  }
  return { base: localRelayUrl(options), adminToken: token };
}

/** A call to the local relay; no answer at all stops with how to start it or find its port. */
export async function callLocal(relay: LocalRelay, path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${relay.base}${path}`, init);
  } catch {
    stop(
      `No Tabletop Relay answers at ${relay.base}: start it with 'npm run serve', or give the port it listens on with --port.`,
    );
  }
}

/** An admin call with the admin token, JSON in and out; a refusal stops with the relay's words. */
export async function adminCall<T>(relay: LocalRelay, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await callLocal(relay, path, {
    method,
    headers: { authorization: `Bearer ${relay.adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await answer.json().catch(() => ({}))) as T & { error?: string };
  if (!answer.ok)
    stop(`The relay at ${relay.base} refused ${method} ${path}: ${parsed.error ?? `HTTP ${answer.status}`}`);
  return parsed;
}
