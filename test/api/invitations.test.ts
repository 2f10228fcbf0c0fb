import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAYER_SCOPES } from '../../relay/auth/scopes.ts';
import type { PlayerListEntry } from '../../contracts/world-protocol.ts';
import { call } from '../harness/http.ts';
import { callFrom } from '../harness/from-address.ts';
import { requestsSeenDuring, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let players: PlayerListEntry[];

async function worldPlayers(): Promise<PlayerListEntry[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const world = (await harness.admin('GET', '/admin/status')).body.worlds[0];
    if (world?.players.length) return world.players;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the sandbox world never listed its users');
}

function playerNamed(name: string): PlayerListEntry {
  const player = players.find((candidate) => candidate.name === name);
  if (!player) throw new Error(`no user ${name}`);
  return player;
}

async function invite(name: string, extra: Record<string, unknown> = {}) {
  return harness.admin('POST', '/admin/invitations', {
    clientId: harness.clientId,
    userId: playerNamed(name).id,
    ...extra,
  });
}

const secretOf = (url: string) => url.slice(url.indexOf('#') + 1);
/** Each test plays a device of its own: the exchange is rate-limited per address. */
let device = 40;
beforeEach(() => {
  device += 1;
});
const exchange = (secret: unknown) =>
  callFrom(`127.0.0.${device}`, harness.baseUrl, 'POST', '/auth/invitation', { secret });

beforeAll(async () => {
  harness = await startRelayWithWorld();
  players = await worldPlayers();
});
afterAll(() => harness.close());

describe('player invitations: the admin API', () => {
  it('makes a one-time link with the secret in its fragment, stored only as a hash', async () => {
    const created = await invite('Alice');
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({
      name: 'Invitation for Alice',
      clientId: harness.clientId,
      userId: playerNamed('Alice').id,
      userName: 'Alice',
      status: 'open',
      lanAccess: false,
      lanUrls: [],
    });
    const url = new URL(created.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.baseUrl}/invite`);
    expect(url.search).toBe('');
    expect(secretOf(created.body.url)).toMatch(/^ttr_inv_[\w-]{43}$/);
    expect(readFileSync(join(harness.dataDir, 'invitations.json'), 'utf8')).not.toContain(secretOf(created.body.url));
    const listed = await harness.admin('GET', '/admin/invitations');
    const entry = listed.body.invitations.find((invitation: { id: string }) => invitation.id === created.body.id);
    expect(entry).toMatchObject({ status: 'open', userName: 'Alice' });
    expect(JSON.stringify(listed.body)).not.toContain(secretOf(created.body.url));
  });

  it('invites players only, of a connected world, and names the user it does not know', async () => {
    const gm = await invite('Gamemaster');
    expect(gm.status).toBe(400);
    expect(gm.body.error).toMatch(/^Gamemaster is a GM in .*: invitations are for players/);
    expect((await invite('Assistant GM')).status).toBe(400);
    const unknown = await harness.admin('POST', '/admin/invitations', { clientId: harness.clientId, userId: 'nobody' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/has no user with the id 'nobody'/);
    const offline = await harness.admin('POST', '/admin/invitations', { clientId: 'fvtt_elsewhere', userId: 'x' });
    expect(offline.status).toBe(409);
    expect(offline.body.error).toMatch(/'fvtt_elsewhere' is not connected/);
  });

  it('is for the GM only', async () => {
    const answer = await call(harness.baseUrl, 'POST', '/admin/invitations', {
      body: { clientId: harness.clientId, userId: playerNamed('Bob').id },
    });
    expect(answer.status).toBe(401);
    expect((await call(harness.baseUrl, 'GET', '/admin/invitations')).status).toBe(401);
  });
});

describe('player invitations: the exchange', () => {
  it("gives the player's device a key bound to that player and world, with player scopes, once", async () => {
    const created = await invite('Bob', { name: "Bob's phone" });
    const secret = secretOf(created.body.url);
    const answer = await exchange(secret);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({
      relayUrl: `http://127.0.0.1:${harness.relay.port}`,
      name: "Bob's phone",
      userName: 'Bob',
      clientId: harness.clientId,
      scopes: [...PLAYER_SCOPES],
    });
    expect(answer.body.key).toMatch(/^ttr_[\w-]{43}$/);
    const key = (await harness.admin('GET', '/admin/keys')).body.keys.find(
      (candidate: { name: string }) => candidate.name === "Bob's phone",
    );
    expect(key).toMatchObject({
      userId: playerNamed('Bob').id,
      worldIds: [harness.clientId],
      invitationId: created.body.id,
    });
    const listed = (await harness.admin('GET', '/admin/invitations')).body.invitations;
    expect(listed.find((invitation: { id: string }) => invitation.id === created.body.id)).toMatchObject({
      status: 'used',
      keyId: key.id,
    });

    const again = await exchange(secret);
    expect(again.status).toBe(410);
    expect(again.body.error).toBe('This invitation was already used: ask the GM for a new invitation');
  });

  it('POST /auth/invitation/status says whose an open invitation is without using it, and why a spent one gives nothing', async () => {
    const status = (secret: string) =>
      callFrom(`127.0.0.${device}`, harness.baseUrl, 'POST', '/auth/invitation/status', { secret });
    const created = await invite('Carol');
    const secret = secretOf(created.body.url);
    const open = await status(secret);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('no-store');
    expect(open.body).toEqual({
      status: 'open',
      userName: 'Carol',
      worldTitle: created.body.worldTitle,
      clientId: harness.clientId,
      expiresAt: created.body.expiresAt,
    });
    expect((await status(secret)).status).toBe(200);
    expect((await exchange(secret)).status).toBe(201);
    const used = await status(secret);
    expect(used.status).toBe(410);
    expect(used.body).toEqual({ error: 'This invitation was already used: ask the GM for a new invitation' });
    const unknown = await status(`ttr_inv_${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^This invitation link is not valid/);
  });

  it('the key works at once, and every call acts as the invited player', async () => {
    const created = await invite('Alice');
    const { key } = (await exchange(secretOf(created.body.url))).body;
    const alice = playerNamed('Alice');
    const seen = await requestsSeenDuring(harness, async () => {
      const roll = await harness.api(key, 'POST', '/roll', { body: { formula: '1d20', userId: 'Gamemaster' } });
      expect(roll.status).toBe(200);
      expect(roll.body.data.roll.total).toBeGreaterThanOrEqual(1);
      const chat = await harness.api(key, 'POST', '/chat', { body: { content: 'Alice waves' } });
      expect(chat.status).toBe(200);
      expect(chat.body.data.author).toMatchObject({ name: 'Alice' });
    });
    expect(seen.map((request) => [request.type, request.userId])).toEqual([
      ['roll', alice.id],
      ['chat-send', alice.id],
    ]);
    const playlist = await harness.api(key, 'POST', '/playlist/play', { body: { playlistName: 'Tavern Songs' } });
    expect(playlist.status).toBe(403);
    const script = await harness.api(key, 'POST', '/execute-js', { body: { script: 'return 1' } });
    expect(script.status).toBe(403);
  });

  it('a revoked invitation gives nothing; the key of a used one stays until revoked on the keys page', async () => {
    const created = await invite('Carol');
    expect((await harness.admin('DELETE', `/admin/invitations/${created.body.id}`, {})).body).toEqual({
      revoked: true,
    });
    expect((await harness.admin('DELETE', `/admin/invitations/${created.body.id}`, {})).status).toBe(404);
    const refused = await exchange(secretOf(created.body.url));
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatch(/^This invitation link is not valid/);

    const used = await invite('Dana');
    const { key } = (await exchange(secretOf(used.body.url))).body;
    await harness.admin('DELETE', `/admin/invitations/${used.body.id}`, {});
    expect((await harness.api(key, 'GET', '/world-info')).status).toBe(200);
  });

  it('survives a restart: an open invitation still works once, a used one still refuses', async () => {
    const open = await invite('Alice');
    const used = await invite('Bob');
    await exchange(secretOf(used.body.url));
    await harness.restart();
    expect((await exchange(secretOf(used.body.url))).status).toBe(410);
    expect((await exchange(secretOf(open.body.url))).status).toBe(201);
  });

  it('refuses a missing or oversized secret with 400', async () => {
    expect((await exchange(undefined)).body).toEqual({ error: "'secret' is required" });
    expect((await exchange('x'.repeat(500))).status).toBe(400);
  });
});
