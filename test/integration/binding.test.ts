import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld } from '../../sandbox/index.ts';
import { requestsSeenDuring, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('keys bound to a tabletop user', () => {
  it('act as that user even when the caller names no user', async () => {
    const key = await harness.keyWith(['entity:read'], { userId: 'Alice' });
    const players = await harness.api(key, 'GET', '/players');
    expect(players.status).toBe(200);
    expect(players.body.users).toEqual([]);
  });

  it('cannot escalate by naming another user or the GM: it still acts as its user', async () => {
    const key = await harness.keyWith(['playlist:control', 'effects:write'], { userId: 'Alice' });
    for (const userId of ['Gamemaster', 'Bob']) {
      const answer = await harness.api(key, 'POST', '/playlist/play', {
        body: { playlistName: 'Tavern Songs', userId },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe("User 'Alice' must be a GM to control playlists");
    }
    const query = await harness.api(key, 'POST', '/playlist/play', {
      body: { playlistName: 'Tavern Songs' },
      query: { userId: 'Gamemaster' },
    });
    expect(query.status).toBe(400);
    expect(query.body.error).toBe("User 'Alice' must be a GM to control playlists");
    const seen = await requestsSeenDuring(harness, () =>
      harness.api(key, 'POST', '/playlist/play', {
        body: { playlistName: 'Tavern Songs', userId: 'Bob' },
        query: { userId: 'Gamemaster' },
      }),
    );
    expect(seen.map((request) => request.userId)).toEqual(['Alice']);
    const asThemselves = await harness.api(key, 'POST', '/playlist/play', {
      body: { playlistName: 'Tavern Songs', userId: 'alice' },
    });
    expect(asThemselves.status).toBe(400);
    expect(asThemselves.body.error).toBe("User 'Alice' must be a GM to control playlists");
  });

  it("are held to the user's permissions in the world", async () => {
    const key = await harness.keyWith(['effects:write'], { userId: 'Alice' });
    const goblin = await uuidOf(harness, 'Goblin');
    const answer = await harness.api(key, 'POST', '/effects', { body: { uuid: goblin, statusId: 'prone' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/permission/);
  });
});

describe('several worlds', () => {
  it('asks for clientId when several are connected, listing them, and routes by clientId', async () => {
    const second = createSandboxWorld({ seed: 9, worldId: 'second-world', worldTitle: 'Second' });
    const { token } = harness.relay.services.connectionTokens.issue('fvtt_second', 'second', 'demo');
    const link = await connectSandbox(second, { relayUrl: harness.wsUrl, clientId: 'fvtt_second', token });
    try {
      const ambiguous = await harness.get('/world-info');
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body).toEqual({
        error: 'Multiple clients connected. Please specify clientId.',
        connectedClients: expect.arrayContaining([harness.clientId, 'fvtt_second']),
      });
      const chosen = await harness.get('/world-info', { clientId: 'fvtt_second' });
      expect(chosen.body.data.world).toEqual({ id: 'second-world', title: 'Second' });
      const bound = await harness.keyWith(['world:info'], { worldIds: ['fvtt_second'] });
      const onlyTheirs = await harness.api(bound, 'GET', '/world-info');
      expect(onlyTheirs.status).toBe(200);
      expect(onlyTheirs.body.data.world.id).toBe('second-world');
    } finally {
      await link.close();
    }
  });
});
