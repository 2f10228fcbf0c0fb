// Where the relay listens: both loopback addresses, so a tool given http://localhost:<port> reaches it on whichever one
// `localhost` resolves to first, and no other program can take [::1]:<port> beside it; with LAN access, the LAN
// addresses of both families (from the LAN peer's network namespace); and a computer without IPv6 still starts it
// (the compiled `serve` in a network namespace whose IPv6 is switched off).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from '../harness/cli.ts';
import { setLanAccess } from '../harness/lan.ts';
import { freePort } from '../harness/ports.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';

const run = promisify(execFile);

let relay: TestRelay;
let peer: LanPeer | undefined;
beforeAll(async () => {
  [relay, peer] = await Promise.all([startTestRelay(), createLanPeer({ ipv6: true })]);
});
afterAll(async () => {
  await relay?.close();
  await peer?.close();
});

function takeAddress(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', resolve);
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
}

describe('on this computer', () => {
  it('answers on [::1] and 127.0.0.1 alike', async () => {
    for (const host of ['127.0.0.1', '[::1]', 'localhost']) {
      const answer = await fetch(`http://${host}:${relay.relay.port}/api/status`);
      expect(answer.status, host).toBe(200);
    }
  });

  it('holds both loopback addresses, so no other program can answer on either', async () => {
    expect((await takeAddress('::1', relay.relay.port))?.code).toBe('EADDRINUSE');
    expect((await takeAddress('127.0.0.1', relay.relay.port))?.code).toBe('EADDRINUSE');
  });

  it('does not start on a port another program holds on ::1 only', async () => {
    const port = await freePort();
    const other = createServer().listen(port, '::1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      await expect(startTestRelay({ port })).rejects.toMatchObject({ code: 'EADDRINUSE', host: '::1' });
    } finally {
      other.close();
    }
  });
});

describe('with LAN access on', () => {
  it('answers on its IPv6 LAN address as on its IPv4 one, and stops when LAN access goes off', async (context) => {
    if (!peer) return context.skip('network namespaces cannot be made here (not root, or no ip command)');
    const port = relay.relay.port;
    const calls = [
      { url: `http://${peer.hostAddress}:${port}/api/status` },
      { url: `http://[${peer.hostIpv6Address}]:${port}/api/status`, from: peer.peerIpv6Addresses[0] },
    ];
    await setLanAccess(relay, true);
    const on = await peer.requests(calls);
    expect(on.map((answer) => answer.status)).toEqual([200, 200]);
    await setLanAccess(relay, false);
    const off = await peer.requests(calls);
    expect(off.map((answer) => answer.status)).toEqual([0, 0]);
  });
});

describe('on a computer without IPv6', () => {
  it('serve starts on 127.0.0.1 and answers there', async (context) => {
    const namespace = `ttr-noip6-${process.pid}`;
    try {
      await run('ip', ['netns', 'add', namespace]);
      await run('ip', ['netns', 'exec', namespace, 'sysctl', '-qw', 'net.ipv6.conf.all.disable_ipv6=1']);
      await run('ip', ['netns', 'exec', namespace, 'sysctl', '-qw', 'net.ipv6.conf.lo.disable_ipv6=1']);
      await run('ip', ['netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up']);
    } catch (error) {
      await run('ip', ['netns', 'del', namespace]).catch(() => undefined);
      if (process.env.CI) throw error;
      return context.skip('network namespaces cannot be made here (not root, or no ip command)');
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-noip6-'));
    const serve = spawn('ip', [
      'netns',
      'exec',
      namespace,
      process.execPath,
      await compiledCli(),
      'serve',
      '--port',
      '3010',
      '--data-dir',
      dataDir,
    ]);
    let output = '';
    serve.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    serve.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 15_000, interval: 100 }).toContain('Press Ctrl+C');
      const { stdout } = await run('ip', [
        'netns',
        'exec',
        namespace,
        process.execPath,
        '-e',
        "fetch('http://127.0.0.1:3010/api/status').then((answer) => console.log(answer.status))",
      ]);
      expect(stdout.trim()).toBe('200');
      expect(output).not.toMatch(/::1/);
    } finally {
      serve.kill();
      await new Promise((resolve) => serve.once('exit', resolve));
      await run('ip', ['netns', 'del', namespace]).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
