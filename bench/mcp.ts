// An AI assistant's tool call against the same call over HTTP (issue 29), for a read and a write: `rolls` against
// GET /rolls and `roll` against POST /roll, one call at a time and interleaved, against the compiled relay with its peer
// world in a process of its own; each is a world round trip. The tool call is measured as a client sends it on the wire
// (a JSON-RPC POST in an open session, with fetch as the HTTP call uses), and again through the MCP SDK's client,
// whose own work is the assistant's. Target: a tool call's p50 at most 1.2× the HTTP call's.
// `npm run bench:mcp` (MCP_BENCH_CALLS calls of each, default 3000; MCP_PROFILE_DIR=<folder> writes the relay's CPU
// profile there, to see where a tool call's time goes).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { percentile } from './statistics.ts';
import { startServerProcess } from './server-process.ts';

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 3000);
const WARM_UP = 300;
const TARGET_P50_RATIO = 1.2;

interface Pair {
  name: string;
  tool: string;
  arguments: Record<string, unknown>;
  http: { method: 'GET' | 'POST'; path: string; body?: unknown };
}

const PAIRS: Pair[] = [
  { name: 'rolls (a read)', tool: 'rolls', arguments: { limit: 5 }, http: { method: 'GET', path: '/rolls?limit=5' } },
  {
    name: 'roll (a write)',
    tool: 'roll',
    arguments: { formula: '2d6+3' },
    http: { method: 'POST', path: '/roll', body: { formula: '2d6+3' } },
  },
];

const relay = await startServerProcess('relay', { cpuProfileDir: process.env.MCP_PROFILE_DIR });
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
let requestId = 0;

async function timed(call: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

function callsOf(pair: Pair): Record<'http' | 'mcp' | 'sdk', () => Promise<void>> {
  return {
    http: async () => {
      const answer = await fetch(`${relay.url}${pair.http.path}`, {
        method: pair.http.method,
        headers: { 'x-api-key': relay.apiKey, 'content-type': 'application/json' },
        body: pair.http.body === undefined ? undefined : JSON.stringify(pair.http.body),
      });
      if (answer.status !== 200) throw new Error(`${pair.http.method} ${pair.http.path} answered ${answer.status}`);
      await answer.arrayBuffer();
    },
    mcp: async () => {
      const answer = await fetch(`${relay.url}/mcp`, {
        method: 'POST',
        headers: sessionHeaders,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: (requestId += 1),
          method: 'tools/call',
          params: { name: pair.tool, arguments: pair.arguments },
        }),
      });
      const text = await answer.text();
      if (answer.status !== 200 || text.includes('"isError":true')) throw new Error(`${pair.tool} failed: ${text}`);
    },
    sdk: async () => {
      const result = await client.callTool({ name: pair.tool, arguments: pair.arguments });
      if (result.isError) throw new Error(`${pair.tool} failed: ${JSON.stringify(result.content)}`);
    },
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const figuresOf = (values: number[]) => ({
  p50Ms: round(percentile(values, 50)),
  p99Ms: round(percentile(values, 99)),
});

const results = [];
for (const pair of PAIRS) {
  const calls = callsOf(pair);
  for (let index = 0; index < WARM_UP; index += 1) for (const call of Object.values(calls)) await call();
  const times = { http: [] as number[], mcp: [] as number[], sdk: [] as number[] };
  for (let index = 0; index < CALLS; index += 1)
    for (const kind of ['http', 'mcp', 'sdk'] as const) times[kind].push(await timed(calls[kind]));
  const http = figuresOf(times.http);
  const mcp = figuresOf(times.mcp);
  const sdk = figuresOf(times.sdk);
  results.push({
    pair,
    http,
    mcp,
    sdk,
    p50Ratio: round(mcp.p50Ms / http.p50Ms),
    p99Ratio: round(mcp.p99Ms / http.p99Ms),
  });
}
await client.close();
await relay.stop();

const rows = results.flatMap(({ pair, http, mcp, sdk }) => [
  `| ${pair.http.method} ${pair.http.path.split('?')[0]} over HTTP | ${http.p50Ms} | ${http.p99Ms} | | |`,
  `| ${pair.tool} on /mcp (JSON-RPC POST) | ${mcp.p50Ms} | ${mcp.p99Ms} | ${round(mcp.p50Ms / http.p50Ms)}× | ${round(mcp.p99Ms / http.p99Ms)}× |`,
  `| ${pair.tool} through the SDK's client | ${sdk.p50Ms} | ${sdk.p99Ms} | ${round(sdk.p50Ms / http.p50Ms)}× | ${round(sdk.p99Ms / http.p99Ms)}× |`,
]);
const met = results.every((result) => result.p50Ratio <= TARGET_P50_RATIO);
const report = [
  `MCP tool calls vs HTTP, ${CALLS} calls each, one at a time, interleaved (world round trips)`,
  '',
  '| Call | p50 ms | p99 ms | p50 vs HTTP | p99 vs HTTP |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
  `Target: a tool call's p50 at most ${TARGET_P50_RATIO}× the HTTP call's: ${met ? 'met' : 'NOT met'}.`,
].join('\n');
const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'mcp-latest.json'), `${JSON.stringify({ calls: CALLS, results }, null, 2)}\n`);
writeFileSync(join(resultsDir, 'mcp-latest.md'), `${report}\n`);
process.stdout.write(`${report}\n`);
if (!met) process.exitCode = 1;
