// Pair requests and pairing codes survive a restart of the relay: the GM can approve a request the world made before
// it, the waiting module then gets its code, and a used code stays used. Expired requests are dropped on the way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionTokens } from '../../relay/auth/connection-tokens.ts';
import { KnownWorlds } from '../../relay/auth/known-worlds.ts';
import { Pairing } from '../../relay/auth/pairing.ts';
import { connectSandbox, createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { mountTinyDisk } from '../security/tiny-disk.ts';

let harness: TestRelay | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function pending(relay: TestRelay): Promise<{ code: string; world: { worldId: string } }[]> {
  return (await relay.admin('GET', '/admin/pair-requests')).body.pairRequests;
}

describe('pairing across a restart', () => {
  it('a request made before a restart is approved after it, and the waiting module pairs with its code', async () => {
    harness = await startTestRelay();
    const world = createSandboxWorld({ seed: 5, worldId: 'restart-world' });
    const created = await call(harness.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'restart-world', worldTitle: world.metadata.worldTitle },
    });
    expect(created.status).toBe(201);

    await harness.restart();

    expect(await pending(harness)).toEqual([
      expect.objectContaining({
        code: created.body.code,
        world: expect.objectContaining({ worldId: 'restart-world' }),
      }),
    ]);
    expect((await harness.admin('POST', `/admin/pair-requests/${created.body.code}/approve`)).body.status).toBe(
      'approved',
    );
    const status = await call(harness.baseUrl, 'GET', `/auth/pair-request/${created.body.code}/status`);
    const paired = await exchangePairingCode(world, { httpBase: harness.baseUrl, code: status.body.pairingCode });
    const link = await connectSandbox(world, {
      relayUrl: paired.relayUrl,
      clientId: paired.clientId,
      token: paired.token,
    });
    expect(link.connected).toBe(true);
    await link.close();
  });

  it('an approved code handed out before a restart pairs after it, once', async () => {
    harness = await startTestRelay();
    const created = await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'w-approved' } });
    await harness.admin('POST', `/admin/pair-requests/${created.body.code}/approve`);
    await harness.restart();
    const status = await call(harness.baseUrl, 'GET', `/auth/pair-request/${created.body.code}/status`);
    expect(status.body).toEqual({ status: 'approved', pairingCode: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/) });
    const exchange = { body: { code: status.body.pairingCode, worldId: 'w-approved' } };
    expect((await call(harness.baseUrl, 'POST', '/auth/pair', exchange)).status).toBe(200);
    await harness.restart();
    expect((await call(harness.baseUrl, 'GET', `/auth/pair-request/${created.body.code}/status`)).body).toEqual({
      status: 'exchanged',
    });
    expect((await call(harness.baseUrl, 'POST', '/auth/pair', exchange)).status).toBe(404);
  });

  it('a denied request stays denied, and the caps count stored requests', async () => {
    harness = await startTestRelay();
    const created = await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'w-denied' } });
    await harness.admin('POST', `/admin/pair-requests/${created.body.code}/deny`);
    for (const worldId of ['a', 'b', 'c'])
      expect((await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId } })).status).toBe(201);
    await harness.restart();
    expect((await call(harness.baseUrl, 'GET', `/auth/pair-request/${created.body.code}/status`)).body).toEqual({
      status: 'denied',
    });
    // Three requests from this address already wait: the per-address cap holds across the restart.
    expect((await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'd' } })).status).toBe(429);
  });
  it('nothing changes unless it was stored: on a read-only disk a pair request and an approval are refused', async (context) => {
    const disk = mountTinyDisk(512);
    if ('reason' in disk) return context.skip(disk.reason);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      harness = await startTestRelay({ dataDir: disk.dir });
      const waiting = await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'w-waiting' } });
      disk.readOnly();
      expect(
        (await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'w-refused' } })).status,
      ).toBe(500);
      expect((await harness.admin('POST', `/admin/pair-requests/${waiting.body.code}/approve`)).status).toBe(500);
      expect((await pending(harness)).map((request) => request.world.worldId)).toEqual(['w-waiting']);
      disk.writable();
      await harness.restart();
      expect((await pending(harness)).map((request) => request.world.worldId)).toEqual(['w-waiting']);
    } finally {
      await harness?.close();
      harness = undefined;
      disk.unmount();
      logged.mockRestore();
    }
  });
});

describe('Pairing store', () => {
  it('drops requests that expired while the relay was stopped', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-pairing-'));
    try {
      const open = (now: number) => {
        const tokens = new ConnectionTokens(join(dataDir, 'connection-tokens.json'));
        return new Pairing(
          tokens,
          new KnownWorlds(join(dataDir, 'worlds.json')),
          join(dataDir, 'pair-requests.json'),
          {},
          now,
        );
      };
      const start = Date.now();
      const first = open(start);
      const caller = { address: '127.0.0.1' };
      const old = first.request({ worldId: 'old' }, { upgradeOnly: false, caller }, start).request;
      first.request({ worldId: 'fresh' }, { upgradeOnly: false, caller }, start + 9 * 60_000);
      const later = start + 11 * 60_000;
      const reopened = open(later);
      expect(reopened.pending(later).map((request) => request.world.worldId)).toEqual(['fresh']);
      expect(() => reopened.poll(old.code, later)).toThrow('Unknown pairing request');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
