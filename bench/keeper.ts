// The world keeper: how soon it takes a world over when the GM's browser leaves (the defaults a GM gets), how soon it
// steps back when the GM's browser comes back, and what its page costs at idle: memory (PSS, so pages the browser's
// processes share count once) and CPU of the whole Chromium process tree, with the keeper holding the world and nothing
// else to do. Real Chromium, real loopback, the sandbox web client as the world's Foundry.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay } from '../relay/relay.ts';
import { connectSandbox, createSandboxWorld, type SandboxLink } from '../sandbox/index.ts';
import { startSandboxWebClient } from '../sandbox/web/server.ts';
import { percentile } from './statistics.ts';

const CLIENT_ID = 'fvtt_keeperbench001';
const ROUNDS = Number(process.env.KEEPER_BENCH_ROUNDS ?? 5);
const IDLE_SECONDS = Number(process.env.KEEPER_BENCH_IDLE_SECONDS ?? 30);
const TICKS_PER_SECOND = 100;

const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-keeper-bench-'));
const relay = createRelay({ dataDir, port: 0 });
await relay.start();
const web = await startSandboxWebClient({
  flavour: 'v13',
  worldOptions: { seed: 42 },
  passwords: { Gamemaster: 'bench' },
  clientId: CLIENT_ID,
  relayUrl: relay.url,
});
const { services } = relay;
services.knownWorlds.remember({ clientId: CLIENT_ID, worldId: 'sandbox-world', worldTitle: 'The Sandbox Keep' });
services.knownWorlds.setFoundryUrl(CLIENT_ID, web.url);
const { token } = services.connectionTokens.issue(CLIENT_ID, "The GM's browser", 'pairing');

const gmJoins = () =>
  connectSandbox(createSandboxWorld({ seed: 42 }), {
    relayUrl: relay.url.replace(/^http/, 'ws'),
    clientId: CLIENT_ID,
    token,
  });

async function until(check: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

const phase = () => services.keepers!.view(CLIENT_ID).phase;

function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++)
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  return tree;
}

/** PSS in MB and CPU ticks (user + system) of the browser's whole process tree. */
function treeUsage(root: number): { pssMb: number; ticks: number } {
  let pssKb = 0;
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended while it was read.
    }
  }
  return { pssMb: Math.round(pssKb / 102.4) / 10, ticks };
}

const round = (value: number) => Math.round(value);
let gm: SandboxLink | undefined = await gmJoins();
try {
  services.keepers!.configure(CLIENT_ID, { enabled: true, username: 'Gamemaster', password: 'bench' });
  await until(() => phase() === 'browser', 5000);
  const takeovers: number[] = [];
  const stepsBack: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await gm.close();
    takeovers.push(await until(() => phase() === 'kept', 30_000));
    gm = await gmJoins();
    stepsBack.push(await until(() => phase() === 'browser' && web.presentUsers().length === 0, 10_000));
  }
  await gm.close();
  gm = undefined;
  await until(() => phase() === 'kept', 30_000);
  const browserPid = (await services.capture!.host.pid())!;
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const before = treeUsage(browserPid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const after = treeUsage(browserPid);
  const cpuPercent = Math.round(((after.ticks - before.ticks) / TICKS_PER_SECOND / IDLE_SECONDS) * 1000) / 10;
  // The same browser with the keeper's page closed: what is left is Chromium's own, shared with capture and sessions.
  services.keepers!.configure(CLIENT_ID, { enabled: false });
  await until(() => web.presentUsers().length === 0, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const withoutPage = treeUsage(browserPid);
  const pageMb = Math.round((after.pssMb - withoutPage.pssMb) * 10) / 10;
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.versions.node}`;
  const result = {
    machine,
    rounds: ROUNDS,
    takeoverMs: { p50: round(percentile(takeovers, 50)), max: round(Math.max(...takeovers)) },
    stepBackMs: { p50: round(percentile(stepsBack, 50)), max: round(Math.max(...stepsBack)) },
    idle: {
      seconds: IDLE_SECONDS,
      chromiumPssMb: after.pssMb,
      keeperPagePssMb: pageMb,
      chromiumCpuPercent: cpuPercent,
    },
  };
  const table = [
    `World keeper, headless (puppeteer-core Chromium, the sandbox web client as Foundry), ${machine}`,
    '',
    `GM's browser leaves → world online through the keeper (default 5 s grace, then login), ${ROUNDS} rounds: p50 ${result.takeoverMs.p50} ms, max ${result.takeoverMs.max} ms`,
    `GM's browser comes back → keeper's page closed: p50 ${result.stepBackMs.p50} ms, max ${result.stepBackMs.max} ms`,
    `Idle with the keeper holding the world (${IDLE_SECONDS} s): Chromium process tree ${after.pssMb} MB PSS (the keeper's page ${pageMb} MB of it), ${cpuPercent} % of one core`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  const resultsDir = new URL('./results/', import.meta.url);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(new URL('keeper-latest.md', resultsDir), `${table}\n`);
  writeFileSync(new URL('keeper-latest.json', resultsDir), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await gm?.close();
  await relay.stop();
  await web.close();
  rmSync(dataDir, { recursive: true, force: true });
}
