import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTree, startCaptureHarness, type CaptureHarness } from '../capture/harness.ts';
import { uuidOf } from '../harness/world.ts';

/** The socket inodes a process holds open, from its file descriptors' links (`socket:[12345]`). */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let descriptors: string[];
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const descriptor of descriptors) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${descriptor}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed while we looked
    }
  }
  return inodes;
}

const LISTEN = '0A';

/** The TCP sockets listening in a process's network namespace (IPv4 and IPv6), as `address:port` by inode. */
function listeningSockets(pid: number): Map<string, string> {
  const listening = new Map<string, string>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state !== LISTEN || !local || !inode) continue;
      const [address, port] = local.split(':');
      listening.set(inode, `${table} ${address}:${Number.parseInt(port!, 16)}`);
    }
  }
  return listening;
}

/** Every TCP port a process of the browser's tree listens on. */
function browserListeningPorts(browserPid: number): string[] {
  const ports: string[] = [];
  for (const pid of processTree(browserPid)) {
    const listening = listeningSockets(pid);
    for (const inode of socketInodes(pid)) {
      const port = listening.get(inode);
      if (port) ports.push(`pid ${pid}: ${port}`);
    }
  }
  return ports;
}

let harness: CaptureHarness;
beforeAll(async () => {
  harness = await startCaptureHarness('v13');
}, 60_000);
afterAll(() => harness?.close());

describe.runIf(process.platform === 'linux')('item 24: the capture browser offers no DevTools port', () => {
  it('after a real capture through the relay, no process of the browser listens on any TCP port', async () => {
    const { response } = await harness.sheet({ uuid: await uuidOf(harness, 'Thorin Ironfoot') });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sheet-source')).toBe('capture');
    const browserPid = await harness.relay.services.capture!.host.pid();
    expect(browserPid).toBeGreaterThan(0);
    expect(processTree(browserPid!).length).toBeGreaterThan(1);
    expect(socketInodes(browserPid!).size).toBeGreaterThan(0);
    expect(browserListeningPorts(browserPid!)).toEqual([]);
  });

  it('the browser is driven over a pipe, and its command line names no debugging port', async () => {
    const browserPid = (await harness.relay.services.capture!.host.pid())!;
    const commandLine = readFileSync(`/proc/${browserPid}/cmdline`, 'utf8').split('\0');
    expect(commandLine).toContain('--remote-debugging-pipe');
    expect(commandLine.filter((argument) => argument.startsWith('--remote-debugging-port'))).toEqual([]);
  });
});
