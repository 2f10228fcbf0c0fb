import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { startTestRelay } from '../harness/relay.ts';
import { freePort } from '../harness/ports.ts';
import { connectSandbox, createSandboxWorld } from '../../sandbox/index.ts';
import {
  DECK_SCOPES,
  RelayClient,
  WorldWatcher,
  maskSecrets,
  requestKey,
  roll,
  stepCombat,
  togglePlaylist,
  type ClientLogger,
  type WorldSnapshot,
} from '../../integrations/client/index.ts';

let harness: WorldHarness;
const lines: string[] = [];
const logger: ClientLogger = { info: (line) => lines.push(line), warn: (line) => lines.push(line) };

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 200 } });
});
afterAll(() => harness.close());

function clientWith(apiKey: string | undefined, relayUrl = harness.baseUrl): RelayClient {
  return new RelayClient({ relayUrl, apiKey, logger });
}

/** Waits until the watcher's snapshot passes `check`, at most `timeoutMs`. */
function until(watcher: WorldWatcher, check: (snapshot: WorldSnapshot) => boolean, timeoutMs = 3000) {
  return new Promise<WorldSnapshot>((resolve, reject) => {
    if (check(watcher.snapshot)) return resolve(watcher.snapshot);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`snapshot never passed the check: ${JSON.stringify(watcher.snapshot)}`));
    }, timeoutMs);
    const stop = watcher.onChange((snapshot) => {
      if (!check(snapshot)) return;
      clearTimeout(timer);
      stop();
      resolve(snapshot);
    });
  });
}

