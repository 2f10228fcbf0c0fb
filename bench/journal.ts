// `npm run bench:journal`: what the change journal adds to a write. PUT /update against two compiled relays with the
// same fast peer, one recording each change (the documents read before, the change stored, read again after) and one
// with the journal off; reads never pass through the journal, so they are not measured here.
//   BENCH_DURATION=<s> (default 10) and BENCH_RUNS=<n> (default 3) as for npm run bench.
import { cpus, loadavg } from 'node:os';
import { measureLoad, type LoadResult } from './load.ts';
import { writeResults } from './report.ts';
import { JOURNALED_WRITE } from './scenarios.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { median } from './statistics.ts';

const CONNECTIONS = [1, 10];
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const runs = Number(process.env.BENCH_RUNS ?? 3);

interface Row {
  connections: number;
  journal: LoadResult;
  without: LoadResult;
}

const loadBefore = loadavg()[0]!;
const journal = await startServerProcess('relay');
const without = await startServerProcess('relay', { env: { BENCH_JOURNAL: 'off' } });
const rows: Row[] = [];
for (const connections of CONNECTIONS) {
  const journalRuns: LoadResult[] = [];
  const withoutRuns: LoadResult[] = [];
  for (let run = 0; run < runs; run += 1) {
    // Taken in turns, so a machine that gets busier weighs on both alike.
    withoutRuns.push(await measure(without, connections));
    journalRuns.push(await measure(journal, connections));
  }
  rows.push({ connections, journal: medianOf(journalRuns), without: medianOf(withoutRuns) });
}
await Promise.all([journal.stop(), without.stop()]);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
const loads = `load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`;
const markdown = [
  `# The change journal's cost: ${JOURNALED_WRITE.name}`,
  '',
  `${new Date().toISOString()}, ${machine}, ${loads}; ${durationSeconds} s runs, medians of ${runs}.`,
  '',
  '| Conn. | Journal req/s | Without req/s | Journal p50 ms | Without p50 ms | Added p50 ms | Journal p99 ms | Without p99 ms | Added p99 ms | Errors | CPU µs/req journal / without |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows
    .map(({ connections, journal: on, without: off }) =>
      [
        connections,
        on.requestsPerSecond.toFixed(0),
        off.requestsPerSecond.toFixed(0),
        on.p50Ms.toFixed(2),
        off.p50Ms.toFixed(2),
        (on.p50Ms - off.p50Ms).toFixed(2),
        on.p99Ms.toFixed(2),
        off.p99Ms.toFixed(2),
        (on.p99Ms - off.p99Ms).toFixed(2),
        on.errors + off.errors,
        `${on.cpuMicrosPerRequest.toFixed(0)} / ${off.cpuMicrosPerRequest.toFixed(0)}`,
      ].join(' | '),
    )
    .map((row) => `| ${row} |`),
  '',
].join('\n');
const written = writeResults('journal-latest', { rows, machine, loads, durationSeconds, runs }, markdown);
console.log(markdown);
console.log(`Written: ${written.join(', ')}`);

function measure(server: ServerProcess, connections: number): Promise<LoadResult> {
  return measureLoad(server, JOURNALED_WRITE, connections, durationSeconds);
}

function medianOf(results: LoadResult[]): LoadResult {
  const of = (field: keyof LoadResult) => median(results.map((result) => result[field]));
  return {
    requestsPerSecond: of('requestsPerSecond'),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    requests: of('requests'),
    cpuMicrosPerRequest: of('cpuMicrosPerRequest'),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}
