// A relay with browser capture on real Chromium, the sandbox world connected over the protocol, and the sandbox
// web client (same seed, so the same documents) as the Foundry server the capture session logs in to.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { SHEET_SWATCH, type Flavour } from '../../sandbox/web/flavour.ts';

export const SEED = 7;
export const CAPTURE_USER = 'Assistant GM';
export const CAPTURE_PASSWORD = 'capture-secret';
export const GM_PASSWORD = 'gm-secret';

export interface CaptureHarness extends WorldHarness {
  web: SandboxWebClient;
  sheet(query: Record<string, string | number | boolean>, key?: string): Promise<{ response: Response; bytes: Buffer }>;
}

export async function startCaptureHarness(flavour: Flavour = 'v13'): Promise<CaptureHarness> {
  const harness = await startRelayWithWorld({ seed: SEED });
  const web = await startSandboxWebClient({
    flavour,
    worldOptions: { seed: SEED },
    passwords: { [CAPTURE_USER]: CAPTURE_PASSWORD, Gamemaster: GM_PASSWORD },
    relayUrl: harness.baseUrl,
  });
  const configured = await harness.admin('PUT', '/admin/capture', {
    foundryUrl: web.url,
    username: CAPTURE_USER,
    password: CAPTURE_PASSWORD,
  });
  if (configured.status !== 200) throw new Error(`capture settings refused: ${configured.text}`);
  const close = harness.close;
  return Object.assign(harness, {
    web,
    async sheet(query: Record<string, string | number | boolean>, key = harness.key) {
      const url = new URL('/sheet', harness.baseUrl);
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
      const response = await fetch(url, { headers: { 'x-api-key': key } });
      return { response, bytes: Buffer.from(await response.arrayBuffer()) };
    },
    async close() {
      await close();
      await web.close();
    },
  });
}

/** The centre of the sheet's solid swatch, in CSS pixels from the sheet's top-left corner (inside its 2 px border). */
export function swatchCentre(box: { width: number }): { x: number; y: number } {
  const border = 2;
  return {
    x: box.width - border - SHEET_SWATCH.right - SHEET_SWATCH.size / 2,
    y: border + SHEET_SWATCH.top + SHEET_SWATCH.size / 2,
  };
}

/** A process and all its descendants, from `ps`. */
export function processTree(rootPid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of rows) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

/** True while the process runs; a zombie (exited, not yet reaped by an init that never reaps) has ended. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
