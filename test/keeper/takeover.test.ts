// The keeper's promise, end to end with the defaults a GM gets: the world stays online when the GM's browser leaves,
// the GM's browser always wins when it comes back, and the keeper is back when it leaves again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../contracts/world-protocol.ts';
import { CLIENT_ID, KEEPER_USER, keepOnline, startKeeperHarness, type KeeperHarness } from './harness.ts';

let harness: KeeperHarness;
beforeAll(async () => {
  harness = await startKeeperHarness();
}, 60_000);
afterAll(async () => {
  await harness?.close();
});

describe('a world kept online', () => {
  it('stands back while the GM’s browser holds the world', async () => {
    await harness.gmJoins();
    const switched = await keepOnline(harness);
    expect(switched.status).toBe(200);
    expect(switched.body.keeper).toMatchObject({ enabled: true, username: KEEPER_USER, passwordSet: true });
    expect(JSON.stringify(switched.body)).not.toContain('keeper-secret');
    await harness.untilPhase('browser', 5000);
    expect(harness.linkSource()).toBe('pairing');
    expect(harness.web.presentUsers()).toEqual([]);
  });

  it('takes the world over within 15 s of the GM’s browser leaving, in a quiet page, and calls keep answering', async () => {
    const left = performance.now();
    await harness.gmLeaves();
    await harness.untilPhase('kept', 15_000);
    const takeover = performance.now() - left;
    console.log(`keeper takeover after the GM's browser left: ${Math.round(takeover)} ms`);
    expect(takeover).toBeLessThan(15_000);
    expect(harness.linkSource()).toBe('keeper');
    expect(await harness.answers()).toBe(true);
    const [present] = harness.web.presentUsers();
    expect(present).toEqual({ userName: KEEPER_USER, noCanvas: true, muted: true });
  });

  it('gives the world to the GM’s browser at once when it comes back (no 4004), and closes its page', async () => {
    const gm = await harness.gmJoins();
    const outcome = await Promise.race([
      gm.closed.then(({ code }) => code),
      new Promise((r) => setTimeout(r, 1500, 'open')),
    ]);
    expect(outcome).toBe('open');
    expect(outcome).not.toBe(CloseCode.duplicateConnection);
    expect(harness.linkSource()).toBe('pairing');
    await harness.untilPhase('browser', 5000);
    await expect.poll(() => harness.web.presentUsers(), { timeout: 6000 }).toEqual([]);
    expect(harness.keeperTokens()).toBe(0);
    expect(await harness.answers()).toBe(true);
  });

  it('is back within 30 s when the GM’s browser leaves again', async () => {
    const left = performance.now();
    await harness.gmLeaves();
    await harness.untilPhase('kept', 30_000);
    console.log(`keeper back after the GM's browser left again: ${Math.round(performance.now() - left)} ms`);
    expect(harness.linkSource()).toBe('keeper');
  });

  it('records each change in the activity log', async () => {
    const activity = await harness.relay.admin('GET', '/admin/activity');
    const notes = (activity.body.entries as Array<{ method: string; note?: string }>)
      .filter((entry) => entry.method === 'KEEPER')
      .map((entry) => entry.note);
    expect(notes).toEqual(expect.arrayContaining(['browser', 'waiting', 'starting', 'kept']));
  });

  it('switched off: its page closes, its token is revoked and the world goes offline', async () => {
    const off = await harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { keepOnline: false });
    expect(off.status).toBe(200);
    expect(off.body.foundryUrl).toBe(harness.web.url);
    await harness.untilPhase('off', 5000);
    expect(harness.keeperTokens()).toBe(0);
    expect(harness.relay.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();
    await expect.poll(() => harness.web.presentUsers(), { timeout: 6000 }).toEqual([]);
  });
});
