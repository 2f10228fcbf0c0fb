// Player invitations: a link whose secret (in the fragment) is traded once, by anyone who can reach the relay, for a
// key bound to one player in one world. Guessing gets nothing and is slowed; a used or revoked invitation gives nothing;
// the secret never reaches a log, the activity feed, a server's URL or a Referer.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import type { RelayLog } from '../../relay/log.ts';
import { callFrom } from '../harness/from-address.ts';
import { call } from '../harness/http.ts';
import { readAdminFeed } from '../harness/admin-feed.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { answerBeforeTheBody } from './unfinished-body.ts';

const logLines: string[] = [];
const capturingLog: RelayLog = {
  info: (message, detail) => logLines.push(`${message} ${String(detail ?? '')}`),
  warn: (message, detail) => logLines.push(`${message} ${String(detail ?? '')}`),
  error: (message, detail) => logLines.push(`${message} ${String(detail ?? '')}`),
};

let harness: WorldHarness;

async function invitationLink(name = 'Alice'): Promise<{ id: string; url: string; secret: string }> {
  const world = (await harness.admin('GET', '/admin/status')).body.worlds[0];
  const player = world.players.find((candidate: { name: string }) => candidate.name === name);
  const created = await harness.admin('POST', '/admin/invitations', { clientId: harness.clientId, userId: player.id });
  expect(created.status).toBe(201);
  return { id: created.body.id, url: created.body.url, secret: new URL(created.body.url).hash.slice(1) };
}

const exchangeFrom = (source: string, secret: string) =>
  callFrom(source, harness.baseUrl, 'POST', '/auth/invitation', { secret });

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { log: capturingLog } });
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await harness.admin('GET', '/admin/status')).body.worlds[0]?.players.length) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(() => harness.close());

