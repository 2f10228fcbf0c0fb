// An AI assistant's tool call against the same call over HTTP (issue 29): `rolls` on /mcp against GET /rolls, one at a
// time and interleaved, against the compiled relay with its peer world in a process of its own. Both are world round
// trips. The tool call is measured as a client sends it on the wire (a JSON-RPC POST in an open session, with fetch as
// the HTTP call uses), and again through the MCP SDK's client, whose own work is the assistant's.
// Target: the tool call's p50 at most 1.2× the HTTP call's. `npm run bench:mcp` (MCP_BENCH_CALLS, default 3000).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { percentile } from './statistics.ts';
import { startServerProcess } from './server-process.ts';

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 3000);
const WARM_UP = 300;
const TARGET_P50_RATIO = 1.2;

const relay = await startServerProcess('relay');
const client = new Client({ name: 'bench', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL('/mcp?toolsets=play', relay.url), {
  requestInit: { headers: { authorization: `Bearer ${relay.apiKey}` } },
});
await client.connect(transport);
const sessionHeaders = {
  authorization: `Bearer ${relay.apiKey}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-session-id': transport.sessionId!,
  'mcp-protocol-version': transport.protocolVersion!,
};

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

async function overHttp(): Promise<void> {
  const answer = await fetch(`${relay.url}/rolls?limit=5`, { headers: { 'x-api-key': relay.apiKey } });
  if (answer.status !== 200) throw new Error(`GET /rolls answered ${answer.status}`);
  await answer.arrayBuffer();
}

let requestId = 0;
async function overMcp(): Promise<void> {
  const answer = await fetch(`${relay.url}/mcp`, {
    method: 'POST',
    headers: sessionHeaders,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: (requestId += 1),
      method: 'tools/call',
      params: { name: 'rolls', arguments: { limit: 5 } },
    }),
  });
  const text = await answer.text();
  if (answer.status !== 200 || text.includes('"isError":true')) throw new Error(`rolls failed: ${text}`);
}

async function throughSdk(): Promise<void> {
  const result = await client.callTool({ name: 'rolls', arguments: { limit: 5 } });
  if (result.isError) throw new Error(`rolls failed: ${JSON.stringify(result.content)}`);
}

for (let index = 0; index < WARM_UP; index += 1) {
  await overHttp();
  await overMcp();
  await throughSdk();
}
const times = { http: [] as number[], mcp: [] as number[], sdk: [] as number[] };
for (let index = 0; index < CALLS; index += 1) {
  times.http.push(await timed(overHttp));
  times.mcp.push(await timed(overMcp));
  times.sdk.push(await timed(throughSdk));
}
await client.close();
await relay.stop();

const round = (value: number) => Math.round(value * 1000) / 1000;
const figures = Object.fromEntries(
  Object.entries(times).map(([name, values]) => [
    name,
    { p50Ms: round(percentile(values, 50)), p99Ms: round(percentile(values, 99)) },
  ]),
) as Record<keyof typeof times, { p50Ms: number; p99Ms: number }>;
const ratio = (name: 'mcp' | 'sdk', at: 'p50Ms' | 'p99Ms') => round(figures[name][at] / figures.http[at]);
const p50Ratio = ratio('mcp', 'p50Ms');
const report = [
  `MCP tool call vs HTTP, ${CALLS} calls each, one at a time, interleaved (a world round trip: rolls, GET /rolls)`,
  '',
  '| Call | p50 ms | p99 ms | p50 vs HTTP | p99 vs HTTP |',
  '| --- | ---: | ---: | ---: | ---: |',
  `| GET /rolls over HTTP | ${figures.http.p50Ms} | ${figures.http.p99Ms} | | |`,
  `| rolls on /mcp (JSON-RPC POST) | ${figures.mcp.p50Ms} | ${figures.mcp.p99Ms} | ${p50Ratio}× | ${ratio('mcp', 'p99Ms')}× |`,
  `| rolls through the SDK's client | ${figures.sdk.p50Ms} | ${figures.sdk.p99Ms} | ${ratio('sdk', 'p50Ms')}× | ${ratio('sdk', 'p99Ms')}× |`,
  '',
  `Target: the tool call's p50 at most ${TARGET_P50_RATIO}× the HTTP call's: ${p50Ratio <= TARGET_P50_RATIO ? 'met' : 'NOT met'}.`,
].join('\n');
const results = join(import.meta.dirname, 'results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'mcp-latest.json'), `${JSON.stringify({ calls: CALLS, ...figures, p50Ratio }, null, 2)}\n`);
writeFileSync(join(results, 'mcp-latest.md'), `${report}\n`);
process.stdout.write(`${report}\n`);
if (p50Ratio > TARGET_P50_RATIO) process.exitCode = 1;
