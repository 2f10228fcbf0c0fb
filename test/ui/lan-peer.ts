// A second machine for LAN tests, made of a network namespace and a veth pair with addresses of our own choosing:
// the relay's side gets 10.200.N.1 in this namespace, the peer 10.200.N.2 (and, when asked, more addresses after it:
// several machines in one) in its own, and with `ipv6` fd00:7474:N::1 and fd00:7474:N::2, ::3, … in one /64. No traffic
// leaves the host.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import { chromiumPath, launchChromium } from '../../scripts/chromium.ts';

const run = promisify(execFile);

/** One HTTP call from the peer: `from` is one of its addresses (the first by default). */
export interface PeerRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  from?: string;
}

/** What the peer got back; status 0 when the connection was refused or timed out. */
export interface PeerAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, when it is. */
  json?: any;
}

export interface LanPeer {
  /** The non-loopback address of this machine that the peer reaches the relay on. */
  hostAddress: string;
  peerAddress: string;
  /** Every IPv4 address of the peer, `peerAddress` first: each one another machine on the LAN as the relay sees it. */
  peerAddresses: string[];
  /** With `ipv6`: this machine's IPv6 address on the link, and the peer's, all in one /64. */
  hostIpv6Address?: string;
  peerIpv6Addresses: string[];
  /** The peer's network namespace, for running a program there with `ip netns exec`. */
  namespace: string;
  /** A GET from the peer's namespace; status 0 when the connection is refused or times out. */
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: string }>;
  /** Calls from the peer's namespace, one after the other, in one program: what each got back, in order. */
  requests(requests: readonly PeerRequest[]): Promise<PeerAnswer[]>;
  /**
   * Runs Node with these arguments in the peer's namespace (in this folder, so a script may require this project's
   * packages), its stdio piped to this process.
   */
  node(args: string[]): ChildProcessWithoutNullStreams;
  /**
   * Chromium on the peer: a phone on the LAN as the relay sees it. Driven over a pipe, since a DevTools port in the
   * peer's namespace could not be reached from here.
   */
  chromium(): Promise<Browser>;
  close(): Promise<void>;
}

const PEER_GET = `
const [url, headers] = [process.argv[1], JSON.parse(process.argv[2])];
fetch(url, { headers, signal: AbortSignal.timeout(3000) })
  .then(async (response) => console.log(JSON.stringify({ status: response.status, body: await response.text() })))
  .catch(() => console.log(JSON.stringify({ status: 0, body: '' })));
`;

/** Reads the requests as JSON from stdin, sends each from its address in turn, writes the answers as JSON. */
const PEER_REQUESTS = `
const { request } = require('node:http');
function send({ method = 'GET', url, headers = {}, body, from }) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const target = new URL(url);
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: target.hostname.replace('[', '').replace(']', ''), port: target.port, path: target.pathname + target.search, method, localAddress: from,
        agent: false, timeout: 3000,
        headers: text === undefined ? headers : { 'content-type': 'application/json', ...headers },
      },
      (incoming) => {
        let answer = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk) => (answer += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode, headers: incoming.headers, body: answer }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy());
    outgoing.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    outgoing.end(text);
  });
}
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const answers = [];
  for (const call of JSON.parse(input)) answers.push(await send(call));
  process.stdout.write(JSON.stringify(answers));
});
`;

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

/**
 * A 10.200.N.0/24 that no interface of this machine uses yet, from this process's own N on: test files run in parallel,
 * and two peers on one subnet would answer for each other's addresses.
 */
async function freeSubnet(): Promise<number> {
  const { stdout } = await run('ip', ['-4', '-o', 'addr', 'show']);
  const used = new Set([...stdout.matchAll(/\b10\.200\.(\d+)\./g)].map((match) => Number(match[1])));
  for (let step = 0; step < 250; step++) {
    const id = (process.pid + step) % 250;
    if (!used.has(id)) return id;
  }
  throw new Error('Every 10.200.N.0/24 is in use');
}

function nodeIn(namespace: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn('ip', ['netns', 'exec', namespace, process.execPath, ...args]);
}

