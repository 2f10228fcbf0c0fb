// GET /sheet through the browser capture session: cold start to the first image, then warm latency per format and scale.
// Real Chromium, real loopback: a relay with capture configured against the sandbox web client.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { createRelay } from '../relay/relay.ts';
import { TOOL_SCOPES } from '../relay/auth/scopes.ts';
import { createSandboxWorld } from '../sandbox/index.ts';
import { startSandboxWebClient } from '../sandbox/web/server.ts';
import { percentile } from './statistics.ts';

const SEED = 42;
const WARM_CALLS = Number(process.env.CAPTURE_BENCH_CALLS ?? 60);
const CASES = [
  { format: 'png', scale: 1 },
  { format: 'png', scale: 2 },
  { format: 'jpeg', scale: 1 },
  { format: 'jpeg', scale: 2 },
] as const;

const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-capture-bench-'));
const relay = createRelay({ dataDir, port: 0, settings: { requestsPerMinute: 0 } });
await relay.start();
const web = await startSandboxWebClient({
  flavour: 'v13',
  worldOptions: { seed: SEED },
  passwords: { 'Assistant GM': 'bench' },
  relayUrl: relay.url,
});
const { key } = relay.services.keys.create({ name: 'capture bench', scopes: [...TOOL_SCOPES] });
const uuid = createSandboxWorld({ seed: SEED }).game.actors.getName('Thorin Ironfoot')!.uuid;

async function sheet(query: Record<string, string | number>): Promise<{ ms: number; bytes: number }> {
  const url = new URL('/sheet', relay.url);
  for (const [name, value] of Object.entries({ uuid, ...query })) url.searchParams.set(name, String(value));
  const started = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': key } });
  const body = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200 || response.headers.get('x-sheet-source') !== 'capture')
    throw new Error(`GET /sheet failed: ${response.status} ${Buffer.from(body).toString()}`);
  return { ms, bytes: body.byteLength };
}

const round = (value: number) => Math.round(value * 10) / 10;
try {
  const coldStarted = performance.now();
  await relay.services.capture!.configure({ foundryUrl: web.url, username: 'Assistant GM', password: 'bench' });
  await sheet({ format: 'png', scale: 1 });
  const coldStartMs = round(performance.now() - coldStarted);
  const rows = [];
  for (const { format, scale } of CASES) {
    for (let i = 0; i < 5; i++) await sheet({ format, scale });
    const samples = [];
    let bytes = 0;
    for (let i = 0; i < WARM_CALLS; i++) {
      const result = await sheet({ format, scale });
      samples.push(result.ms);
      bytes = result.bytes;
    }
    rows.push({
      format,
      scale,
      calls: WARM_CALLS,
      p50Ms: round(percentile(samples, 50)),
      p95Ms: round(percentile(samples, 95)),
      bytes,
    });
  }
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.versions.node}`;
  const table = [
    `GET /sheet through the capture session (720×800 CSS px character sheet, sequential calls), ${machine}`,
    '',
    `Cold start (settings saved → first image: browser launch, login, game ready, capture): ${coldStartMs} ms`,
    '',
    '| Format | Scale | Calls | p50 ms | p95 ms | Image bytes |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) => `| ${row.format} | ${row.scale} | ${row.calls} | ${row.p50Ms} | ${row.p95Ms} | ${row.bytes} |`,
    ),
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const resultsDir = new URL('./results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(new URL('capture-latest.md', resultsDir), `${table}\n`);
  writeFileSync(
    new URL('capture-latest.json', resultsDir),
    `${JSON.stringify({ machine, coldStartMs, rows }, null, 2)}\n`,
  );
} finally {
  await relay.stop();
  await web.close();
  rmSync(dataDir, { recursive: true, force: true });
}