describe('item 18: player invitations', () => {
  it('guessing gets nothing, and an address that keeps guessing must wait, even with a right secret', async () => {
    const { secret } = await invitationLink();
    for (let guess = 0; guess < 5; guess += 1) {
      const answer = await exchangeFrom('127.0.0.81', `ttr_inv_${'A'.repeat(42)}${guess}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        error:
          'This invitation link is not valid: the GM revoked it, or it was copied incompletely. Ask the GM for a new invitation',
      });
    }
    const limited = await exchangeFrom('127.0.0.81', secret);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.error).toMatch(/^Too many invitation links tried from this address; try again in \d+ s$/);
    // The guesser learned nothing and used nothing: the player, elsewhere, still gets the key.
    expect((await exchangeFrom('127.0.0.82', secret)).status).toBe(201);
  });

  it('a used invitation cannot be used again, from any address', async () => {
    const { secret } = await invitationLink();
    expect((await exchangeFrom('127.0.0.83', secret)).status).toBe(201);
    for (const source of ['127.0.0.83', '127.0.0.84']) {
      const again = await exchangeFrom(source, secret);
      expect(again.status).toBe(410);
      expect(again.body.key).toBeUndefined();
    }
    const keys = (await harness.admin('GET', '/admin/keys')).body.keys;
    expect(keys.filter((key: { name: string }) => key.name === 'Invitation for Alice')).toHaveLength(2);
  });

  it('a revoked invitation cannot be used', async () => {
    const { id, secret } = await invitationLink('Bob');
    await harness.admin('DELETE', `/admin/invitations/${id}`, {});
    const refused = await exchangeFrom('127.0.0.85', secret);
    expect(refused.status).toBe(404);
    expect(refused.body.key).toBeUndefined();
  });

  it('the key may read, roll and chat as its player in its world, and nothing more', async () => {
    const { secret } = await invitationLink('Bob');
    const { key, scopes } = (await exchangeFrom('127.0.0.86', secret)).body;
    for (const scope of ['execute-js', 'world:link', 'session:manage', 'entity:write', 'macro:execute', 'file:write'])
      expect(scopes).not.toContain(scope);
    expect((await harness.api(key, 'POST', '/execute-js', { body: { script: 'return 1' } })).status).toBe(403);
    expect((await harness.api(key, 'POST', '/session-handshake', { body: {} })).status).toBe(403);
    expect((await harness.api(key, 'GET', '/world-info', { query: { clientId: 'fvtt_elsewhere' } })).status).not.toBe(
      200,
    );
  });

  it('another web page cannot spend an invitation, and an address that keeps trying waits before its body is read', async () => {
    const { id, secret } = await invitationLink();
    for (const origin of ['http://evil.example', 'null']) {
      const refused = await call(harness.baseUrl, 'POST', '/auth/invitation', {
        body: `secret=${encodeURIComponent(secret)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.key).toBeUndefined();
    }
    const invitations = (await harness.admin('GET', '/admin/invitations')).body.invitations;
    expect(invitations.find((invitation: { id: string }) => invitation.id === id).status).toBe('open');
    // The relay's own invitation page still trades it.
    const own = await call(harness.baseUrl, 'POST', '/auth/invitation', {
      body: { secret },
      headers: { origin: harness.baseUrl },
    });
    expect(own.status).toBe(201);

    for (let guess = 0; guess < 5; guess += 1) await exchangeFrom('127.0.0.88', `ttr_inv_${'B'.repeat(42)}${guess}`);
    expect(await answerBeforeTheBody(harness.baseUrl, '/auth/invitation', { source: '127.0.0.88' })).toBe(429);
  });

  it("its event streams show its player nothing of the GM's view: every actor's, scene's, hook's and combat's stream is refused", async () => {
    // These streams carry what the world pushes as the GM sees it (every actor's changes, hidden tokens and
    // combatants, secret doors), which the relay cannot sort by a player's permissions.
    const { secret } = await invitationLink('Bob');
    const { key } = (await exchangeFrom('127.0.0.89', secret)).body;
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    expect((await harness.api(key, 'GET', '/get', { query: { uuid: thorin } })).status).toBe(400);
    const streamStatus = async (path: string, apiKey: string) => {
      const response = await fetch(new URL(path, harness.baseUrl), { headers: { 'x-api-key': apiKey } });
      const { status } = response;
      if (status !== 200) return { status, text: await response.text() };
      await response.body?.cancel();
      return { status, text: '' };
    };
    for (const path of ['/actor/subscribe', '/hooks/subscribe', '/scene/subscribe', '/encounters/subscribe']) {
      const refused = await streamStatus(path, key);
      expect(refused.status, path).toBe(403);
      expect(refused.text).toContain('acts as Bob');
    }
    const socket = await ApiSocket.open(harness.wsUrl, key);
    try {
      socket.send({ type: 'subscribe', channel: 'actor-events', requestId: 'actors' });
      expect(await socket.next((message) => message.requestId === 'actors')).toMatchObject({ status: 403 });
    } finally {
      socket.socket.close();
    }
    // What the relay filters for its user (whispers) stays open to the player; a key bound to a GM sees as the GM.
    expect((await streamStatus('/chat/subscribe', key)).status).toBe(200);
    const players = (await harness.admin('GET', '/admin/status')).body.worlds[0].players as {
      id: string;
      name: string;
    }[];
    const gm = players.find((player) => player.name === 'Gamemaster')!;
    const gmKey = await harness.createKey({ scopes: ['events:subscribe'], userId: gm.id });
    expect((await streamStatus('/actor/subscribe', gmKey)).status).toBe(200);
  });

  it('the secret never reaches the activity feed or a log line, whatever a caller does with it', async () => {
    const feed = await readAdminFeed(harness.baseUrl, harness.relay.adminToken);
    try {
      const { secret } = await invitationLink();
      await harness.api(secret, 'GET', '/world-info');
      await harness.api(harness.key, 'GET', `/no-such-route/${secret}`);
      await harness.api(harness.key, 'GET', '/search', { query: { query: secret } });
      await exchangeFrom('127.0.0.87', secret);
      await exchangeFrom('127.0.0.87', secret);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const activity = JSON.stringify((await harness.admin('GET', '/admin/activity')).body);
      expect(activity).toContain('no-such-route');
      expect(activity).not.toContain(secret);
      expect(activity).not.toContain(secret.slice(8));
      expect(JSON.stringify(feed.events)).not.toContain(secret.slice(8));
      expect(logLines.join('\n')).not.toContain(secret.slice(8));
    } finally {
      feed.close();
    }
  });
});

describe('item 18: the invitation page in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), buildRenderer()]);
  }, 20_000);
  afterAll(() => browser?.close());

  it('never sends the secret in a URL or a Referer, and cannot be framed, cached or refer anyone', async () => {
    const { url, secret } = await invitationLink('Bob');
    const page = await browser.newPage();
    // What goes on the wire, as Chromium's network layer reports it: the URL without its fragment (which a browser
    // keeps to itself), and the headers actually sent.
    const network = await page.createCDPSession();
    await network.send('Network.enable');
    const sent: Array<{ url: string; body: string | undefined }> = [];
    const sentHeaders: Array<Record<string, string>> = [];
    network.on('Network.requestWillBeSent', (event) =>
      sent.push({ url: event.request.url, body: event.request.postData }),
    );
    network.on('Network.requestWillBeSentExtraInfo', (event) =>
      sentHeaders.push(event.headers as Record<string, string>),
    );
    const answer = await page.goto(url);
    const headers = answer!.headers();
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.url()).toBe(`${harness.baseUrl}/invite`);
    await page.waitForSelector('main[data-state="ready"]');
    await Promise.all([page.waitForNavigation(), page.click('#get-key')]);
    // The key is kept for the player page, which opens next and asks the API with it in a header.
    expect(page.url()).toBe(`${harness.baseUrl}/play/`);
    await page.waitForSelector('#character-name');
    expect(sent.slice(0, 4).map((request) => new URL(request.url).pathname)).toEqual([
      '/invite',
      '/auth/invitation/status',
      '/auth/invitation',
      '/play/',
    ]);
    expect(sentHeaders.length).toBeGreaterThanOrEqual(3);
    for (const request of sent) expect(request.url).not.toContain(secret.slice(8));
    for (const headers of sentHeaders) {
      expect(JSON.stringify(headers)).not.toContain(secret.slice(8));
      expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('referer');
    }
    // The secret leaves the page in request bodies only: the look at whether it is still open, and the exchange.
    expect(sent[1]!.body).toBe(JSON.stringify({ secret }));
    expect(sent[2]!.body).toBe(JSON.stringify({ secret }));
    expect(await page.evaluate(() => location.href + history.length)).not.toContain(secret);
    await page.close();
  });
});
