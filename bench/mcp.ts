// An AI assistant's tool call against the same call over HTTP (issue 29), for a read and a write: `rolls` against
// GET /rolls and `roll` against POST /roll, one call at a time and interleaved, against the compiled relay with its peer
// world in a process of its own; each is a world round trip. Target: a tool call's p50 at most 1.2× the HTTP call's.
//
// The target is judged on the wire: both calls sent by a plain keep-alive `node:http` client, whose own work per call
// is small next to the relay's, as autocannon is in `npm run bench`; the relay's CPU time per call is shown beside it.
// Each call is then measured again as two heavier clients send it, whose own work is the caller's, not the relay's:
// `fetch` (Node's undici, which spends 0.1 ms or more extra on a request with a body, and every MCP request has one)
// and the MCP SDK's client. A plain `node:http` server (plain-server.ts) shows what each client adds to a POST over a
// GET with no relay behind it.
// `npm run bench:mcp` (MCP_BENCH_CALLS calls of each, default 3000; MCP_PROFILE_DIR=<folder> writes the relay's CPU
// profile there, to see where a tool call's time goes).
import { fork } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median, percentile } from './statistics.ts';
import { startServerProcess } from './server-process.ts';

const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 3000);
const WARM_UP = 1000;
/** The relay's CPU time is read over blocks of this many calls of one kind, the kinds taking turns. */
const CPU_BLOCK = 100;
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
const httpHeaders = { 'x-api-key': relay.apiKey, 'content-type': 'application/json' };
const sessionHeaders = {
  authorization: `Bearer ${relay.apiKey}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-session-id': transport.sessionId!,
  'mcp-protocol-version': transport.protocolVersion!,
};
const wireAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let requestId = 0;

interface WireRequest {
  url: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One call as the wire client sends it: the whole answer read, its status 200. */
function sendOnWire({ url, method, path, headers, body }: WireRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const lengthHeader = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request(
      `${url}${path}`,
      { method, headers: { ...headers, ...lengthHeader }, agent: wireAgent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (answer.statusCode === 200) resolve(text);
          else reject(new Error(`${method} ${path} answered ${answer.statusCode}: ${text}`));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function toolCallOf(pair: Pair): WireRequest {
  const message = {
    jsonrpc: '2.0',
    id: (requestId += 1),
    method: 'tools/call',
    params: { name: pair.tool, arguments: pair.arguments },
  };
  return { url: relay.url, method: 'POST', path: '/mcp', headers: sessionHeaders, body: JSON.stringify(message) };
}

function httpCallOf(pair: Pair): WireRequest {
  const body = pair.http.body === undefined ? undefined : JSON.stringify(pair.http.body);
  return { url: relay.url, method: pair.http.method, path: pair.http.path, headers: httpHeaders, body };
}

function refuseToolError(pair: Pair, text: string): void {
  if (text.includes('"isError":true')) throw new Error(`${pair.tool} failed: ${text}`);
}

const KINDS = ['httpWire', 'mcpWire', 'httpFetch', 'mcpFetch', 'sdk'] as const;
type Kind = (typeof KINDS)[number];

/** One call as `fetch` sends it, its answer read as the wire client reads it. */
async function sendWithFetch({ url, method, path, headers, body }: WireRequest): Promise<string> {
  const answer = await fetch(`${url}${path}`, { method, headers, body });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
  return text;
}

function callsOf(pair: Pair): Record<Kind, () => Promise<void>> {
  return {
    httpWire: async () => void (await sendOnWire(httpCallOf(pair))),
    mcpWire: async () => refuseToolError(pair, await sendOnWire(toolCallOf(pair))),
    httpFetch: async () => void (await sendWithFetch(httpCallOf(pair))),
    mcpFetch: async () => refuseToolError(pair, await sendWithFetch(toolCallOf(pair))),
    sdk: async () => {
      const result = await client.callTool({ name: pair.tool, arguments: pair.arguments });
      if (result.isError) throw new Error(`${pair.tool} failed: ${JSON.stringify(result.content)}`);
    },
  };
}

/**
 * Each kind's times over `count` rounds of one call of every kind. The first kind of a round turns each time, so
 * none always follows the same other (whose leftover work, a client's stream closing or its garbage, it would pay for).
 */
async function interleaved<K extends string>(
  calls: Record<K, () => Promise<void>>,
  kinds: readonly K[],
  count: number,
) {
  const times = new Map<K, number[]>(kinds.map((kind) => [kind, []]));
  for (let index = 0; index < count; index += 1) {
    for (let turn = 0; turn < kinds.length; turn += 1) {
      const kind = kinds[(index + turn) % kinds.length]!;
      const started = performance.now();
      await calls[kind]();
      times.get(kind)!.push(performance.now() - started);
    }
  }
  return (kind: K) => figuresOf(times.get(kind)!);
}

/**
 * The relay's CPU time per call (µs) of each wire call: the median over blocks of calls of one kind, the kinds taking
 * turns so both meet the same conditions, and a block that a collection or the machine's other work slowed counts once.
 */
async function relayCpuPerCall(calls: Record<Kind, () => Promise<void>>): Promise<{ http: number; mcp: number }> {
  const perBlock = { http: [] as number[], mcp: [] as number[] };
  const blocks = Math.max(2, Math.round(CALLS / CPU_BLOCK));
  const sides = [
    ['http', calls.httpWire],
    ['mcp', calls.mcpWire],
  ] as const;
  for (let block = 0; block < blocks; block += 1) {
    for (const [side, call] of block % 2 === 0 ? sides : [...sides].reverse()) {
      const before = (await relay.stats()).cpuMicros;
      for (let index = 0; index < CPU_BLOCK; index += 1) await call();
      perBlock[side].push(((await relay.stats()).cpuMicros - before) / CPU_BLOCK);
    }
  }
  return { http: round(median(perBlock.http)), mcp: round(median(perBlock.mcp)) };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const figuresOf = (values: number[]) => ({
  p50Ms: round(percentile(values, 50)),
  p99Ms: round(percentile(values, 99)),
});
type Figures = ReturnType<typeof figuresOf>;

const WIRE_KINDS = ['httpWire', 'mcpWire'] as const;
const CLIENT_KINDS = ['httpFetch', 'mcpFetch', 'sdk'] as const;
const results = [];
for (const pair of PAIRS) {
  const calls = callsOf(pair);
  for (let index = 0; index < WARM_UP; index += 1) for (const kind of KINDS) await calls[kind]();
  // The wire calls alone first, so no heavier client's garbage lands in their times.
  const wire = await interleaved(calls, WIRE_KINDS, CALLS);
  const cpuMicros = await relayCpuPerCall(calls);
  const clients = await interleaved(calls, CLIENT_KINDS, CALLS);
  const figures = Object.fromEntries([
    ...WIRE_KINDS.map((kind) => [kind, wire(kind)] as const),
    ...CLIENT_KINDS.map((kind) => [kind, clients(kind)] as const),
  ]) as Record<Kind, Figures>;
  results.push({ pair, figures, cpuMicros, p50Ratio: round(figures.mcpWire.p50Ms / figures.httpWire.p50Ms) });
}
await client.close();
await relay.stop();

const CONTROL_KINDS = ['getWire', 'postWire', 'getFetch', 'postFetch'] as const;

/** A GET and a POST of the read's tool call body to the plain server, by the wire client and by fetch. */
async function clientControl() {
  const server = fork(join(import.meta.dirname, 'plain-server.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve) => server.once('message', resolve));
  const get: WireRequest = { url, method: 'GET', path: '/', headers: {} };
  const post: WireRequest = { ...toolCallOf(PAIRS[0]!), url, headers: { 'content-type': 'application/json' } };
  const calls = {
    getWire: async () => void (await sendOnWire(get)),
    postWire: async () => void (await sendOnWire(post)),
    getFetch: async () => void (await sendWithFetch(get)),
    postFetch: async () => void (await sendWithFetch(post)),
  };
  for (let index = 0; index < WARM_UP; index += 1) for (const kind of CONTROL_KINDS) await calls[kind]();
  const figures = await interleaved(calls, CONTROL_KINDS, CALLS);
  server.kill();
  return Object.fromEntries(CONTROL_KINDS.map((kind) => [kind, figures(kind)])) as Record<
    (typeof CONTROL_KINDS)[number],
    Figures
  >;
}
const control = await clientControl();

const ratio = (call: Figures, http: Figures) =>
  `${round(call.p50Ms / http.p50Ms)}× | ${round(call.p99Ms / http.p99Ms)}×`;
const rows = results.flatMap(({ pair, figures: f, cpuMicros }) => {
  const http = `${pair.http.method} ${pair.http.path.split('?')[0]}`;
  return [
    `| ${http} over HTTP, wire client | ${f.httpWire.p50Ms} | ${f.httpWire.p99Ms} | | | ${cpuMicros.http} |`,
    `| ${pair.tool} on /mcp, wire client | ${f.mcpWire.p50Ms} | ${f.mcpWire.p99Ms} | ${ratio(f.mcpWire, f.httpWire)} | ${cpuMicros.mcp} (${round(cpuMicros.mcp / cpuMicros.http)}×) |`,
    `| ${http} over HTTP, fetch | ${f.httpFetch.p50Ms} | ${f.httpFetch.p99Ms} | | | |`,
    `| ${pair.tool} on /mcp, fetch | ${f.mcpFetch.p50Ms} | ${f.mcpFetch.p99Ms} | ${ratio(f.mcpFetch, f.httpFetch)} | |`,
    `| ${pair.tool} through the SDK's client | ${f.sdk.p50Ms} | ${f.sdk.p99Ms} | ${ratio(f.sdk, f.httpFetch)} | |`,
  ];
});
const controlRows = [
  `| wire client | ${control.getWire.p50Ms} | ${control.postWire.p50Ms} | ${round(control.postWire.p50Ms / control.getWire.p50Ms)}× |`,
  `| fetch | ${control.getFetch.p50Ms} | ${control.postFetch.p50Ms} | ${round(control.postFetch.p50Ms / control.getFetch.p50Ms)}× |`,
];
const met = results.every((result) => result.p50Ratio <= TARGET_P50_RATIO);
const report = [
  `MCP tool calls vs HTTP, ${CALLS} calls each, one at a time, interleaved (world round trips)`,
  '',
  '| Call | p50 ms | p99 ms | p50 vs HTTP | p99 vs HTTP | Relay CPU µs/call (median) |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows,
  '',
  "A plain node:http server, no relay: a GET against a POST of the read's tool call body (p50 ms)",
  '',
  '| Client | GET | POST | POST vs GET |',
  '| --- | ---: | ---: | ---: |',
  ...controlRows,
  '',
  `Target: a tool call's p50 at most ${TARGET_P50_RATIO}× the HTTP call's, on the wire: ${met ? 'met' : 'NOT met'}.`,
].join('\n');
const resultsDir = join(import.meta.dirname, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'mcp-latest.json'), `${JSON.stringify({ calls: CALLS, results, control }, null, 2)}\n`);
writeFileSync(join(resultsDir, 'mcp-latest.md'), `${report}\n`);
process.stdout.write(`${report}\n`);
if (!met) process.exitCode = 1;
