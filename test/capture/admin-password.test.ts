// Issue 17, item 7: Foundry shows its administrator page instead of /join while no world is launched (as Foundry 14
// does; the world here is a 14.366 one). A GM session given the administrator password (sealed as encryptedAdminPassword)
// gets through it; without one, or with a wrong one, it fails at once.
import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { GM_PASSWORD, SEED } from './harness.ts';

const CLIENT_ID = 'fvtt_websession0014';
const ADMIN_PASSWORD = 'admin-secret';
let relay: TestRelay;
let web: SandboxWebClient;
let key: string;
beforeAll(async () => {
  relay = await startTestRelay();
  web = await startSandboxWebClient({
    worldOptions: { seed: SEED, foundryVersion: '14.366' },
    passwords: { Gamemaster: GM_PASSWORD },
    clientId: CLIENT_ID,
    relayUrl: relay.baseUrl,
    adminPassword: ADMIN_PASSWORD,
  });
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

/**
 * POST /start-session after a fresh handshake, with the GM's password sealed as the reference relay expects, and the
 * administrator password, when given, sealed the same way.
 */
async function startSession(adminPassword?: string) {
  const handshake = await relay.api(key, 'POST', '/session-handshake', {
    headers: { 'x-foundry-url': web.url, 'x-username': 'Gamemaster' },
  });
  const { token, publicKey, nonce } = handshake.body as { token: string; publicKey: string; nonce: string };
  const seal = (payload: object) =>
    publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(JSON.stringify({ ...payload, nonce })),
    ).toString('base64');
  const sealedAdmin = adminPassword === undefined ? {} : { encryptedAdminPassword: seal({ adminPassword }) };
  const started = Date.now();
  const answer = await relay.api(key, 'POST', '/start-session', {
    body: { handshakeToken: token, encryptedPassword: seal({ password: GM_PASSWORD }), ...sealedAdmin },
  });
  return { ...answer, seconds: (Date.now() - started) / 1000 };
}

describe('the administrator page of a world that is not launched', () => {
  it('is what the web client shows at /join until the administrator password is given', async () => {
    const join = await fetch(`${web.url}/join`, { redirect: 'manual' });
    expect(join.status).toBe(302);
    expect(join.headers.get('location')).toBe('/auth');
    const page = await (await fetch(`${web.url}/auth`)).text();
    expect(page).toContain('name="adminPassword"');
  });

  it('stops a GM session without the administrator password at once, saying what to give', async () => {
    const answer = await startSession();
    expect(answer.status).toBe(409);
    expect(answer.body.error).toContain('shows its administrator password page');
    expect(answer.body.error).toContain('encryptedAdminPassword');
    expect(answer.seconds).toBeLessThan(15);
  });

  it('stops a GM session with a wrong administrator password at once', async () => {
    const answer = await startSession('not-it');
    expect(answer.status).toBe(401);
    expect(answer.body.error).toContain('refused the administrator password');
    expect(answer.seconds).toBeLessThan(15);
  });

  it('lets a GM session with the right administrator password through, and the world comes online', async () => {
    const answer = await startSession(ADMIN_PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, clientId: CLIENT_ID });
    const clients = await relay.api(key, 'GET', '/clients');
    expect(clients.body.clients).toEqual([
      expect.objectContaining({ clientId: CLIENT_ID, isOnline: true, foundryVersion: '14.366' }),
    ]);
    const sessions = await relay.api(key, 'GET', '/session');
    expect(sessions.body.activeSessions).toEqual([expect.objectContaining({ foundryVersion: '14.366' })]);
  });
});
