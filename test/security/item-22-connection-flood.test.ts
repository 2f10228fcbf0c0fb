// Issue 23, item 1: with LAN access on, a LAN stranger with no key opened ~21,000 idle TCP connections; they used up the
// relay's file descriptors, the GM's own loopback calls went unanswered, and the LAN advertiser's interface scan threw
// EMFILE from a timer and ended the process. Expected: connections capped in all and per address with places kept for
// loopback, silent connections closed quickly, loopback answered throughout, and the relay running and recovered after.
// The compiled relay runs as `serve --lan` at a lowered descriptor limit (2048), flooded from a network namespace.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_FOR_LOOPBACK, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS } from '../../relay/gate/connection-limits.ts';
import { HEADERS_TIMEOUT_MS } from '../../relay/http/listener.ts';
import { compiledCli } from '../harness/cli.ts';
import { freePort } from '../harness/ports.ts';
import { startTestRelay } from '../harness/relay.ts';
import { createLanPeer } from '../ui/lan-peer.ts';
import { RemoteSockets } from './remote-sockets.ts';

const FLOOD_ADDRESSES = 20;
const CONNECTIONS = 20_000;
const DESCRIPTOR_LIMIT = 2048;
/** Below the connection counts, so a flood uses up every descriptor. */
const EXHAUSTED_LIMIT = 300;
const peer = await createLanPeer({ machines: FLOOD_ADDRESSES + 1 });

/** The compiled relay as `serve --lan` on a free port, at a lowered descriptor limit, with what it printed so far. */
interface ServedRelay {
  child: ChildProcessWithoutNullStreams;
  port: number;
  output(): string;
  stop(): void;
}

