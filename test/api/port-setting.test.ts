// The port as a setting: PATCH /admin/settings moves the relay at once, a taken port changes nothing, and a start on a
// taken port takes the next free one when asked to (the desktop app), all through real loopback sockets.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRelay, type Relay } from '../../relay/relay.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { freePort, heldPort } from '../harness/ports.ts';

const cleanups: (() => Promise<void> | void)[] = [];

/** A port some other program holds for the rest of the test. */
async function takenPort(): Promise<number> {
  const { port, release } = await heldPort();
  cleanups.push(release);
  return port;
}
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayUnderTest(): Promise<TestRelay> {
  const relay = await startTestRelay();
  cleanups.push(() => relay.close());
  return relay;
}

/** Whether a new TCP connection to this port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const storedSettings = (dataDir: string) =>
  JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;

describe('PATCH /admin/settings port', () => {
  it('moves the relay to the new port at once and stores it; status and URL follow', async () => {
    const relay = await relayUnderTest();
    const oldPort = relay.relay.port;
    const newPort = await freePort();

    const answer = await relay.admin('PATCH', '/admin/settings', { port: newPort });

    expect(answer.status).toBe(200);
    expect(answer.body.port).toBe(newPort);
    expect(relay.relay.port).toBe(newPort);
    expect(relay.relay.url).toBe(`http://127.0.0.1:${newPort}`);
    expect(storedSettings(relay.dataDir).port).toBe(newPort);
    expect((await call(`http://127.0.0.1:${newPort}`, 'GET', '/api/status')).status).toBe(200);
    const status = await relay.admin('GET', '/admin/status');
    expect(status.body).toMatchObject({ port: newPort, url: `http://127.0.0.1:${newPort}` });
    expect(status.body.portFallback).toBeUndefined();
    expect(await accepts(oldPort)).toBe(false);
  });

  it('refuses a port another program holds with 409, and nothing changes', async () => {
    const relay = await relayUnderTest();
    const oldPort = relay.relay.port;
    const taken = await takenPort();

    const answer = await relay.admin('PATCH', '/admin/settings', { port: taken, requestsPerMinute: 5 });

    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe(
      `Port ${taken} is in use by another program; the relay stays on ${oldPort}. Pick another port, or close that program first`,
    );
    expect(relay.relay.port).toBe(oldPort);
    expect((await relay.admin('GET', '/admin/settings')).body).toMatchObject({ port: 3010, requestsPerMinute: 1200 });
    expect(() => storedSettings(relay.dataDir)).toThrow(/ENOENT/);
  });

  it('moves back when the new port cannot be stored: it listens on the new port only once stored', async () => {
    const relay = await relayUnderTest();
    const oldPort = relay.relay.port;
    const newPort = await freePort();

    const moved = relay.relay.services.network.moveTo({ port: newPort }, () => {
      throw new Error('disk full');
    });

    await expect(moved).rejects.toThrow('disk full');
    expect(relay.relay.port).toBe(oldPort);
    expect(await accepts(oldPort)).toBe(true);
    expect(await accepts(newPort)).toBe(false);
  });

  it.each([80, 1023, 65536, 0, 'high'])('refuses port %s with 400', async (port) => {
    const relay = await relayUnderTest();
    const answer = await relay.admin('PATCH', '/admin/settings', { port });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/port/);
  });

  it('keeps world links and event streams that are open while it moves', async () => {
    const relay = await relayUnderTest();
    const key = await relay.createKey();
    const stream = await fetch(`${relay.baseUrl}/admin/events`, {
      headers: { authorization: `Bearer ${relay.relay.adminToken}` },
    });
    const reader = stream.body!.getReader();
    await reader.read();

    expect((await relay.admin('PATCH', '/admin/settings', { port: await freePort() })).status).toBe(200);

    const next = await reader.read();
    expect(next.done).toBe(false);
    expect(new TextDecoder().decode(next.value)).toContain('event: status');
    await reader.cancel();
    expect((await relay.api(key, 'GET', '/clients')).status).toBe(200);
  });
});

describe('PATCH /admin/settings lanAccess', () => {
  it('answers only once the relay listens on its new address, so the next call never finds it closed', async () => {
    const relay = await relayUnderTest();
    // A loaded machine can leave a moment between closing the old listener and listening anew; this makes it 200 ms.
    const listen = Server.prototype.listen;
    vi.spyOn(Server.prototype, 'listen').mockImplementation(function (this: Server, ...args: unknown[]) {
      setTimeout(() => listen.apply(this, args as Parameters<typeof listen>), 200);
      return this;
    });
    for (const lanAccess of [true, false]) {
      expect((await relay.admin('PATCH', '/admin/settings', { lanAccess })).status).toBe(200);
      expect(await accepts(relay.relay.port)).toBe(true);
    }
  });
});

describe('a start on a taken port', () => {
  function relayIn(dataDir: string, nextFreePortIfTaken: boolean): Relay {
    const relay = createRelay({
      dataDir,
      nextFreePortIfTaken,
      capture: false,
      log: { info() {}, warn() {}, error() {} },
    });
    cleanups.push(() => relay.stop());
    return relay;
  }

  function dataDirWithPort(port: number): string {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-port-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ port }));
    return dataDir;
  }

  it('listens on the stored port', async () => {
    const port = await freePort();
    const relay = relayIn(dataDirWithPort(port), false);
    await relay.start();
    expect(relay.port).toBe(port);
  });

  it('fails without the fallback, as serve does', async () => {
    const relay = relayIn(dataDirWithPort(await takenPort()), false);
    await expect(relay.start()).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('takes the next free port with the fallback, says so in the status, and the GM can keep it', async () => {
    const taken = await takenPort();
    const dataDir = dataDirWithPort(taken);
    const relay = relayIn(dataDir, true);
    await relay.start();

    expect(relay.port).not.toBe(taken);
    expect(relay.status()).toMatchObject({ port: relay.port, portFallback: { wanted: taken } });
    expect((await call(relay.url, 'GET', '/api/status')).status).toBe(200);

    const kept = await call(relay.url, 'PATCH', '/admin/settings', {
      body: { port: relay.port },
      headers: { authorization: `Bearer ${relay.adminToken}` },
    });
    expect(kept.status).toBe(200);
    expect(relay.status().portFallback).toBeUndefined();
    expect(storedSettings(dataDir).port).toBe(relay.port);
  });
});
