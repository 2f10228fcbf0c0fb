// One autocannon run against a server process: throughput, latency percentiles (from each response's own time, to
// sub-millisecond precision), errors, and the server's CPU time per request over the run.
import autocannon from 'autocannon';
import { headersFor, type Scenario } from './scenarios.ts';
import type { ServerProcess } from './server-process.ts';
import { percentile } from './statistics.ts';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
  requests: number;
  cpuMicrosPerRequest: number;
}

export async function measureLoad(
  server: ServerProcess,
  scenario: Scenario,
  connections: number,
  durationSeconds: number,
): Promise<LoadResult> {
  const before = await server.stats();
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url + scenario.path,
        method: scenario.method,
        headers: headersFor(scenario, server.apiKey),
        body: scenario.body,
        connections,
        duration: durationSeconds,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  const after = await server.stats();
  const requests = result.requests.total;
  return {
    requestsPerSecond: requests / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: result.non2xx + result.errors,
    requests,
    cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / Math.max(1, requests),
  };
}
