// Issue 23, item 4: switching LAN access on closed the loopback listener before binding the LAN one. A local process
// holding <LAN address>:<port> made that bind fail, the headless relay was left listening nowhere (and exited), yet the
// change answered 200; the process then bound 127.0.0.1:<port> and received tools' keys and the admin token. Expected:
// the new listener bound before the old one closes; a change that cannot be bound refused with 409 and nothing stored;
// the relay never without a listener. The LAN address is a real one: this machine's side of a network namespace's link.
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { freePort } from '../harness/ports.ts';
import { createLanPeer } from '../ui/lan-peer.ts';

const peer = await createLanPeer();

/** Another program on this computer binding an address and port; undefined when it could not. */
function bindAs(host: string, port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

function release(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** Whether a new TCP connection to this address is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(!peer)('item 25: switching LAN access and moving the port', () => {
  let relay: TestRelay;
  const stored = () => {
    try {
      return JSON.parse(readFileSync(join(relay.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    await relay?.close();
    await peer?.close();
  });

  it('refuses LAN access with 409 while another program holds <LAN address>:<port>, and keeps listening on loopback', async () => {
    const port = relay.relay.port;
    const squatter = await bindAs(peer!.hostAddress, port);
    expect(squatter).toBeDefined();
    try {
      const answer = await relay.admin('PATCH', '/admin/settings', { lanAccess: true });

      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe(
        `Another program holds port ${port} on ${peer!.hostAddress}, so LAN access stays off. Close that program, or move the relay to another port first`,
      );
      expect(stored().lanAccess).toBeUndefined();
      expect((await relay.admin('GET', '/admin/settings')).body.lanAccess).toBe(false);
      expect((await relay.admin('GET', '/admin/status')).body.lan.enabled).toBe(false);
      // Still listening on loopback: the program cannot take the address tools send their keys to.
      expect(await accepts('127.0.0.1', port)).toBe(true);
      const thief = await bindAs('127.0.0.1', port);
      await release(thief);
      expect(thief).toBeUndefined();
    } finally {
      await release(squatter);
    }
  });

  it('switches LAN access on and off without a moment of listening nowhere', async () => {
    const port = relay.relay.port;
    let probing = true;
    const refusedProbes: number[] = [];
    const probe = (async () => {
      for (let index = 0; probing; index++) if (!(await accepts('127.0.0.1', port))) refusedProbes.push(index);
    })();
    for (const lanAccess of [true, false, true]) {
      expect((await relay.admin('PATCH', '/admin/settings', { lanAccess })).status).toBe(200);
      expect(stored().lanAccess).toBe(lanAccess);
    }
    probing = false;
    await probe;
    expect(refusedProbes).toEqual([]);
    expect((await peer!.get(`http://${peer!.hostAddress}:${port}/api/status`)).status).toBe(200);
    expect(await bindAs('127.0.0.1', port)).toBeUndefined();
  });

  it('refuses a port move with 409 when another program holds the new port on a LAN address, and stays put', async () => {
    const oldPort = relay.relay.port;
    const newPort = await freePort();
    const squatter = await bindAs(peer!.hostAddress, newPort);
    try {
      const answer = await relay.admin('PATCH', '/admin/settings', { port: newPort });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe(
        `Port ${newPort} is in use by another program; the relay stays on ${oldPort}. Pick another port, or close that program first`,
      );
      expect(relay.relay.port).toBe(oldPort);
      expect(stored().port).toBeUndefined();
      expect(await accepts('127.0.0.1', oldPort)).toBe(true);
      expect(await accepts('127.0.0.1', newPort)).toBe(false);
      expect((await peer!.get(`http://${peer!.hostAddress}:${oldPort}/api/status`)).status).toBe(200);
    } finally {
      await release(squatter);
    }
  });
});
