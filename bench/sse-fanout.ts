// SSE fan-out: many subscribers on /rolls/subscribe, the peer pushes roll events stamped with their send time, and
// each subscriber notes when each event reached it.
import { connect, type Socket } from 'node:net';
import type { ServerProcess } from './server-process.ts';
import { percentile } from './statistics.ts';

export interface FanOutResult {
  subscribers: number;
  events: number;
  /** Every (event, subscriber) pair that arrived; subscribers × events when none was lost. */
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The relay process's CPU time from the first push until every delivery arrived, per delivery, µs. */
  cpuMicrosPerDelivery: number;
}

const CONNECT_BATCH = 100;
const DRAIN_TIMEOUT_MS = 10_000;
const SENT_AT = '"sentAt":';

const now = () => performance.timeOrigin + performance.now();

export async function measureFanOut(
  server: ServerProcess,
  subscribers: number,
  events: number,
  intervalMs: number,
): Promise<FanOutResult> {
  const latencies: number[] = [];
  const sockets: Socket[] = [];
  const expected = subscribers * events;
  let allDelivered!: () => void;
  const delivered = new Promise<void>((resolve) => (allDelivered = resolve));
  const onRoll = (sentAt: number, receivedAt: number) => {
    latencies.push(receivedAt - sentAt);
    if (latencies.length === expected) allDelivered();
  };

  for (let opened = 0; opened < subscribers; opened += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, subscribers - opened) }, () =>
      subscribe(server, sockets, onRoll),
    );
    await Promise.all(batch);
  }
  const before = await server.stats();
  await server.pushRolls(events, intervalMs);
  await Promise.race([delivered, new Promise((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS))]);
  const after = await server.stats();
  for (const socket of sockets) socket.destroy();
  return {
    subscribers,
    events,
    deliveries: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: percentile(latencies, 100),
    cpuMicrosPerDelivery: (after.cpuMicros - before.cpuMicros) / Math.max(1, latencies.length),
  };
}

/**
 * Opens one stream over a bare socket, so the measuring side spends as little as it can per delivery (no HTTP parser,
 * no stream decoding): each read is stamped on arrival and its frames found by their blank-line ends. Settles once the
 * relay's `connected` event says the stream is registered.
 */
function subscribe(
  server: ServerProcess,
  sockets: Socket[],
  onRoll: (sentAt: number, receivedAt: number) => void,
): Promise<void> {
  const { hostname, port, host } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.setNoDelay(true);
    socket.write(`GET /rolls/subscribe HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${server.apiKey}\r\n\r\n`);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      const receivedAt = now();
      buffered += chunk.toString('latin1');
      const frames = buffered.split('\n\n');
      buffered = frames.pop()!;
      for (const frame of frames) {
        if (frame.includes('HTTP/1.1 ') && !frame.includes('HTTP/1.1 200')) {
          reject(new Error(`/rolls/subscribe answered ${frame.slice(0, frame.indexOf('\r'))}`));
        } else if (frame.includes('event: connected')) resolve();
        else if (frame.includes('event: roll\n')) onRoll(sentAtOf(frame), receivedAt);
      }
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** The push's send time, read without parsing the whole payload so the harness adds little of its own delay. */
function sentAtOf(frame: string): number {
  const start = frame.indexOf(SENT_AT) + SENT_AT.length;
  return Number.parseFloat(frame.slice(start, start + 24));
}

// `npx node bench/sse-fanout.ts`: the fan-out alone against the compiled relay, BENCH_RUNS runs (default 5), each
// printed, then their medians.
if (import.meta.main) {
  const { startServerProcess } = await import('./server-process.ts');
  const { median } = await import('./statistics.ts');
  const relay = await startServerProcess('relay');
  const results: FanOutResult[] = [];
  for (let run = 0; run < Number(process.env.BENCH_RUNS ?? 5); run += 1) {
    const result = await measureFanOut(relay, 1000, 100, 10);
    results.push(result);
    console.log(figures(result));
  }
  await relay.stop();
  console.log(
    `median: ${figures({
      ...results[0]!,
      deliveries: median(results.map((result) => result.deliveries)),
      p50Ms: median(results.map((result) => result.p50Ms)),
      p99Ms: median(results.map((result) => result.p99Ms)),
      maxMs: median(results.map((result) => result.maxMs)),
      cpuMicrosPerDelivery: median(results.map((result) => result.cpuMicrosPerDelivery)),
    })}`,
  );
}

function figures(result: FanOutResult): string {
  return `${result.deliveries} delivered, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms, relay CPU ${result.cpuMicrosPerDelivery.toFixed(1)} µs per delivery`;
}