async function serveUnderLimit(descriptors: number): Promise<ServedRelay> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-item22-'));
  const [cli, port] = await Promise.all([compiledCli(), freePort()]);
  const child = spawn('prlimit', [
    `--nofile=${descriptors}:${descriptors}`,
    ...[process.execPath, cli, 'serve', '--lan', '--port', String(port), '--data-dir', dataDir],
  ]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!output.includes(`On the LAN: http://${peer!.hostAddress}:${port}`)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The relay did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    port,
    output: () => output,
    stop: () => {
      child.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

afterAll(() => peer?.close());

describe.skipIf(!peer)('item 22: a flood of idle connections from the LAN', () => {
  let served: ServedRelay;
  let relay: ChildProcessWithoutNullStreams;
  let remote: RemoteSockets;
  let port: number;

  beforeAll(async () => {
    [served, remote] = await Promise.all([serveUnderLimit(DESCRIPTOR_LIMIT), RemoteSockets.start(peer!)]);
    ({ child: relay, port } = served);
  }, 30_000);

  afterAll(async () => {
    await remote?.stop();
    served?.stop();
  });

  /** A loopback call's time to its answer, in ms; Infinity when it got none within 3 s. */
  async function loopbackCall(): Promise<number> {
    const started = performance.now();
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/api/status`, { signal: AbortSignal.timeout(3000) });
      await answer.text();
      return answer.ok ? performance.now() - started : Infinity;
    } catch {
      return Infinity;
    }
  }

  it(`answers loopback within 1 s through ${CONNECTIONS} idle connections from ${FLOOD_ADDRESSES} LAN addresses, keeping at most its LAN share`, async () => {
    const flooders = peer!.peerAddresses.slice(0, FLOOD_ADDRESSES);
    const flood = remote.flood(peer!.hostAddress, port, flooders, CONNECTIONS / FLOOD_ADDRESSES);
    let flooded = false;
    void flood.then(() => (flooded = true));
    const timesDuringFlood: number[] = [];
    while (!flooded) {
      timesDuringFlood.push(await loopbackCall());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const report = await flood;
    const timesAfter = await Promise.all(Array.from({ length: 20 }, loopbackCall));

    expect(timesDuringFlood.length).toBeGreaterThan(0);
    expect(Math.max(...timesDuringFlood)).toBeLessThan(1000);
    expect(Math.max(...timesAfter)).toBeLessThan(1000);
    expect(relay.exitCode).toBeNull();
    expect(report.connected).toBeGreaterThanOrEqual(CONNECTIONS * 0.9);
    expect(report.open).toBeLessThanOrEqual(MAX_CONNECTIONS - KEPT_FOR_LOOPBACK);
    expect(report.open).toBeLessThanOrEqual(FLOOD_ADDRESSES * MAX_CONNECTIONS_PER_ADDRESS);
  }, 90_000);

  it('closes the connections that send nothing within seconds, and serves the LAN again by itself', async () => {
    // The flood still holds the LAN's places: a LAN caller's connection is closed at once.
    const crowdedOut = await peer!.get(`http://${peer!.hostAddress}:${port}/api/status`);
    expect(crowdedOut.status).toBe(0);

    const deadline = Date.now() + HEADERS_TIMEOUT_MS + 5000;
    while ((await remote.floodOpen()) > 0) {
      if (Date.now() > deadline) throw new Error('idle connections were still open');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const recovered = await peer!.get(`http://${peer!.hostAddress}:${port}/api/status`);
    expect(recovered.status).toBe(200);
    expect(await loopbackCall()).toBeLessThan(1000);
    expect(relay.exitCode).toBeNull();
    expect(served.output()).toMatch(/Refused \d+ connection\(s\)/);
  }, 30_000);
});

describe.skipIf(!peer)('item 22: the relay out of file descriptors', () => {
  it('keeps running when reading the network addresses fails (EMFILE), and recovers by itself', async () => {
    // Fewer descriptors than the connection counts allow: the flood uses them all up, as it did in the attack.
    const [served, remote] = await Promise.all([serveUnderLimit(EXHAUSTED_LIMIT), RemoteSockets.start(peer!)]);
    try {
      const { port } = served;
      const lan = peer!.hostAddress;
      const callers = await Promise.all(
        Array.from({ length: 3 }, () => remote.openTcp(lan, port, peer!.peerAddresses[FLOOD_ADDRESSES])),
      );
      const flood = await remote.flood(lan, port, peer!.peerAddresses.slice(0, FLOOD_ADDRESSES), 100);
      expect(flood.open).toBeGreaterThan(EXHAUSTED_LIMIT / 2);
      // Host headers the relay has not seen yet (the port differs) send it to the network addresses, unreadable now.
      const answers = await Promise.all(
        callers.map((id, index) => remote.request(id, `GET /api/status HTTP/1.1\r\nHost: ${lan}:${index + 1}\r\n\r\n`)),
      );
      expect(answers.map((answer) => answer.split('\r\n')[0])).toEqual(callers.map(() => 'HTTP/1.1 200 OK'));
      expect(served.child.exitCode).toBeNull();
      await remote.endFlood();
      const deadline = Date.now() + 10_000;
      while ((await peer!.get(`http://${lan}:${port}/api/status`)).status !== 200) {
        if (Date.now() > deadline || served.child.exitCode !== null)
          throw new Error(`no recovery:\n${served.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(served.child.exitCode).toBeNull();
    } finally {
      await remote.stop();
      served.stop();
    }
  }, 60_000);
});

/**
 * Sends a request's head and the first bytes of its body by hand, then a byte every `dripMs`; resolves with what the
 * relay sent, once it closed the connection, and how long that took.
 */
function trickle(port: number, head: string, dripMs: number): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const drip = setInterval(() => socket.write('x'), dripMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(drip);
      resolve({ answer, ms: performance.now() - started });
    });
    socket.write(`${head}\r\n\r\n{"formula":"`);
  });
}

describe('item 22: request bodies that never finish', () => {
  it('answers a body that trickles in with 408 once it falls behind, and closes the connection', async () => {
    const relay = await startTestRelay();
    try {
      const key = await relay.createKey({ scopes: ['roll:execute'] });
      const head = `POST /roll HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000`;
      const { answer, ms } = await trickle(relay.relay.port, head, 500);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('The request body came too slowly');
      expect(ms).toBeGreaterThan(9000);
      expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + 4000);
    } finally {
      await relay.close();
    }
  }, 20_000);

  it('closes the connection of a refused call instead of reading the body it still has to send', async () => {
    const relay = await startTestRelay();
    try {
      const head =
        'POST /roll HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000';
      const { answer, ms } = await trickle(relay.relay.port, head, 200);
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(ms).toBeLessThan(2000);
    } finally {
      await relay.close();
    }
  });
});
