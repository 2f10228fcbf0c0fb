// Commands that stand in for the README's terminal recipes in any shell, Windows' PowerShell and cmd included, where
// `TOKEN=$(…)`, single-quoted JSON and `curl` piped into `node -p` do not work: each talks to the relay on this computer
// with the admin token from its data directory (as `settings` does) and prints what a script keeps, alone on its line.
import { writeFileSync } from 'node:fs';
import { KEY_PRESETS, type KeyPresetId } from '../contracts/scopes.ts';
import type { PairRequestView, RelayStatus } from '../contracts/admin-api.ts';
import { adminCall, callLocal, localRelay, stop, type LocalRelay } from './local-relay.ts';

export interface HelperOptions {
  dataDir?: string;
  port?: number;
  name?: string;
  preset?: string;
  scopes?: string;
  user?: string;
  worlds: string[];
  key?: string;
  admin: boolean;
  out?: string;
}

/** `admin-token`: the admin token, for scripts that call the admin API themselves. */
export function printAdminToken(options: HelperOptions): void {
  process.stdout.write(`${localRelay(options).adminToken}\n`);
}

/** `CODE "World title", from 127.0.0.1, page http://localhost:30000`: what the GM checks before approving. */
function describeRequest({ code, world, source, origin }: PairRequestView): string {
  const page = origin ? `page ${origin}` : 'sent by no browser';
  return `${code} "${world.worldTitle ?? world.worldId}", from ${source}, ${page}`;
}

async function pairRequests(relay: LocalRelay): Promise<PairRequestView[]> {
  return (await adminCall<{ pairRequests: PairRequestView[] }>(relay, 'GET', '/admin/pair-requests')).pairRequests;
}

/** `pair-requests`: the worlds waiting for the GM's approval, one a line: code, title, where the request came from. */
export async function listPairRequests(options: HelperOptions): Promise<void> {
  const requests = await pairRequests(localRelay(options));
  if (requests.length === 0) process.stdout.write('No pair request is waiting.\n');
  for (const request of requests) process.stdout.write(`${describeRequest(request)}\n`);
}

/** `approve [code]`: approves a pair request; without a code, the only one waiting. */
export async function approvePairRequest(options: HelperOptions, code: string | undefined): Promise<void> {
  const relay = localRelay(options);
  let chosen = code;
  if (chosen === undefined) {
    const requests = await pairRequests(relay);
    if (requests.length === 0) stop('No pair request is waiting: press Pair in the Foundry module first.');
    if (requests.length > 1)
      stop(
        `${requests.length} pair requests are waiting; approve one by its code:\n${requests.map(describeRequest).join('\n')}`,
      );
    chosen = requests[0]!.code;
  }
  const approved = await adminCall<PairRequestView>(
    relay,
    'POST',
    `/admin/pair-requests/${encodeURIComponent(chosen)}/approve`,
  );
  process.stdout.write(`Approved ${describeRequest(approved)}\n`);
}

function presetScopes(id: string): readonly string[] {
  const preset = KEY_PRESETS.find((candidate) => candidate.id === (id as KeyPresetId));
  if (!preset) stop(`No preset '${id}': use ${KEY_PRESETS.map((candidate) => candidate.id).join(', ')}`);
  return preset.scopes;
}

/** A tabletop user by id, or by name in the worlds connected now. */
async function userIdOf(relay: LocalRelay, user: string): Promise<string> {
  const status = await adminCall<RelayStatus>(relay, 'GET', '/admin/status');
  const players = status.worlds.flatMap((world) => world.players);
  const byId = players.find((player) => player.id === user);
  if (byId) return byId.id;
  const named = players.filter((player) => player.name === user);
  if (named.length === 1) return named[0]!.id;
  stop(
    named.length === 0
      ? `No user '${user}' in the connected worlds: give the user's id, or its name while its world is connected.`
      : `${named.length} users are named '${user}': give the user's id instead.`,
  );
}

/** `key create`: makes a key with a preset's scopes or those listed, and prints the key alone, once. */
export async function createKey(options: HelperOptions): Promise<void> {
  if (!options.name) stop('key create needs --name: what the key is for, as the settings list it.');
  if (!options.preset && !options.scopes)
    stop(`key create needs --preset (${KEY_PRESETS.map((preset) => preset.id).join(', ')}) or --scopes a,b,…`);
  const relay = localRelay(options);
  const scopes = new Set([
    ...(options.preset ? presetScopes(options.preset) : []),
    ...(options.scopes?.split(',').map((scope) => scope.trim()) ?? []),
  ]);
  const made = await adminCall<{ key: string }>(relay, 'POST', '/admin/keys', {
    name: options.name,
    scopes: [...scopes],
    ...(options.user ? { userId: await userIdOf(relay, options.user) } : {}),
    ...(options.worlds.length > 0 ? { worldIds: options.worlds } : {}),
  });
  process.stdout.write(`${made.key}\n`);
}

/** A field's value as the admin API's JSON takes it: `true`, `3020` and `["a"]` as what they are, anything else as text. */
function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fieldsOf(pairs: readonly string[]): Array<[string, string]> {
  return pairs.map((pair) => {
    const equals = pair.indexOf('=');
    if (equals <= 0) stop(`'${pair}' is not a field: write name=value`);
    return [pair.slice(0, equals), pair.slice(equals + 1)];
  });
}

/**
 * `call METHOD PATH [name=value …]`: one call to the relay, as a tool makes it. With --key the fields go as a form (what
 * Stream Deck plugins send; the query string for GET and DELETE); with --admin, as the admin API's JSON, with the admin
 * token. The answer is printed (JSON indented), or written to --out.
 */
export async function callRelay(options: HelperOptions, method: string, path: string, pairs: string[]): Promise<void> {
  if (!options.admin && !options.key) stop('call needs --key <your API key>, or --admin for the admin API.');
  const relay = localRelay(options);
  const fields = fieldsOf(pairs);
  const inQuery = !options.admin && (method === 'GET' || method === 'DELETE');
  const form = new URLSearchParams(fields).toString();
  const target = inQuery && fields.length > 0 ? `${path}${path.includes('?') ? '&' : '?'}${form}` : path;
  const init: RequestInit = options.admin
    ? {
        method,
        headers: { authorization: `Bearer ${relay.adminToken}`, 'content-type': 'application/json' },
        ...(method === 'GET'
          ? {}
          : { body: JSON.stringify(Object.fromEntries(fields.map(([name, value]) => [name, jsonValue(value)]))) }),
      }
    : {
        method,
        headers: { 'x-api-key': options.key!, 'content-type': 'application/x-www-form-urlencoded' },
        ...(inQuery ? {} : { body: form }),
      };
  const answer = await callLocal(relay, target, init);
  const bytes = Buffer.from(await answer.arrayBuffer());
  const isJson = answer.headers.get('content-type')?.includes('json') === true;
  if (!answer.ok) {
    const error = isJson ? (JSON.parse(bytes.toString('utf8')) as { error?: string }).error : undefined;
    stop(`HTTP ${answer.status}: ${error ?? bytes.toString('utf8').slice(0, 500)}`);
  }
  if (options.out) {
    writeFileSync(options.out, bytes);
    process.stdout.write(`Saved ${bytes.length} bytes to ${options.out}\n`);
    return;
  }
  process.stdout.write(
    isJson ? `${JSON.stringify(JSON.parse(bytes.toString('utf8')), null, 2)}\n` : bytes.toString('utf8'),
  );
}
