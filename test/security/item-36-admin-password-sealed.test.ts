// Item 36 (a): a GM session's user password crosses the network sealed under the handshake's public key, but Foundry's
// administrator password, which opens the whole Foundry server, travelled beside it in clear JSON
// (`foundryAdminPassword`), readable by anyone on the LAN path. It is now taken sealed only (`encryptedAdminPassword`).
import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, LaunchBrowser } from '../../relay/capture/browser.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { GM_PASSWORD, SEED } from '../capture/harness.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const CLIENT_ID = 'fvtt_sealedadmin0036';
const ADMIN_PASSWORD = 'the-whole-foundry-server';
/** Every line the relays log. */
const logged: string[] = [];
const note = (...parts: unknown[]) => void logged.push(parts.map(String).join(' '));

interface Handshake {
  token: string;
  publicKey: string;
  nonce: string;
}

function seal(handshake: Handshake, payload: object, nonce = handshake.nonce): string {
  return publicEncrypt(
    { key: handshake.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify({ ...payload, nonce })),
  ).toString('base64');
}

/** A browser that only counts: no page may be opened for a refused start. */
function countingLauncher(): { launch: LaunchBrowser; pages: number } {
  const counts = { pages: 0 };
  const browser: Browser = {
    pid: undefined,
    openPage: async () => {
      counts.pages += 1;
      throw new Error('no page may be opened in this test');
    },
    onCrash: () => {},
    close: async () => {},
  };
  return Object.assign(counts, { launch: async () => browser });
}

/** A relay that knows the world and its Foundry address (`foundryAt` may start a Foundry that needs the relay's URL). */
async function sessionRelay(foundryAt: (relay: TestRelay) => Promise<string>, launchBrowser?: LaunchBrowser) {
  const relay = await startTestRelay({
    log: { info: note, warn: note, error: note },
    ...(launchBrowser ? { capture: { launchBrowser } } : {}),
  });
  const foundryUrl = await foundryAt(relay);
  relay.relay.services.knownWorlds.remember({ clientId: CLIENT_ID, worldId: 'sandbox-world', worldTitle: 'Keep' });
  await relay.admin('PATCH', `/admin/worlds/${CLIENT_ID}`, { foundryUrl });
  const key = await relay.createKey({ scopes: ['session:manage', 'clients:read'], name: 'sessions' });
  const handshake = async (): Promise<Handshake> => {
    const answer = await relay.api(key, 'POST', '/session-handshake', {
      headers: { 'x-foundry-url': foundryUrl, 'x-username': 'Gamemaster' },
    });
    expect(answer.status).toBe(200);
    return answer.body as Handshake;
  };
  const start = (body: object) => relay.api(key, 'POST', '/start-session', { body });
  return { relay, key, handshake, start };
}

describe('item 36: the administrator password crosses the network sealed, never in clear', () => {
  describe('refusals, before any browser page opens', () => {
    const browser = countingLauncher();
    let session: Awaited<ReturnType<typeof sessionRelay>>;
    beforeAll(async () => {
      session = await sessionRelay(async () => 'http://127.0.0.1:30000', browser.launch);
    });
    afterAll(() => session.relay.close());

    it('a clear foundryAdminPassword is refused with 400 that says how to seal it', async () => {
      const handshake = await session.handshake();
      const answer = await session.start({
        handshakeToken: handshake.token,
        encryptedPassword: seal(handshake, { password: GM_PASSWORD }),
        foundryAdminPassword: ADMIN_PASSWORD,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(
        /^'foundryAdminPassword' is not taken in clear: seal it as encryptedAdminPassword/,
      );
      expect(browser.pages).toBe(0);
    });

    it('one sealed for another handshake, or with another nonce, is refused', async () => {
      const first = await session.handshake();
      const second = await session.handshake();
      const underAnotherKey = await session.start({
        handshakeToken: second.token,
        encryptedPassword: seal(second, { password: GM_PASSWORD }),
        encryptedAdminPassword: seal(first, { adminPassword: ADMIN_PASSWORD }),
      });
      expect(underAnotherKey.status).toBe(400);
      expect(underAnotherKey.body.error).toMatch(/^'encryptedAdminPassword' could not be decrypted/);

      const third = await session.handshake();
      const withAnotherNonce = await session.start({
        handshakeToken: third.token,
        encryptedPassword: seal(third, { password: GM_PASSWORD }),
        encryptedAdminPassword: seal(third, { adminPassword: ADMIN_PASSWORD }, first.nonce),
      });
      expect(withAnotherNonce.status).toBe(401);
      expect(browser.pages).toBe(0);
    });
  });

  describe('sealed, on a Foundry whose world is not launched (real Chromium)', () => {
    let web: SandboxWebClient;
    let session: Awaited<ReturnType<typeof sessionRelay>>;
    beforeAll(async () => {
      session = await sessionRelay(async (relay) => {
        web = await startSandboxWebClient({
          worldOptions: { seed: SEED, foundryVersion: '14.366' },
          passwords: { Gamemaster: GM_PASSWORD },
          clientId: CLIENT_ID,
          adminPassword: ADMIN_PASSWORD,
          relayUrl: relay.baseUrl,
        });
        return web.url;
      });
    }, 60_000);
    afterAll(async () => {
      await session?.relay.close();
      await web?.close();
    });

    it('gets the session past the administrator page; the password is in no answer, activity entry or log line', async () => {
      const handshake = await session.handshake();
      const answer = await session.start({
        handshakeToken: handshake.token,
        encryptedPassword: seal(handshake, { password: GM_PASSWORD }),
        encryptedAdminPassword: seal(handshake, { adminPassword: ADMIN_PASSWORD }),
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toMatchObject({ success: true, clientId: CLIENT_ID });
      const activity = await session.relay.admin('GET', '/admin/activity');
      const sessions = await session.relay.api(session.key, 'GET', '/session');
      expect(activity.text + sessions.text + answer.text).not.toContain(ADMIN_PASSWORD);
      expect(logged.join('\n')).not.toContain(ADMIN_PASSWORD);
    });
  });
});
