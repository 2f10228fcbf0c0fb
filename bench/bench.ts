// `npm run bench`: the relay and the bare forwarder, each in its own process with the same fast peer, driven side by
// side by autocannon; then SSE fan-out and a 64 MiB frame through the relay. Prints the table and the targets.
//   --quick          2 s runs (BENCH_DURATION=<s> sets any length; BENCH_RUNS=<n> the runs per figure, default 3)
import { cpus } from 'node:os';
import { measureLoad, type LoadResult } from './load.ts';
import {
  checkTargets,
  markdownReport,
  writeResults,
  type BenchResults,
  type LoadComparison,
  type MemoryFigures,
} from './report.ts';
import { BENCH_SCENARIOS } from './scenarios.ts';
import type { ProcessStats } from './server-child.ts';
import { startServerProcess } from './server-process.ts';
import { measureSheetFrame } from './sheet-frame.ts';
import { measureFanOut, type FanOutResult } from './sse-fanout.ts';
import { median } from './statistics.ts';

const CONNECTIONS = [1, 50];
const FAN_OUT_SUBSCRIBERS = 1000;
const FAN_OUT_EVENTS = 100;
const FAN_OUT_INTERVAL_MS = 10;
const SHEET_IMAGE_BYTES = 48 * 2 ** 20;
const IDLE_SETTLE_MS = 2000;
const MB = 1e6;

const quick = process.argv.includes('--quick');
const durationSeconds = Number(process.env.BENCH_DURATION ?? (quick ? 2 : 10));
const runs = Number(process.env.BENCH_RUNS ?? 3);

const relay = await startServerProcess('relay');
const bare = await startServerProcess('bare');
await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
const idle = { relay: await relay.stats(), bare: await bare.stats() };

const load: LoadComparison[] = [];
for (const scenario of BENCH_SCENARIOS) {
  for (const connections of CONNECTIONS) {
    const relayRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      relayRuns.push(await measureLoad(relay, scenario, connections, durationSeconds));
      bareRuns.push(await measureLoad(bare, scenario, connections, durationSeconds));
    }
    const comparison = {
      scenario,
      connections,
      relay: summarise(relayRuns),
      bare: summarise(bareRuns),
      relayRuns,
      bareRuns,
    };
    load.push(comparison);
    console.error(
      `${scenario.name} ×${connections}: relay ${comparison.relay.requestsPerSecond.toFixed(0)} req/s, bare ${comparison.bare.requestsPerSecond.toFixed(0)} req/s`,
    );
  }
}
const memory = { relay: memoryOf(idle.relay, await relay.stats()), bare: memoryOf(idle.bare, await bare.stats()) };
await bare.stop();

const fanOutRuns: FanOutResult[] = [];
for (let run = 0; run < runs; run += 1)
  fanOutRuns.push(await measureFanOut(relay, FAN_OUT_SUBSCRIBERS, FAN_OUT_EVENTS, FAN_OUT_INTERVAL_MS));
const fanOut = { ...fanOutRuns[0]!, ...medians(fanOutRuns, ['deliveries', 'p50Ms', 'p99Ms', 'maxMs']) };
const sheetFrame = await measureSheetFrame(relay, SHEET_IMAGE_BYTES);
await relay.stop();

const results: BenchResults = {
  date: new Date().toISOString(),
  command: `npm run bench${quick ? ' -- --quick' : ''}`,
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  durationSeconds,
  runs,
  load,
  memory,
  fanOut,
  sheetFrame,
};
const targets = checkTargets(results);
const markdown = markdownReport(results, targets);
const stamp = results.date.replace(/[:.]/g, '-');
writeResults('bench-latest', { ...results, targets }, markdown);
const written = writeResults(`bench-${stamp}`, { ...results, targets }, markdown);
console.log(markdown);
console.log(
  `Targets met: ${targets.filter((target) => target.met).length} of ${targets.length}. Written: ${written.join(', ')}`,
);

/** Medians over the runs, except errors: their sum, so that one failing run shows. */
function summarise(results: LoadResult[]): LoadResult {
  const errors = results.reduce((sum, result) => sum + result.errors, 0);
  return { ...medians(results, ['requestsPerSecond', 'p50Ms', 'p99Ms', 'requests', 'cpuMicrosPerRequest']), errors };
}

function medians<T, K extends keyof T>(results: T[], fields: K[]): Pick<T, K> {
  return Object.fromEntries(
    fields.map((field) => [field, median(results.map((result) => result[field] as number))]),
  ) as Pick<T, K>;
}

function memoryOf(idleStats: ProcessStats, afterLoad: ProcessStats): MemoryFigures {
  return {
    idleRssMb: idleStats.rssBytes / MB,
    afterLoadRssMb: afterLoad.rssBytes / MB,
    peakRssMb: afterLoad.maxRssBytes / MB,
  };
}
