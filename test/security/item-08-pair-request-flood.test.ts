import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { callFrom } from '../harness/from-address.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { readAdminFeed } from '../harness/admin-feed.ts';
import { answerBeforeTheBody } from './unfinished-body.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';
import { createLanPeer } from '../ui/lan-peer.ts';

// Seven machines on the LAN; without namespaces (outside CI only) the test that needs them is skipped.
const peer = await createLanPeer({ machines: 7 });
let harness: TestRelay | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
afterAll(() => peer?.close());

async function relay(): Promise<TestRelay> {
  harness = await startTestRelay();
  return harness;
}

function floodBody(index: number): Record<string, string> {
  const long = (label: string) => `${label} ${index} `.padEnd(500, 'x');
  return {
    worldId: `flood-${index}`,
    worldTitle: long('title'),
    systemTitle: long('system'),
    serverFingerprint: long('fp'),
  };
}

describe('item 08: pair requests are capped, rate-limited and merged; the GM sees their source and the already paired world', () => {
  it('thousands of requests from one address: 3 wait, the rest get 429 with Retry-After; /admin/status and the admin feed stay small', async () => {
    const relayHarness = await relay();
    const feed = await readAdminFeed(relayHarness.baseUrl, relayHarness.relay.adminToken);
    await expect.poll(() => feed.events.length).toBeGreaterThanOrEqual(2);
    const statuses: number[] = [];
    const refused: Array<{ retryAfter: string | null; error: string }> = [];
    for (let batch = 0; batch < 20; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          call(relayHarness.baseUrl, 'POST', '/auth/pair-request', { body: floodBody(batch * 100 + index) }),
        ),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        if (answer.status === 429)
          refused.push({ retryAfter: answer.headers.get('retry-after'), error: answer.body.error });
      }
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(refused).toHaveLength(2000 - 3);
    // Over its rate, the address is answered before it sends its body; another address is not.
    expect(await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair-request')).toBe(429);
    expect(await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair-request', { source: '127.0.0.9' })).toBe(
      'no answer',
    );
    for (const { retryAfter, error } of refused) {
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(error).toMatch(/pair requests .*(this address|waiting).*try again in \d+ s/i);
    }
    const status = await relayHarness.admin('GET', '/admin/status');
    expect(status.body.pairRequests).toHaveLength(3);
    expect(status.text.length).toBeLessThan(20_000);
    // The feed got the three new requests as small events of their own, not the list again and again.
    await expect.poll(() => feed.events.filter((event) => event.name === 'pair-request')).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(feed.events.filter((event) => event.name === 'status')).toHaveLength(1);
    expect(feed.bytes()).toBeLessThan(20_000);
    feed.close();
  });

  it.skipIf(!peer)('at most 20 requests from other computers wait in all; each address at most 3', async () => {
    const relayHarness = await relay();
    await setLanAccess(relayHarness, true);
    const machines = peer!.peerAddresses;
    const answers = await fromLan(
      relayHarness,
      peer!,
      machines.flatMap((from) =>
        [0, 1, 2].map((world) => ({
          method: 'POST',
          path: '/auth/pair-request',
          from,
          body: { worldId: `w-${from}-${world}` },
        })),
      ),
    );
    expect(answers.slice(0, 20).map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const last = answers[20]!;
    expect(last.status).toBe(429);
    expect(last.json.error).toMatch(
      /20 pair requests from other computers are already waiting; deny the ones you do not know/,
    );
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(500);
    const [perAddress] = await fromLan(relayHarness, peer!, [
      { method: 'POST', path: '/auth/pair-request', from: machines[0], body: { worldId: 'fourth' } },
    ]);
    expect(perAddress!.status).toBe(429);
    expect(perAddress!.json.error).toMatch(/3 pair requests from this address are already waiting/);
    const { pairRequests } = (await relayHarness.admin('GET', '/admin/pair-requests')).body;
    expect(pairRequests).toHaveLength(20);
    expect(new Set(pairRequests.map((request: { source: string }) => request.source))).toEqual(new Set(machines));
  });

  it('the same world asking again from the same address gets its waiting request back', async () => {
    const relayHarness = await relay();
    const body = { worldId: 'again', worldTitle: 'Again', serverFingerprint: 'f'.repeat(32) };
    const first = await callFrom('127.0.0.2', relayHarness.baseUrl, 'POST', '/auth/pair-request', body);
    const second = await callFrom('127.0.0.2', relayHarness.baseUrl, 'POST', '/auth/pair-request', body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.code).toBe(first.body.code);
    const elsewhere = await callFrom('127.0.0.3', relayHarness.baseUrl, 'POST', '/auth/pair-request', body);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.code).not.toBe(first.body.code);
    const { pairRequests } = (await relayHarness.admin('GET', '/admin/pair-requests')).body;
    expect(pairRequests.map((request: { source: string }) => request.source).sort()).toEqual([
      '127.0.0.2',
      '127.0.0.3',
    ]);
  });

  it('a request that claims a paired world (its world id, fingerprint or client id) is shown to the GM as already paired', async () => {
    const relayHarness = await relay();
    const world = createSandboxWorld({ seed: 8, worldId: 'keep', worldTitle: 'The Keep' });
    const issued = await relayHarness.admin('POST', '/admin/pairing-codes', {});
    const paired = await exchangePairingCode(world, { httpBase: relayHarness.baseUrl, code: issued.body.code });
    const fingerprint = world.game.relaySettings.serverFingerprint;
    const claims = [
      { worldId: 'keep', worldTitle: 'The Keep' },
      { worldId: 'other-id', worldTitle: 'Innocent', serverFingerprint: fingerprint },
      { worldId: 'third-id', worldTitle: 'Innocent too', clientId: paired.clientId },
    ];
    for (const [index, claim] of claims.entries()) {
      expect(
        (await callFrom(`127.0.0.${index + 2}`, relayHarness.baseUrl, 'POST', '/auth/pair-request', claim)).status,
      ).toBe(201);
    }
    const claimed = (await relayHarness.admin('GET', '/admin/pair-requests')).body.pairRequests;
    const byWorld = new Map(claimed.map((request: any) => [request.world.worldId, request]));
    for (const claim of claims) {
      expect(byWorld.get(claim.worldId)).toMatchObject({
        pairedWorld: { clientId: paired.clientId, worldTitle: 'The Keep' },
      });
    }
    // Every loopback address is this computer, where 3 requests may wait: one is denied to make room.
    await relayHarness.admin('POST', `/admin/pair-requests/${claimed[0].code}/deny`);
    expect(
      (await call(relayHarness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'brand-new' } })).status,
    ).toBe(201);
    const { pairRequests } = (await relayHarness.admin('GET', '/admin/pair-requests')).body;
    const brandNew = pairRequests.find((request: any) => request.world.worldId === 'brand-new');
    expect(brandNew).not.toHaveProperty('pairedWorld');
    expect(brandNew).toMatchObject({ source: '127.0.0.1' });
  });
});
