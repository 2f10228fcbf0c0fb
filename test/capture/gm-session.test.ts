import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { GM_PASSWORD, isAlive, processTree, SEED } from './harness.ts';

const CLIENT_ID = 'fvtt_websession0001';
let relay: TestRelay;
let web: SandboxWebClient;
let key: string;
beforeAll(async () => {
  relay = await startTestRelay();
  web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions: { seed: SEED },
    passwords: { Gamemaster: GM_PASSWORD },
    clientId: CLIENT_ID,
    relayUrl: relay.baseUrl,
  });
  // The world was paired once, and the GM gave it its Foundry address: the only page a session for it may open.
  relay.relay.services.knownWorlds.remember({
    clientId: CLIENT_ID,
    worldId: 'sandbox-world',
    worldTitle: 'The Sandbox Keep',
  });
  await relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl: web.url });
  key = await relay.createKey();
}, 60_000);
afterAll(async () => {
  await relay?.close();
  await web?.close();
});

const api = (
  method: string,
  path: string,
  options: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {},
) => relay.api(key, method, path, options);

async function handshake(username: string) {
  const answer = await api('POST', '/session-handshake', {
    headers: { 'x-foundry-url': web.url, 'x-username': username, 'x-world-name': 'The Sandbox Keep' },
  });
  expect(answer.status).toBe(200);
  return answer.body as {
    token: string;
    publicKey: string;
    nonce: string;
    instanceId: string;
    foundryUrl: string;
    username: string;
    expires: number;
  };
}

function encrypt(publicKey: string, payload: object): string {
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify(payload)),
  ).toString('base64');
}

async function isOnline(): Promise<boolean> {
  const clients = await api('GET', '/clients');
  return clients.body.clients.some(
    (client: { clientId: string; isOnline: boolean }) => client.clientId === CLIENT_ID && client.isOnline,
  );
}

describe('GM sessions', () => {
  it('POST /session-handshake answers an RSA public key, a nonce and a token valid 5 minutes', async () => {
    const answer = await handshake('Gamemaster');
    expect(answer.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(answer).toMatchObject({ foundryUrl: web.url, username: 'Gamemaster' });
    expect(answer.expires - Date.now()).toBeGreaterThan(4.9 * 60_000);
  });

  it('a session started for a full GM brings the in-page world online, serves API calls, and ends on DELETE /end-session', async () => {
    expect(await isOnline()).toBe(false);
    const { token, publicKey, nonce } = await handshake('Gamemaster');
    const started = await api('POST', '/start-session', {
      body: { handshakeToken: token, encryptedPassword: encrypt(publicKey, { password: GM_PASSWORD, nonce }) },
    });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ success: true, clientId: CLIENT_ID });
    expect(await isOnline()).toBe(true);

    const search = await api('GET', '/search', { query: { query: 'Thorin', clientId: CLIENT_ID } });
    expect(search.status).toBe(200);
    expect(search.body.results.map((result: { name: string }) => result.name)).toContain('Thorin Ironfoot');
    const sessions = await api('GET', '/session');
    expect(sessions.body.activeSessions).toHaveLength(1);
    expect(sessions.body.activeSessions[0]).toMatchObject({
      sessionId: started.body.sessionId,
      clientId: CLIENT_ID,
      username: 'Gamemaster',
      worldTitle: 'The Sandbox Keep',
    });

    const ended = await api('DELETE', '/end-session', { query: { sessionId: started.body.sessionId } });
    expect(ended.body).toEqual({ status: 'ok', message: 'Session ended' });
    const deadline = Date.now() + 5000;
    while ((await isOnline()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await isOnline()).toBe(false);
    expect((await api('GET', '/session')).body.activeSessions).toEqual([]);
  }, 40_000);

  it('refuses a password sealed with another nonce (401) and a user who is not a full GM (403)', async () => {
    const first = await handshake('Gamemaster');
    const wrongNonce = await api('POST', '/start-session', {
      body: {
        handshakeToken: first.token,
        encryptedPassword: encrypt(first.publicKey, { password: GM_PASSWORD, nonce: 'other' }),
      },
    });
    expect(wrongNonce.status).toBe(401);
    const second = await handshake('Alice');
    const player = await api('POST', '/start-session', {
      body: {
        handshakeToken: second.token,
        encryptedPassword: encrypt(second.publicKey, { password: '', nonce: second.nonce }),
      },
    });
    expect(player.status).toBe(403);
    expect(player.body.error).toMatch(/not a full Gamemaster/);
  }, 30_000);

  it('a handshake token is used once', async () => {
    const answer = await handshake('Gamemaster');
    const body = {
      handshakeToken: answer.token,
      encryptedPassword: encrypt(answer.publicKey, { password: 'wrong', nonce: answer.nonce }),
    };
    expect((await api('POST', '/start-session', { body })).status).toBe(502);
    expect((await api('POST', '/start-session', { body })).status).toBe(401);
  }, 30_000);

  it('leaves no browser process once the relay stops', async () => {
    const pid = await relay.relay.services.capture!.host.pid();
    const tree = pid ? processTree(pid) : [];
    await relay.relay.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tree.filter(isAlive)).toEqual([]);
  });
});
