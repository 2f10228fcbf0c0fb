// The keeper comes back by itself: after its page crashes, after the relay restarts and after Foundry restarts; and a
// password Foundry refuses stops it clearly, without a storm of logins.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxWebClient } from '../../sandbox/web/server.ts';
import { processTree } from '../capture/harness.ts';
import { CLIENT_ID, keepOnline, startKeeperHarness, type KeeperHarness } from './harness.ts';

let harness: KeeperHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

// The grace before taking over is the default's 5 s in takeover.test.ts; here it only makes each test wait.
const QUICK_TAKEOVER = { keeperTiming: { graceMs: 1000, retryBaseMs: 500 } };

async function keptWorld(): Promise<KeeperHarness> {
  const started = await startKeeperHarness({ relay: QUICK_TAKEOVER });
  harness = started;
  expect((await keepOnline(started)).status).toBe(200);
  await started.untilPhase('kept', 15_000);
  return started;
}

describe('the keeper recovers by itself', () => {
  it('its page crashes: the world is online again within 30 s', async () => {
    const kept = await keptWorld();
    const browserPid = await kept.relay.relay.services.capture!.host.pid();
    const renderers = processTree(browserPid!).filter((pid) => commandLine(pid).includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    const crashed = performance.now();
    for (const pid of renderers) process.kill(pid, 'SIGKILL');
    await kept.untilPhase('retrying', 10_000);
    await kept.untilPhase('kept', 30_000);
    console.log(`keeper online again after its page crashed: ${Math.round(performance.now() - crashed)} ms`);
    expect(kept.linkSource()).toBe('keeper');
    expect(await kept.answers()).toBe(true);
  });

  it('the relay restarts: the keeper starts with it, and the world is online within 30 s', async () => {
    const kept = await keptWorld();
    const restarted = performance.now();
    await kept.relay.restart();
    expect(kept.keeperTokens()).toBe(0);
    await kept.untilPhase('kept', 30_000);
    console.log(`keeper online again after the relay restarted: ${Math.round(performance.now() - restarted)} ms`);
    expect(kept.keeperTokens()).toBe(1);
    expect(await kept.answers()).toBe(true);
  });

  it('Foundry restarts: the keeper notices its game is gone and logs in again', async () => {
    const started = await startKeeperHarness({ relay: { keeperTiming: { healthCheckMs: 500, retryBaseMs: 500 } } });
    harness = started;
    await keepOnline(started);
    await started.untilPhase('kept', 15_000);
    const port = Number(new URL(started.web.url).port);
    await started.web.close();
    await started.untilPhase('retrying', 10_000);
    const again = await startSandboxWebClient({
      port,
      flavour: 'v13',
      worldOptions: { seed: 7 },
      passwords: { Gamemaster: 'keeper-secret' },
      clientId: CLIENT_ID,
      relayUrl: started.relay.baseUrl,
    });
    try {
      await started.untilPhase('kept', 30_000);
      expect(again.presentUsers().map((user) => user.userName)).toEqual(['Gamemaster']);
    } finally {
      await again.close();
    }
  });

  it('a password Foundry refuses stops the keeper with words that say so, after one login', async () => {
    const started = await startKeeperHarness({ relay: { keeperTiming: { graceMs: 100, retryBaseMs: 100 } } });
    harness = started;
    expect((await keepOnline(started, { keeperPassword: 'not-the-password' })).status).toBe(200);
    await started.untilPhase('stopped', 15_000);
    const keeper = await started.keeper();
    expect(keeper.reason).toMatch(/refused the keeper's user or password/);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(started.web.loginAttempts).toBe(1);
    expect((await started.keeper()).phase).toBe('stopped');
    expect(started.keeperTokens()).toBe(0);
    // The GM mends the password: the keeper starts afresh with it.
    await keepOnline(started);
    await started.untilPhase('kept', 15_000);
  });
});
