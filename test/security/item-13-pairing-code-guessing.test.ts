import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { callFrom } from '../harness/from-address.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { answerBeforeTheBody } from './unfinished-body.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';
import { createLanPeer } from '../ui/lan-peer.ts';

// Eleven machines on the LAN; without namespaces (outside CI only) the test that needs them is skipped.
const peer = await createLanPeer({ machines: 11 });
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

const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));

/** Makes a pair request for `worldId`, approves it, and polls its pairing code as the module does. */
async function approvedCode(relayHarness: TestRelay, world: Record<string, string>): Promise<string> {
  const created = await callFrom('127.0.0.20', relayHarness.baseUrl, 'POST', '/auth/pair-request', world);
  await relayHarness.admin('POST', `/admin/pair-requests/${created.body.code}/approve`, {});
  const polled = await callFrom(
    '127.0.0.20',
    relayHarness.baseUrl,
    'GET',
    `/auth/pair-request/${created.body.code}/status`,
  );
  return polled.body.pairingCode as string;
}

describe('item 13: pairing codes cannot be guessed, and a code pairs only the world it was made for', () => {
  it('after 5 wrong codes a caller waits, and each further wrong code doubles the wait, even for the right code', async () => {
    const relayHarness = await relay();
    const issued = (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code as string;
    // A program on this computer: every loopback address is this computer, counted as one.
    const guess = (code: string) =>
      callFrom('127.0.0.2', relayHarness.baseUrl, 'POST', '/auth/pair', { code, worldId: 'guesser' });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await guess('AAAAAA')).status).toBe(404);
    const locked = await guess(issued);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('2');
    expect(locked.body.error).toMatch(/Too many wrong pairing codes from this address; try again in 2 s/);
    // A locked caller is answered before it sends its body, from any loopback address.
    expect(await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair', { source: '127.0.0.3' })).toBe(429);
    // A web page on this computer counts apart: the relay waits for its body (2 s, which also outlasts the lock).
    expect(
      await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair', {
        source: '127.0.0.3',
        headers: { origin: 'http://page.example' },
      }),
    ).toBe('no answer');
    await wait(2);
    expect((await guess('BBBBBB')).status).toBe(404);
    expect((await guess(issued)).headers.get('retry-after')).toBe('4');
    // The code was never handed out: whoever else holds it pairs.
    const paired = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code: issued, worldId: 'right-world' },
      headers: { origin: 'http://localhost:30000' },
    });
    expect(paired.status).toBe(200);
  });

  it.skipIf(!peer)(
    'many machines together are held to a ceiling: after 30 wrong codes, each machine that tried one waits',
    async () => {
      const relayHarness = await relay();
      await setLanAccess(relayHarness, true);
      const wrongCode = (from: string) => ({
        method: 'POST',
        path: '/auth/pair',
        from,
        body: { code: 'ZZZZZZ', worldId: 'x' },
      });
      const [first, ...others] = peer!.peerAddresses;
      const spread = await fromLan(
        relayHarness,
        peer!,
        [first!, ...others.slice(0, 9)].flatMap((from) => [wrongCode(from), wrongCode(from), wrongCode(from)]),
      );
      expect(spread.map((answer) => answer.status)).toEqual(Array(30).fill(404));
      const [again, fresh, freshAgain] = await fromLan(relayHarness, peer!, [
        wrongCode(first!),
        wrongCode(others[9]!),
        wrongCode(others[9]!),
      ]);
      expect(again!.status).toBe(429);
      expect(again!.json.error).toMatch(
        /Too many wrong pairing codes were tried on this relay, one of them from this address/,
      );
      expect(Number(again!.headers['retry-after'])).toBeGreaterThan(0);
      // A machine that tried none has its one code looked at: wrong, it waits with the others.
      expect(fresh!.status).toBe(404);
      expect(freshAgain!.status).toBe(429);
    },
  );

  it('the code of an approved request cannot pair another world, nor claim a paired world, and stays usable for its own', async () => {
    const relayHarness = await relay();
    const victim = createSandboxWorld({ seed: 13, worldId: 'victim', worldTitle: 'Victim' });
    const victimPaired = await exchangePairingCode(victim, {
      httpBase: relayHarness.baseUrl,
      code: (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code,
    });
    const code = await approvedCode(relayHarness, {
      worldId: 'attacker',
      worldTitle: 'Attacker',
      serverFingerprint: 'a'.repeat(32),
    });

    const otherWorld = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code, worldId: 'victim', serverFingerprint: victim.game.relaySettings.serverFingerprint },
    });
    expect(otherWorld.status).toBe(403);
    expect(otherWorld.body.error).toMatch(/made for the world that asked to pair.*not used up/);
    const claimsVictim = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code, worldId: 'attacker', serverFingerprint: 'a'.repeat(32), existingClientId: victimPaired.clientId },
    });
    expect(claimsVictim.status).toBe(403);

    const own = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code, worldId: 'attacker', serverFingerprint: 'a'.repeat(32), existingClientId: '' },
    });
    expect(own.status).toBe(200);
    expect(own.body.clientId).not.toBe(victimPaired.clientId);
    expect(
      relayHarness.relay.services.connectionTokens.list().filter((token) => token.clientId === victimPaired.clientId),
    ).toHaveLength(1);
  });

  it('a request for a paired world, once the GM approves it, yields that world to that world only', async () => {
    const relayHarness = await relay();
    const world = createSandboxWorld({ seed: 14, worldId: 'keep', worldTitle: 'The Keep' });
    const first = await exchangePairingCode(world, {
      httpBase: relayHarness.baseUrl,
      code: (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code,
    });
    const fingerprint = world.game.relaySettings.serverFingerprint;
    const code = await approvedCode(relayHarness, {
      worldId: 'keep',
      worldTitle: 'The Keep',
      serverFingerprint: fingerprint,
    });
    const copy = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code, worldId: 'keep', serverFingerprint: 'b'.repeat(32) },
    });
    expect(copy.status).toBe(403);
    const again = await exchangePairingCode(world, { httpBase: relayHarness.baseUrl, code });
    expect(again.clientId).toBe(first.clientId);
  });

  it('a code the GM issues for a paired world pairs only that world', async () => {
    const relayHarness = await relay();
    const keep = createSandboxWorld({ seed: 15, worldId: 'keep', worldTitle: 'The Keep' });
    const paired = await exchangePairingCode(keep, {
      httpBase: relayHarness.baseUrl,
      code: (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code,
    });
    const code = (await relayHarness.admin('POST', '/admin/pairing-codes', { clientId: paired.clientId })).body.code;
    const stranger = createSandboxWorld({ seed: 16, worldId: 'stranger', worldTitle: 'Stranger' });
    await expect(exchangePairingCode(stranger, { httpBase: relayHarness.baseUrl, code })).rejects.toThrow(
      /adds a browser to the world "The Keep" only/,
    );
    keep.game.relaySettings.clientId = '';
    const added = await exchangePairingCode(keep, { httpBase: relayHarness.baseUrl, code });
    expect(added.clientId).toBe(paired.clientId);
    expect(
      (await relayHarness.admin('POST', '/admin/pairing-codes', { clientId: 'fvtt_0000000000000000' })).status,
    ).toBe(404);
  });

  it('a code the GM issues for no world never hands a paired world to a world that does not prove to be it', async () => {
    const relayHarness = await relay();
    const victim = createSandboxWorld({ seed: 17, worldId: 'victim', worldTitle: 'Victim' });
    const victimPaired = await exchangePairingCode(victim, {
      httpBase: relayHarness.baseUrl,
      code: (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code,
    });
    const code = (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code;
    const claims = [
      { worldId: 'victim', existingClientId: victimPaired.clientId },
      { worldId: 'victim', existingClientId: victimPaired.clientId, serverFingerprint: 'c'.repeat(32) },
      {
        worldId: 'elsewhere',
        existingClientId: victimPaired.clientId,
        serverFingerprint: victim.game.relaySettings.serverFingerprint,
      },
    ];
    for (const claim of claims) {
      const answer = await call(relayHarness.baseUrl, 'POST', '/auth/pair', { body: { code, ...claim } });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatch(/claims the client id of a paired world it does not match/);
    }
    const sameWorldIdOnly = await call(relayHarness.baseUrl, 'POST', '/auth/pair', {
      body: { code, worldId: 'victim' },
    });
    expect(sameWorldIdOnly.status).toBe(200);
    expect(sameWorldIdOnly.body.clientId).not.toBe(victimPaired.clientId);
  });

  it('pair-request codes, which the module polls and never types, are 16 characters', async () => {
    const relayHarness = await relay();
    const created = await call(relayHarness.baseUrl, 'POST', '/auth/pair-request', { body: { worldId: 'long-code' } });
    expect(created.body.code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
  });
});
