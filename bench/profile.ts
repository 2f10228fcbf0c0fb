// `npm run bench:profile -- [--bare] [GET /rolls | GET /clients | POST /roll | PUT /update]`: runs the relay process (or, with --bare,
// the bare forwarder's) under --cpu-prof while autocannon drives one route at 50 connections (PROFILE_SECONDS, default
// 10), then prints where the CPU time went:
// the functions with the most self time, and the self time of each module (relay file, npm package, Node module).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { measureLoad } from './load.ts';
import { fixed, RESULTS_DIR } from './report.ts';
import { BENCH_SCENARIOS, JOURNALED_WRITE } from './scenarios.ts';
import { startServerProcess } from './server-process.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const TOP = 25;
const kind = process.argv.includes('--bare') ? 'bare' : 'relay';
const routeName =
  process.argv
    .slice(2)
    .filter((argument) => argument !== '--bare')
    .join(' ') || 'GET /rolls';
const scenarios = [...BENCH_SCENARIOS, JOURNALED_WRITE];
const scenario = scenarios.find((candidate) => candidate.name === routeName);
if (!scenario) throw new Error(`Unknown route '${routeName}'; one of: ${scenarios.map((s) => s.name).join(', ')}`);
const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const profileDir = fileURLToPath(new URL('./profiles/', RESULTS_DIR));
rmSync(profileDir, { recursive: true, force: true });

const server = await startServerProcess(kind, { cpuProfileDir: profileDir });
const load = await measureLoad(server, scenario, 50, seconds);
await server.stop();
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(`${profileDir}${file}`, 'utf8')) as CpuProfile;

console.log(
  `${kind}: ${routeName} ×50 for ${seconds} s: ${fixed(load.requestsPerSecond, 0)} req/s, ${fixed(load.cpuMicrosPerRequest, 0)} µs CPU per request`,
);
console.log(`Profile: ${profileDir}${file}`);
const { selfByFunction, selfByModule, busy, startup } = summarise(profile);
console.log(
  `Shares of the busy time (${fixed(busy / 1000, 0)} ms; idle and ${fixed(startup / 1000, 0)} ms of start-up left out)\n`,
);
printShares(`Top ${TOP} functions by self time`, selfByFunction, busy);
printShares('Self time by module (native work counted to the module that called it)', selfByModule, busy);

function summarise(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stackOf = (id: number) => {
    const stack: ProfileNode[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) stack.push(byId.get(node)!);
    return stack;
  };
  const selfByFunction = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  let busy = 0;
  let startup = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const stack = stackOf(id);
    if (stack[0]!.callFrame.functionName === '(idle)') return;
    if (stack.some((node) => node.callFrame.url.startsWith('node:internal/modules/'))) {
      startup += micros;
      return;
    }
    busy += micros;
    add(selfByFunction, functionLabel(stack[0]!), micros);
    const caller = stack.find((node) => node.callFrame.url !== '');
    add(selfByModule, caller ? moduleOf(caller.callFrame.url) : stack[0]!.callFrame.functionName, micros);
  });
  return { selfByFunction, selfByModule, busy, startup };
}

function functionLabel(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return url ? `${functionName || '(anonymous)'} ${moduleOf(url)}:${lineNumber + 1}` : functionName;
}

/** A relay or bench file, an npm package, or a Node module. */
function moduleOf(url: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  const inProject = /\/((?:relay|bench|sandbox)\/.+)$/.exec(url);
  return inProject ? inProject[1]! : url;
}

function add(totals: Map<string, number>, key: string, micros: number): void {
  totals.set(key, (totals.get(key) ?? 0) + micros);
}

function printShares(title: string, totals: Map<string, number>, total: number): void {
  console.log(title);
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  for (const [label, micros] of top) console.log(`  ${fixed((100 * micros) / total, 1).padStart(5)} %  ${label}`);
  console.log('');
}