/** Runs `script` with node in the namespace, `input` on its stdin; resolves with what it wrote. */
function runIn(namespace: string, script: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = nodeIn(namespace, ['-e', script]);
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`peer program failed: ${errors}`))));
    child.stdin.end(input);
  });
}

function parsed(answer: Omit<PeerAnswer, 'json'>): PeerAnswer {
  try {
    return { ...answer, json: JSON.parse(answer.body) };
  } catch {
    return answer;
  }
}

/**
 * Undefined where namespaces cannot be made (not root, no `ip`): the caller says what it checked instead. In CI it
 * throws instead. `machines`: how many addresses the peer has (1 by default, at most 200); `ipv6`: give each an IPv6
 * address too, all in one /64.
 */
export async function createLanPeer(options: { machines?: number; ipv6?: boolean } = {}): Promise<LanPeer | undefined> {
  const id = await freeSubnet().catch(() => process.pid % 250);
  const namespace = `ttr-ui-${process.pid}`;
  const hostSide = `ttrh${process.pid}`.slice(0, 15);
  const peerSide = `ttrp${process.pid}`.slice(0, 15);
  const hostAddress = `10.200.${id}.1`;
  const peerAddresses = Array.from({ length: options.machines ?? 1 }, (_, index) => `10.200.${id}.${index + 2}`);
  const ipv6Prefix = `fd00:7474:${id.toString(16)}:`;
  const hostIpv6Address = options.ipv6 ? `${ipv6Prefix}:1` : undefined;
  const peerIpv6Addresses = options.ipv6 ? peerAddresses.map((_, index) => `${ipv6Prefix}:${index + 2}`) : [];
  const close = async () => {
    await run('ip', ['link', 'del', hostSide]).catch(() => undefined);
    await run('ip', ['netns', 'del', namespace]).catch(() => undefined);
  };
  try {
    await ip('netns', 'add', namespace);
    await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', peerSide);
    await ip('link', 'set', peerSide, 'netns', namespace);
    await ip('addr', 'add', `${hostAddress}/24`, 'dev', hostSide);
    await ip('link', 'set', hostSide, 'up');
    for (const address of peerAddresses)
      await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/24`, 'dev', peerSide);
    // nodad: usable at once, without the seconds of duplicate address detection.
    if (hostIpv6Address) await ip('addr', 'add', `${hostIpv6Address}/64`, 'dev', hostSide, 'nodad');
    for (const address of peerIpv6Addresses)
      await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/64`, 'dev', peerSide, 'nodad');
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', peerSide, 'up');
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    await close();
    // CI runs as root with `ip` (.ci/run): there, a namespace that cannot be made is a failure, never a skipped test.
    if (process.env.CI)
      throw new Error(`Could not make the LAN peer's network namespace: ${String(error)}`, { cause: error });
    return undefined;
  }
  return {
    hostAddress,
    peerAddress: peerAddresses[0]!,
    peerAddresses,
    hostIpv6Address,
    peerIpv6Addresses,
    namespace,
    async get(url, headers = {}) {
      const { stdout } = await run('ip', [
        'netns',
        'exec',
        namespace,
        process.execPath,
        '-e',
        PEER_GET,
        url,
        JSON.stringify(headers),
      ]);
      return JSON.parse(stdout) as { status: number; body: string };
    },
    async requests(requests) {
      const answers = JSON.parse(await runIn(namespace, PEER_REQUESTS, JSON.stringify(requests))) as PeerAnswer[];
      return answers.map(parsed);
    },
    node: (args) => nodeIn(namespace, args),
    chromium: () => chromiumIn(namespace),
    close,
  };
}

async function chromiumIn(namespace: string): Promise<Browser> {
  const launcher = join(tmpdir(), `${namespace}-chromium.sh`);
  writeFileSync(launcher, `#!/bin/sh\nexec ip netns exec ${namespace} ${chromiumPath()} "$@"\n`, { mode: 0o755 });
  try {
    return await launchChromium({ executablePath: launcher, pipe: true });
  } finally {
    rmSync(launcher, { force: true });
  }
}
