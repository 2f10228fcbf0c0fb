// SSE fan-out: many subscribers on /rolls/subscribe, the peer pushes roll events stamped with their send time, and
// each subscriber notes when each event reached it.
import { Agent, get, type ClientRequest } from 'node:http';
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
  const agent = new Agent({ maxSockets: subscribers });
  const latencies: number[] = [];
  const requests: ClientRequest[] = [];
  const expected = subscribers * events;
  let allDelivered!: () => void;
  const delivered = new Promise<void>((resolve) => (allDelivered = resolve));
  const onRoll = (sentAt: number, receivedAt: number) => {
    latencies.push(receivedAt - sentAt);
    if (latencies.length === expected) allDelivered();
  };

  for (let opened = 0; opened < subscribers; opened += CONNECT_BATCH) {
    const batch = Array.from({ length: Math.min(CONNECT_BATCH, subscribers - opened) }, () =>
      subscribe(server, agent, requests, onRoll),
    );
    await Promise.all(batch);
  }
  await server.pushRolls(events, intervalMs);
  await Promise.race([delivered, new Promise((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS))]);
  for (const request of requests) request.destroy();
  agent.destroy();
  return {
    subscribers,
    events,
    deliveries: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: percentile(latencies, 100),
  };
}

/** Opens one stream; settles once the relay's `connected` event says the stream is registered. */
function subscribe(
  server: ServerProcess,
  agent: Agent,
  requests: ClientRequest[],
  onRoll: (sentAt: number, receivedAt: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${server.url}/rolls/subscribe`,
      { agent, headers: { 'x-api-key': server.apiKey } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`/rolls/subscribe answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk: string) => {
          const receivedAt = now();
          buffered += chunk;
          const frames = buffered.split('\n\n');
          buffered = frames.pop()!;
          for (const frame of frames) {
            if (frame.startsWith('event: connected')) resolve();
            else if (frame.startsWith('event: roll\n')) onRoll(sentAtOf(frame), receivedAt);
          }
        });
      },
    );
    request.on('error', reject);
    requests.push(request);
  });
}

/** The push's send time, read without parsing the whole payload so the harness adds little of its own delay. */
function sentAtOf(frame: string): number {
  const start = frame.indexOf(SENT_AT) + SENT_AT.length;
  return Number.parseFloat(frame.slice(start, start + 24));
}
