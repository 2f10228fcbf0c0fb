// `npm run soak`: a bounded run at full load across routes (GET /rolls, POST /roll, GET /clients, GET /search) with
// event streams opened and closed all along and the peer pushing rolls; samples the relay process's RSS, then checks
// the relay's own counters once the load is gone. SOAK_SECONDS sets the length (default 120).
import { get } from 'node:http';
import autocannon from 'autocannon';
import { fixed, writeResults } from './report.ts';
import { BENCH_SCENARIOS, headersFor, SEARCH } from './scenarios.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const seconds = Number(process.env.SOAK_SECONDS ?? 120);
const CONNECTIONS = 50;
const SAMPLE_EVERY_MS = 5000;
const STREAMS_PER_TICK = 5;
const STREAM_TICK_MS = 500;
const STREAM_LIFETIME_MS = 1000;
const SETTLE_MS = 3000;
const MB = 1e6;

interface RssSample {
  second: number;
  rssMb: number;
}

const relay = await startServerProcess('relay');
const before = await relay.counters();
const started = performance.now();
const samples: RssSample[] = [];
const sample = async () =>
  samples.push({ second: (performance.now() - started) / 1000, rssMb: (await relay.stats()).rssBytes / MB });
await sample();
const sampler = setInterval(() => void sample(), SAMPLE_EVERY_MS);
const churn = churnStreams(relay);
let soaking = true;
const pushes = (async () => {
  while (soaking) await relay.pushRolls(10, 100);
})();

const result = await autocannon({
  url: relay.url,
  connections: CONNECTIONS,
  duration: seconds,
  requests: [...BENCH_SCENARIOS, SEARCH].map((scenario) => ({
    method: scenario.method,
    path: scenario.path,
    headers: headersFor(scenario, relay.apiKey),
    body: scenario.body,
  })),
});
soaking = false;
clearInterval(sampler);
await sample();
const streams = await churn.stop();
await pushes;
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const after = await relay.counters();
await relay.stop();

// The first quarter is the warm-up (heap growing to its working size); the rest is split in two halves whose peaks
// should match when memory has plateaued.
const steady = samples.slice(Math.floor(samples.length / 4));
const half = Math.floor(steady.length / 2);
const firstHalfPeak = Math.max(...steady.slice(0, half).map((s) => s.rssMb));
const secondHalfPeak = Math.max(...steady.slice(half).map((s) => s.rssMb));
const growthMb = secondHalfPeak - firstHalfPeak;
const plateau = growthMb <= Math.max(10, 0.1 * firstHalfPeak);
const leaks = Object.keys(before).filter((name) => after[name] !== before[name]);
const errors = result.non2xx + result.errors;
const summary = {
  date: new Date().toISOString(),
  command: 'npm run soak',
  seconds,
  connections: CONNECTIONS,
  requests: result.requests.total,
  requestsPerSecond: result.requests.total / result.duration,
  errors,
  streamsOpened: streams.opened,
  streamsRefused: streams.refused,
  rss: { samples, firstHalfPeakMb: firstHalfPeak, secondHalfPeakMb: secondHalfPeak, growthMb, plateau },
  counters: { before, after, leaks },
};

const markdown = [
  `Soak, ${summary.date}: ${seconds} s at ${CONNECTIONS} connections over GET /rolls, POST /roll, GET /clients, GET /search; \`npm run soak\``,
  '',
  `- Requests: ${summary.requests} (${fixed(summary.requestsPerSecond, 0)} req/s), errors (non-2xx + timeouts): ${errors}`,
  `- Event streams opened and closed during the run: ${streams.opened} (refused: ${streams.refused})`,
  `- RSS (MB) every ${SAMPLE_EVERY_MS / 1000} s: ${samples.map((s) => fixed(s.rssMb, 0)).join(' ')}`,
  `- RSS peak after the warm-up (first quarter), first half ${fixed(firstHalfPeak, 0)} MB, second half ${fixed(secondHalfPeak, 0)} MB: ` +
    (plateau ? `plateau (${fixed(growthMb, 0)} MB)` : `**growth** (+${fixed(growthMb, 0)} MB)`),
  `- Relay counters ${SETTLE_MS / 1000} s after the load, before → after: ` +
    Object.keys(before)
      .map((name) => `${name} ${before[name]} → ${after[name]}`)
      .join(', '),
  `- ${leaks.length === 0 ? 'No leaked pending requests, event streams, sockets or timers' : `**Leaked: ${leaks.join(', ')}**`}`,
].join('\n');
writeResults('soak-latest', summary, `${markdown}\n`);
writeResults(`soak-${summary.date.replace(/[:.]/g, '-')}`, summary, `${markdown}\n`);
console.log(markdown);

/** Opens a few /rolls/subscribe streams every tick and hangs each up a moment later, as overlays coming and going. */
function churnStreams(server: ServerProcess) {
  let opened = 0;
  let refused = 0;
  const live = new Set<ReturnType<typeof get>>();
  const tick = setInterval(() => {
    for (let index = 0; index < STREAMS_PER_TICK; index += 1) {
      const request = get(`${server.url}/rolls/subscribe`, { headers: { 'x-api-key': server.apiKey } }, (response) => {
        if (response.statusCode === 200) opened += 1;
        else refused += 1;
        response.resume();
      });
      request.on('error', () => live.delete(request));
      live.add(request);
      setTimeout(() => {
        request.destroy();
        live.delete(request);
      }, STREAM_LIFETIME_MS);
    }
  }, STREAM_TICK_MS);
  return {
    async stop() {
      clearInterval(tick);
      await new Promise((resolve) => setTimeout(resolve, STREAM_LIFETIME_MS));
      for (const request of live) request.destroy();
      return { opened, refused };
    },
  };
}
