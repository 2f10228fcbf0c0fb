import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, exchangePairingCode, pairSandbox } from '../../sandbox/index.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

describe('pairing (module-protocol §3)', () => {
  it('a pair request approved through the admin API yields a token with which the sandbox connects', async () => {
    const world = createSandboxWorld({ seed: 1 });
    let pairUrl = '';
    const pairing = pairSandbox(world, {
      httpBase: harness.baseUrl,
      pollIntervalMs: 50,
      onCode: (_code, url) => {
        pairUrl = url;
      },
    });
    await expect
      .poll(async () => (await harness.admin('GET', '/admin/pair-requests')).body.pairRequests.length)
      .toBe(1);
    const waiting = (await harness.admin('GET', '/admin/pair-requests')).body.pairRequests[0];
    expect(waiting.world).toMatchObject({ worldId: world.metadata.worldId, worldTitle: world.metadata.worldTitle });
    expect(pairUrl).toBe(`${harness.baseUrl}/pair/${waiting.code}`);
    const page = await call(harness.baseUrl, 'GET', `/pair/${waiting.code}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(world.metadata.worldTitle!);

    expect((await harness.admin('POST', `/admin/pair-requests/${waiting.code}/approve`)).body.status).toBe('approved');
    const paired = await pairing;
    expect(paired.clientId).toMatch(/^fvtt_[0-9a-f]{16}$/);
    expect(paired.relayUrl).toBe(`${harness.wsUrl}/relay`);

    const link = await connectSandbox(world, {
      relayUrl: paired.relayUrl,
      clientId: paired.clientId,
      token: paired.token,
    });
    const key = await harness.createKey({ scopes: ['clients:read', 'world:info'] });
    const clients = await harness.api(key, 'GET', '/clients');
    expect(clients.body.clients).toEqual([expect.objectContaining({ clientId: paired.clientId, isOnline: true })]);
    expect((await harness.api(key, 'GET', '/world-info')).body.data.world.id).toBe(world.metadata.worldId);
    expect((await call(harness.baseUrl, 'GET', `/api/clients/${paired.clientId}/active`)).body).toEqual({
      active: true,
    });
    await link.close();
    await expect
      .poll(async () => (await call(harness.baseUrl, 'GET', `/api/clients/${paired.clientId}/active`)).body)
      .toEqual({ active: false });
  });

  it('hands the approved pairing code out once; later polls say exchanged', async () => {
    const created = await call(harness.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'w1', worldTitle: 'One' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{16}$/),
      upgradeOnly: false,
      expiresIn: 600,
    });
    const statusPath = `/auth/pair-request/${created.body.code}/status`;
    expect((await call(harness.baseUrl, 'GET', statusPath)).body).toEqual({ status: 'pending' });
    await harness.admin('POST', `/admin/pair-requests/${created.body.code}/approve`);
    const approved = await call(harness.baseUrl, 'GET', statusPath);
    expect(approved.body).toEqual({ status: 'approved', pairingCode: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/) });
    expect((await call(harness.baseUrl, 'GET', statusPath)).body).toEqual({ status: 'exchanged' });
  });

  it("a denied request stops the module's pairing with a clear error", async () => {
    const world = createSandboxWorld({ seed: 2, worldId: 'denied-world' });
    const pairing = pairSandbox(world, { httpBase: harness.baseUrl, pollIntervalMs: 50 });
    pairing.catch(() => {});
    await expect
      .poll(async () =>
        (await harness.admin('GET', '/admin/pair-requests')).body.pairRequests.some(
          (r: any) => r.world.worldId === 'denied-world',
        ),
      )
      .toBe(true);
    const waiting = (await harness.admin('GET', '/admin/pair-requests')).body.pairRequests.find(
      (r: any) => r.world.worldId === 'denied-world',
    );
    await harness.admin('POST', `/admin/pair-requests/${waiting.code}/deny`);
    await expect(pairing).rejects.toThrow(/denied/);
    const twice = await harness.admin('POST', `/admin/pair-requests/${waiting.code}/approve`);
    expect(twice.status).toBe(409);
  });

  it('an issued 6-character code is exchanged once for a token ("Enter Code")', async () => {
    const issued = await harness.admin('POST', '/admin/pairing-codes', {});
    expect(issued.status).toBe(201);
    expect(issued.body.code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
    const world = createSandboxWorld({ seed: 3, worldId: 'code-world' });
    const paired = await exchangePairingCode(world, {
      httpBase: harness.baseUrl,
      code: issued.body.code.toLowerCase(),
    });
    const link = await connectSandbox(world, {
      relayUrl: harness.wsUrl,
      clientId: paired.clientId,
      token: paired.token,
    });
    expect(link.connected).toBe(true);
    await link.close();
    const reused = await call(harness.baseUrl, 'POST', '/auth/pair', {
      body: { code: issued.body.code, worldId: 'code-world' },
    });
    expect(reused.status).toBe(410);
    expect(reused.body.error).toMatch(/already been used/);
  });

  it('a world that pairs again keeps its client id', async () => {
    const first = await harness.admin('POST', '/admin/pairing-codes', {});
    const second = await harness.admin('POST', '/admin/pairing-codes', {});
    const world = createSandboxWorld({ seed: 4, worldId: 'returning-world' });
    const a = await exchangePairingCode(world, { httpBase: harness.baseUrl, code: first.body.code });
    const b = await exchangePairingCode(world, { httpBase: harness.baseUrl, code: second.body.code });
    expect(b.clientId).toBe(a.clientId);
  });

  it('answers unknown codes and bad bodies with JSON errors', async () => {
    expect((await call(harness.baseUrl, 'POST', '/auth/pair', { body: { code: 'ZZZZZZ', worldId: 'x' } })).status).toBe(
      404,
    );
    expect((await call(harness.baseUrl, 'POST', '/auth/pair', { body: {} })).body).toEqual({
      error: "'code' is required",
    });
    expect((await call(harness.baseUrl, 'POST', '/auth/pair-request', { body: {} })).body).toEqual({
      error: "'worldId' is required",
    });
    expect((await call(harness.baseUrl, 'GET', '/auth/pair-request/NOPE1234/status')).status).toBe(404);
    expect((await call(harness.baseUrl, 'GET', '/api/clients/fvtt_unknown/active')).status).toBe(404);
  });

  it('lets the Foundry page call the pairing endpoints across origins', async () => {
    const preflight = await fetch(`${harness.baseUrl}/auth/pair-request`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:30000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