describe('call: short messages for a key', () => {
  it('rolls with a key that holds the scope', async () => {
    const answer = await roll(clientWith(harness.key), '1d20+2', 'From a button');
    expect(answer.ok).toBe(true);
    if (answer.ok) expect(answer.body.data?.roll?.total).toBeGreaterThanOrEqual(3);
  });

  it('no key, an unknown key, a missing scope (named for the logs) and no world each say so in a word or two', async () => {
    expect(await clientWith(undefined).call('POST', '/roll', { formula: '1d4' })).toMatchObject({ short: 'No key' });
    expect(await clientWith('ttr_unknownkey000000').call('POST', '/roll', { formula: '1d4' })).toMatchObject({
      short: 'No key',
      status: 401,
    });
    const readOnly = await harness.keyWith(['roll:read']);
    const refused = await clientWith(readOnly).call('POST', '/roll', { formula: '1d4' });
    expect(refused).toMatchObject({ ok: false, status: 403, short: 'Not allowed' });
    if (!refused.ok) expect(refused.detail).toContain('roll:execute');
    const empty = await startTestRelay();
    try {
      const key = await empty.createKey();
      expect(await clientWith(key, empty.baseUrl).call('POST', '/roll', { formula: '1d4' })).toMatchObject({
        short: 'No world',
        status: 404,
      });
    } finally {
      await empty.close();
    }
  });

  it('a relay that is not running is "Relay off" at once, and one that never answers is "Relay off" after 2 s', async () => {
    const closedPort = await freePort();
    const started = Date.now();
    expect(await clientWith(harness.key, `http://127.0.0.1:${closedPort}`).call('GET', '/clients')).toMatchObject({
      short: 'Relay off',
      status: 0,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const waited = Date.now();
      const answer = await clientWith(harness.key, `http://127.0.0.1:${port}`).call('POST', '/next-turn');
      expect(answer).toMatchObject({ short: 'Relay off' });
      expect(Date.now() - waited).toBeGreaterThanOrEqual(1900);
      expect(Date.now() - waited).toBeLessThan(2600);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('too many calls is "Slow down"', async () => {
    await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 2 });
    try {
      const client = clientWith(await harness.keyWith(['clients:read']));
      const answers = [];
      for (let index = 0; index < 4; index += 1) answers.push(await client.call('GET', '/clients'));
      expect(answers.at(-1)).toMatchObject({ ok: false, status: 429, short: 'Slow down' });
    } finally {
      await harness.admin('PATCH', '/admin/settings', { requestsPerMinute: 1200 });
    }
  });

  it('the key never reaches the log, nor anything shaped like a secret', async () => {
    const key = await harness.keyWith(['roll:read']);
    await clientWith(key).call('POST', `/roll?x=${key}`, { formula: '1d4' });
    await clientWith(key).call('GET', `/${key}`);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(key);
    expect(maskSecrets(`a ttr_abc123 and krq_def and ttol_x9 and mine`, ['mine'])).toBe(
      'a ttr_*** and krq_*** and ttol_*** and ***',
    );
  });
});

describe('world state from the event streams', () => {
  it('follows combat, playlists, an actor’s hit points and the last roll from events', async () => {
    const goblin = await uuidOf(harness, 'Goblin');
    const client = clientWith(harness.key);
    const watcher = new WorldWatcher(client);
    watcher.track(goblin);
    watcher.start();
    try {
      const first = await until(
        watcher,
        (s) => s.worldConnected && s.playlists.length > 0 && s.hitPoints[goblin] !== undefined,
      );
      expect(first.relayUp).toBe(true);
      expect(first.worldTitle).toEqual(expect.any(String));
      expect(first.hitPoints[goblin].max).toBeGreaterThan(0);

      const tokens = (await harness.post('/select', { name: 'goblin', overwrite: true })).body.selected;
      const started = await harness.post('/start-encounter', { tokens, name: 'Deck test', rollAll: true });
      expect(started.status).toBe(200);
      const inCombat = await until(
        watcher,
        (s) => s.combat?.encounterId === started.body.encounterId && s.combat?.combatants.length === 2,
      );
      expect(inCombat.combat?.current).toBe(inCombat.combat?.combatants[inCombat.combat.turn].name);
      const before = inCombat.combat!;
      const stepped = await stepCombat(client, 'next-turn');
      expect(stepped.ok).toBe(true);
      const after = await until(watcher, (s) => s.combat?.turn !== before.turn || s.combat?.round !== before.round);
      expect(after.combat?.current).toBe(before.next);

      const tavern = watcher.snapshot.playlists.find((playlist) => playlist.name === 'Tavern Songs')!;
      expect((await togglePlaylist(client, tavern, tavern.id)).ok).toBe(true);
      await until(watcher, (s) => s.playlists.find((p) => p.id === tavern.id)?.playing !== tavern.playing);

      const changedAt = Date.now();
      const updated = await harness.api(harness.key, 'PUT', '/update', {
        body: { uuid: goblin, data: { 'system.attributes.hp.value': 1 } },
      });
      expect(updated.status).toBe(200);
      await until(watcher, (s) => s.hitPoints[goblin]?.value === 1, 500 + (Date.now() - changedAt));

      const rolled = await roll(client, '3d6', 'Deck roll');
      expect(rolled.ok).toBe(true);
      const total = rolled.ok ? rolled.body.data?.roll?.total : undefined;
      const withRoll = await until(watcher, (s) => s.lastRoll?.formula === '3d6');
      expect(withRoll.lastRoll?.total).toBe(total);

      await harness.post('/end-encounter', { encounterId: started.body.encounterId });
      await until(watcher, (s) => s.combat === undefined);
    } finally {
      watcher.stop();
    }
  });

  it('shows the relay down while it is stopped, and recovers by itself when it is back', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'deck-client-'));
    let relay = await startTestRelay({ port, dataDir });
    const world = createSandboxWorld({ seed: 7 });
    const clientId = 'fvtt_deckrestart0001';
    const { token } = relay.relay.services.connectionTokens.issue(clientId, 'Sandbox world', 'demo');
    const link = await connectSandbox(world, {
      relayUrl: relay.wsUrl,
      clientId,
      token,
      reconnect: true,
      reconnectBaseDelayMs: 100,
      reconnectMaxAttempts: 100,
    });
    const watcher = new WorldWatcher(clientWith(await relay.createKey(), relay.baseUrl), { presenceIntervalMs: 300 });
    watcher.start();
    try {
      await until(watcher, (s) => s.worldConnected && s.playlists.length > 0);
      await relay.relay.stop();
      const down = await until(watcher, (s) => !s.relayUp);
      expect(down.failure?.short).toBe('Relay off');
      expect(down.worldConnected).toBe(false);
      relay = await startTestRelay({ port, dataDir });
      await until(watcher, (s) => s.relayUp && s.worldConnected, 8000);
      const playlistsBefore = watcher.snapshot.playlists.length;
      expect(playlistsBefore).toBeGreaterThan(0);
    } finally {
      watcher.stop();
      await link.close();
      await relay.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('key request', () => {
  it('asks for exactly the deck’s scopes, shows a code, and collects the key once the GM approves', async () => {
    const codes: string[] = [];
    const outcome = requestKey({
      relayUrl: harness.baseUrl,
      appName: 'Stream Deck test',
      scopes: DECK_SCOPES,
      logger,
      onPending: (pending) => codes.push(pending.code),
    });
    await expect.poll(() => codes.length).toBe(1);
    const waiting = await harness.admin('GET', '/admin/key-requests');
    const request = waiting.body.keyRequests.find((entry: { code: string }) => entry.code === codes[0]);
    expect([...request.scopes].sort()).toEqual([...DECK_SCOPES].sort());
    expect((await harness.admin('POST', `/admin/key-requests/${codes[0]}/approve`, {})).status).toBe(200);
    const approved = await outcome;
    expect(approved.status).toBe('approved');
    if (approved.status !== 'approved') return;
    expect(approved.apiKey).toMatch(/^ttr_/);
    expect((await roll(clientWith(approved.apiKey), '1d6')).ok).toBe(true);
    for (const line of lines) expect(line).not.toContain(approved.apiKey);
  });

  it('a denied request says so, and an aborted wait ends at once', async () => {
    const codes: string[] = [];
    const denied = requestKey({
      relayUrl: harness.baseUrl,
      appName: 'Denied deck',
      scopes: ['roll:execute'],
      onPending: (pending) => codes.push(pending.code),
    });
    await expect.poll(() => codes.length).toBe(1);
    await harness.admin('POST', `/admin/key-requests/${codes[0]}/deny`, {});
    expect(await denied).toEqual({ status: 'denied' });

    const abort = new AbortController();
    const cancelled = requestKey({
      relayUrl: harness.baseUrl,
      appName: 'Cancelled deck',
      scopes: ['roll:execute'],
      signal: abort.signal,
      onPending: () => abort.abort(),
    });
    expect(await cancelled).toEqual({ status: 'cancelled' });
    const off = await requestKey({
      relayUrl: `http://127.0.0.1:${await freePort()}`,
      appName: 'x',
      scopes: ['roll:execute'],
    });
    expect(off).toMatchObject({ status: 'failed', failure: { short: 'Relay off' } });
  });
});
