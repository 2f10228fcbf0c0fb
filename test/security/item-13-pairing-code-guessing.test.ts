import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { callFrom } from '../harness/from-address.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { answerBeforeTheBody } from './unfinished-body.ts';

let harness: TestRelay | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

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
  it('after 5 wrong codes an address waits, and each further wrong code doubles the wait, even for the right code', async () => {
    const relayHarness = await relay();
    const issued = (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code as string;
    const guess = (code: string) =>
      callFrom('127.0.0.2', relayHarness.baseUrl, 'POST', '/auth/pair', { code, worldId: 'guesser' });
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await guess('AAAAAA')).status).toBe(404);
    const locked = await guess(issued);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('2');
    expect(locked.body.error).toMatch(/Too many wrong pairing codes from this address; try again in 2 s/);
    // A locked address is answered before it sends its body.
    expect(await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair', { source: '127.0.0.2' })).toBe(429);
    // The request-code status poll shares the limit.
    expect(
      (await callFrom('127.0.0.2', relayHarness.baseUrl, 'GET', '/auth/pair-request/AAAAAAAAAAAAAAAA/status')).status,
    ).toBe(429);
    // Another address is not: the relay waits for its body (2 s, which also outlasts the lock).
    expect(await answerBeforeTheBody(relayHarness.baseUrl, '/auth/pair', { source: '127.0.0.4' })).toBe('no answer');
    await wait(2);
    expect((await guess('BBBBBB')).status).toBe(404);
    expect((await guess(issued)).headers.get('retry-after')).toBe('4');
    // Another machine is not held up, and the code was never handed out.
    expect(
      (
        await callFrom('127.0.0.3', relayHarness.baseUrl, 'POST', '/auth/pair', {
          code: issued,
          worldId: 'right-world',
        })
      ).status,
    ).toBe(200);
  });

  it('unknown request codes polled for their status count as wrong guesses too', async () => {
    const relayHarness = await relay();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (
          await callFrom(
            '127.0.0.4',
            relayHarness.baseUrl,
            'GET',
            `/auth/pair-request/GUESS${attempt}AAAAAAAAAA/status`,
          )
        ).status,
      ).toBe(404);
    }
    const locked = await callFrom(
      '127.0.0.4',
      relayHarness.baseUrl,
      'GET',
      '/auth/pair-request/GUESS9AAAAAAAAAA/status',
    );
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('many addresses together are held to a ceiling: after 30 wrong codes every address waits', async () => {
    const relayHarness = await relay();
    const issued = (await relayHarness.admin('POST', '/admin/pairing-codes', {})).body.code as string;
    for (let machine = 10; machine < 16; machine += 1) {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(
          (
            await callFrom(`127.0.0.${machine}`, relayHarness.baseUrl, 'POST', '/auth/pair', {
              code: 'ZZZZZZ',
              worldId: 'x',
            })
          ).status,
        ).toBe(404);
      }
    }
    const fresh = await callFrom('127.0.0.30', relayHarness.baseUrl, 'POST', '/auth/pair', {
      code: issued,
      worldId: 'x',
    });
    expect(fresh.status).toBe(429);
    expect(fresh.body.error).toMatch(/Too many wrong pairing codes were tried on this relay; pairing is paused/);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
  });

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
