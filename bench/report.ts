// The benchmark's figures as JSON and as a Markdown table, with the targets of issue 12 checked against them.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { LoadResult } from './load.ts';
import type { Scenario } from './scenarios.ts';
import type { FanOutResult } from './sse-fanout.ts';
import type { SheetFrameResult } from './sheet-frame.ts';

export const RESULTS_DIR = new URL('./results/', import.meta.url);

export interface LoadComparison {
  scenario: Scenario;
  connections: number;
  /** Medians over the runs, except errors: their sum. */
  relay: LoadResult;
  bare: LoadResult;
  relayRuns: LoadResult[];
  bareRuns: LoadResult[];
}

export interface MemoryFigures {
  idleRssMb: number;
  afterLoadRssMb: number;
  peakRssMb: number;
}

export interface BenchResults {
  date: string;
  command: string;
  machine: string;
  durationSeconds: number;
  runs: number;
  load: LoadComparison[];
  memory: { relay: MemoryFigures; bare: MemoryFigures };
  /** Medians over the runs. */
  fanOut: FanOutResult;
  sheetFrame: SheetFrameResult;
}

export interface Target {
  name: string;
  measured: string;
  met: boolean;
}

export function checkTargets(results: BenchResults): Target[] {
  const row = (name: string, connections: number) =>
    results.load.find((load) => load.scenario.name === name && load.connections === connections)!;
  const roundTrip = row('GET /rolls', 50);
  const { relay, bare } = results.memory;
  const allErrors = results.load.reduce((sum, load) => sum + load.relay.errors, 0);
  return [
    throughput(row('GET /rolls', 50), 0.85),
    throughput(row('GET /rolls', 1), 0.9),
    {
      name: 'GET /rolls p99 at 50 connections ≤ 1.2× bare p99',
      measured: `${fixed(roundTrip.relay.p99Ms / roundTrip.bare.p99Ms, 2)}× (${fixed(roundTrip.relay.p99Ms, 1)} vs ${fixed(roundTrip.bare.p99Ms, 1)} ms)`,
      met: roundTrip.relay.p99Ms <= 1.2 * roundTrip.bare.p99Ms,
    },
    throughput(row('GET /clients', 50), 0.75),
    throughput(row('POST /roll', 50), 0.75),
    { name: 'zero errors (every relay run)', measured: String(allErrors), met: allErrors === 0 },
    { name: 'idle RSS ≤ 80 MB', measured: `${fixed(relay.idleRssMb, 0)} MB`, met: relay.idleRssMb <= 80 },
    {
      name: "RSS after load ≤ 1.3× bare's",
      measured: `${fixed(relay.afterLoadRssMb / bare.afterLoadRssMb, 2)}× (${fixed(relay.afterLoadRssMb, 0)} vs ${fixed(bare.afterLoadRssMb, 0)} MB)`,
      met: relay.afterLoadRssMb <= 1.3 * bare.afterLoadRssMb,
    },
    {
      name: 'SSE fan-out p99 ≤ 30 ms',
      measured: `${fixed(results.fanOut.p99Ms, 1)} ms`,
      met: results.fanOut.p99Ms <= 30,
    },
  ];
}

function throughput(load: LoadComparison, least: number): Target {
  const ratio = load.relay.requestsPerSecond / load.bare.requestsPerSecond;
  return {
    name: `${load.scenario.name} at ${load.connections} connection${load.connections === 1 ? '' : 's'} ≥ ${least}× bare req/s`,
    measured: `${fixed(ratio, 2)}×`,
    met: ratio >= least,
  };
}

export function markdownReport(results: BenchResults, targets: Target[]): string {
  const lines = [
    `Tabletop Relay benchmark, ${results.date}: ${results.machine}; ${results.durationSeconds} s runs, medians of ${results.runs}; \`${results.command}\``,
    '',
    '| Route | Conn. | Relay req/s | Bare req/s | Ratio | Relay p50 ms | Relay p99 ms | Bare p99 ms | p99 ratio | Relay errors | Bare errors | Relay CPU µs/req | Bare CPU µs/req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.load.map(({ scenario, connections, relay, bare }) =>
      row([
        `${scenario.name} (${scenario.measures})`,
        String(connections),
        fixed(relay.requestsPerSecond, 0),
        fixed(bare.requestsPerSecond, 0),
        `${fixed(relay.requestsPerSecond / bare.requestsPerSecond, 2)}×`,
        fixed(relay.p50Ms, 2),
        fixed(relay.p99Ms, 2),
        fixed(bare.p99Ms, 2),
        `${fixed(relay.p99Ms / bare.p99Ms, 2)}×`,
        String(relay.errors),
        String(bare.errors),
        fixed(relay.cpuMicrosPerRequest, 0),
        fixed(bare.cpuMicrosPerRequest, 0),
      ]),
    ),
    '',
    '| Memory (RSS) | Relay MB | Bare MB | Ratio |',
    '| --- | ---: | ---: | ---: |',
    ...(['idleRssMb', 'afterLoadRssMb', 'peakRssMb'] as const).map((field) =>
      row([
        { idleRssMb: 'idle', afterLoadRssMb: 'after load', peakRssMb: 'peak during load' }[field],
        fixed(results.memory.relay[field], 0),
        fixed(results.memory.bare[field], 0),
        `${fixed(results.memory.relay[field] / results.memory.bare[field], 2)}×`,
      ]),
    ),
    '',
    `SSE fan-out (relay, medians of ${results.runs}): ${results.fanOut.subscribers} subscribers × ${results.fanOut.events} roll events, ` +
      `${results.fanOut.deliveries} of ${results.fanOut.subscribers * results.fanOut.events} delivered; latency from the push p50 ${fixed(results.fanOut.p50Ms, 1)} ms, ` +
      `p99 ${fixed(results.fanOut.p99Ms, 1)} ms, max ${fixed(results.fanOut.maxMs, 1)} ms`,
    '',
    `64 MiB frame through GET /sheet (relay): ${fixed(results.sheetFrame.frameMiB, 0)} MiB frame, ` +
      `HTTP ${results.sheetFrame.status}, ${results.sheetFrame.receivedBytes} of ${results.sheetFrame.imageBytes} bytes ` +
      `(${results.sheetFrame.receivedBytes === results.sheetFrame.imageBytes ? 'complete' : 'WRONG COUNT'}) in ${fixed(results.sheetFrame.seconds, 2)} s`,
    '',
    '| Target (issue 12) | Measured | Met |',
    '| --- | --- | :---: |',
    ...targets.map((target) => row([target.name, target.measured, target.met ? 'yes' : '**no**'])),
  ];
  return `${lines.join('\n')}\n`;
}

export function writeResults(name: string, json: unknown, markdown: string): string[] {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const jsonPath = new URL(`${name}.json`, RESULTS_DIR);
  const markdownPath = new URL(`${name}.md`, RESULTS_DIR);
  writeFileSync(jsonPath, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(markdownPath, markdown);
  return [jsonPath.pathname, markdownPath.pathname];
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '–';
}
