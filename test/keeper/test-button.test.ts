// "Test" logs in once as the keeper's user and says in words what happened, for each way a GM gets it wrong; and with
// Foundry's administrator password the keeper launches a world that sits at Foundry 14's setup screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSandboxWebClient,
  type SandboxWebClient,
  type SandboxWebClientOptions,
} from '../../sandbox/web/server.ts';
import {
  CLIENT_ID,
  KEEPER_PASSWORD,
  KEEPER_USER,
  keepOnline,
  startKeeperHarness,
  type KeeperHarness,
} from './harness.ts';

let harness: KeeperHarness;
const others: SandboxWebClient[] = [];
beforeAll(async () => {
  harness = await startKeeperHarness({ relay: { keeperTiming: { graceMs: 200 } } });
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await Promise.all(others.map((web) => web.close()));
});

/** Another Foundry for the world: the GM gives its address. */
async function foundryAt(options: Partial<SandboxWebClientOptions>): Promise<SandboxWebClient> {
  const web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions: { seed: 7 },
    passwords: { [KEEPER_USER]: KEEPER_PASSWORD, Alice: 'alice-secret' },
    clientId: CLIENT_ID,
    relayUrl: harness.relay.baseUrl,
    ...options,
  });
  others.push(web);
  await harness.relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl: web.url });
  return web;
}

async function test(body: Record<string, string> = {}) {
  const answer = await harness.relay.admin('POST', `/admin/worlds/${CLIENT_ID}/keeper-test`, body);
  expect(answer.status).toBe(200);
  return answer.body as { ok: boolean; message: string; problem?: string };
}

describe('the keeper’s Test button', () => {
  it('asks for a user and password first', async () => {
    expect(await test()).toEqual({ ok: false, message: "Set the keeper's Foundry user and password first" });
  });

  it('says the user can keep the world online', async () => {
    const result = await test({ keeperUsername: KEEPER_USER, keeperPassword: KEEPER_PASSWORD });
    expect(result.ok).toBe(true);
    expect(result.message).toMatch(/Logged in to 'The Sandbox Keep' as 'Gamemaster', a Gamemaster/);
  });

  it.each([
    ['a wrong password', { keeperPassword: 'wrong' }, 'wrong-password', /refused the keeper's user or password/],
    ['an unknown user', { keeperUsername: 'Tabletop Relay' }, 'unknown-user', /no user of that name/],
    [
      'a user who is not a Gamemaster',
      { keeperUsername: 'Alice', keeperPassword: 'alice-secret' },
      'not-gamemaster',
      /not a Gamemaster/,
    ],
  ])('names %s', async (_label, change, problem, words) => {
    const result = await test({ keeperUsername: KEEPER_USER, keeperPassword: KEEPER_PASSWORD, ...change });
    expect(result).toMatchObject({ ok: false, problem });
    expect(result.message).toMatch(words);
  });

  it.each([
    ['the module not enabled', { moduleEnabled: false }, 'module-disabled', /module is not enabled/],
    ['a world never paired', { clientId: '' }, 'never-paired', /never paired/],
    [
      'a world not launched',
      { adminPassword: 'admin-secret', worldOptions: { seed: 7, foundryVersion: '14.366' } },
      'not-launched',
      /not launched/,
    ],
  ])('names %s', async (_label, options, problem, words) => {
    await foundryAt(options);
    const result = await test({ keeperUsername: KEEPER_USER, keeperPassword: KEEPER_PASSWORD });
    expect(result).toMatchObject({ ok: false, problem });
    expect(result.message).toMatch(words);
  });

  it('names Foundry not reachable', async () => {
    const gone = await foundryAt({});
    await gone.close();
    const result = await test({ keeperUsername: KEEPER_USER, keeperPassword: KEEPER_PASSWORD });
    expect(result).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(result.message).toMatch(/Foundry is not reachable/);
  });

  it('launches a world at Foundry 14’s setup screen with the administrator password, and keeps it online', async () => {
    const web = await foundryAt({ adminPassword: 'admin-secret', worldOptions: { seed: 7, foundryVersion: '14.366' } });
    const switched = await keepOnline(harness, { foundryAdminPassword: 'admin-secret' });
    expect(switched.body.keeper).toMatchObject({ adminPasswordSet: true });
    expect(JSON.stringify(switched.body)).not.toContain('admin-secret');
    await harness.untilPhase('kept', 20_000);
    expect(web.presentUsers().map((user) => user.userName)).toEqual([KEEPER_USER]);
    expect(await harness.answers()).toBe(true);
  });
});
