import { constants, publicEncrypt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, LaunchBrowser } from '../../relay/capture/browser.ts';
import { sandboxArgs } from '../../relay/capture/puppeteer-browser.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { GM_PASSWORD, SEED } from '../capture/harness.ts';
import { connectRawWorld, RawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

function encrypt(publicKey: string, payload: object): string {
  return publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(JSON.stringify(payload)),
  ).toString('base64');
}

/** A browser that only counts what the relay asks of it: no page may be opened for a refused address. */
function countingLauncher(): { launch: LaunchBrowser; launches: number; pages: number } {
  const counts = { launches: 0, pages: 0 };
  const browser: Browser = {
    pid: undefined,
    openPage: async () => {
      counts.pages += 1;
      throw new Error('no page may be opened in this test');
    },
    onCrash: () => {},
    close: async () => {},
  };
  return Object.assign(counts, {
    launch: async () => {
      counts.launches += 1;
      return browser;
    },
  });
}

async function sessionKey(relay: TestRelay): Promise<string> {
  return relay.createKey({ scopes: ['session:manage', 'clients:read'], name: 'sessions' });
}

describe('item 03: a GM session opens only the Foundry address the GM configured, for the world configured there', () => {
  describe('before any browser', () => {
    let relay: TestRelay;
    let browser: ReturnType<typeof countingLauncher>;
    beforeAll(async () => {
      browser = countingLauncher();
      relay = await startTestRelay({ capture: { launchBrowser: browser.launch } });
      relay.relay.services.knownWorlds.remember({
        clientId: 'fvtt_0123456789abcdef',
        worldId: 'keep',
        worldTitle: 'The Keep',
      });
    });
    afterAll(() => relay.close());

    it('a session:manage key naming an address of its choosing gets 403, and no browser page is opened', async () => {
      const key = await sessionKey(relay);
      const handshake = await relay.api(key, 'POST', '/session-handshake', {
        headers: { 'x-foundry-url': 'http://attacker.example:30000', 'x-username': 'Gamemaster' },
      });
      expect(handshake.status).toBe(403);
      expect(handshake.body.error).toMatch(
        /only a Foundry address the GM configured.*PATCH \/admin\/worlds\/\{clientId\}.*capture Foundry URL/,
      );
      expect(browser.launches).toBe(0);
      expect(browser.pages).toBe(0);
      expect(relay.relay.services.connectionTokens.list()).toEqual([]);
    });

    it('the address the GM gave the world is accepted; once the GM changes it, starting is refused before a page opens', async () => {
      const key = await sessionKey(relay);
      expect(
        (await relay.admin('PATCH', '/admin/worlds/fvtt_0123456789abcdef', { foundryUrl: 'http://192.168.1.20:30000' }))
          .status,
      ).toBe(200);
      const handshake = await relay.api(key, 'POST', '/session-handshake', {
        headers: { 'x-foundry-url': 'http://192.168.1.20:30000/join', 'x-username': 'Gamemaster' },
      });
      expect(handshake.status).toBe(200);
      await relay.admin('PATCH', '/admin/worlds/fvtt_0123456789abcdef', { foundryUrl: 'http://192.168.1.21:30000' });
      const encryptedPassword = encrypt(handshake.body.publicKey, { password: 'x', nonce: handshake.body.nonce });
      const started = await relay.api(key, 'POST', '/start-session', {
        body: { handshakeToken: handshake.body.token, encryptedPassword },
      });
      expect(started.status).toBe(403);
      expect(browser.pages).toBe(0);
    });

    it("the capture settings' Foundry URL is accepted too", async () => {
      const key = await sessionKey(relay);
      await relay.admin('PUT', '/admin/capture', {
        foundryUrl: 'http://localhost:30000',
        username: 'Assistant GM',
        password: 'p',
      });
      const handshake = await relay.api(key, 'POST', '/session-handshake', {
        headers: { 'x-foundry-url': 'http://localhost:30000/', 'x-username': 'Gamemaster' },
      });
      expect(handshake.status).toBe(200);
      expect(browser.pages).toBe(0);
    });
  });

  describe('Chromium keeps its sandbox wherever the OS allows it', () => {
    it('passes --no-sandbox only for root on Linux or when the GM asks for it', () => {
      expect(sandboxArgs({ platform: 'linux', uid: 1000, noSandbox: false })).toEqual([]);
      expect(sandboxArgs({ platform: 'darwin', uid: 501, noSandbox: false })).toEqual([]);
      expect(sandboxArgs({ platform: 'win32', uid: undefined, noSandbox: false })).toEqual([]);
      expect(sandboxArgs({ platform: 'darwin', uid: 0, noSandbox: false })).toEqual([]);
      expect(sandboxArgs({ platform: 'linux', uid: 0, noSandbox: false })).toEqual(['--no-sandbox']);
      expect(sandboxArgs({ platform: 'linux', uid: 1000, noSandbox: true })).toEqual(['--no-sandbox']);
    });
  });

  describe('in real Chromium against the sandbox web client', () => {
    const KEEP = 'fvtt_sessionkeep0001';
    const VICTIM = 'fvtt_sessionvictim01';
    const DECOY = 'fvtt_sessiondecoy001';
    let relay: TestRelay;
    let keep: SandboxWebClient;
    let impostor: SandboxWebClient;
    let key: string;

    beforeAll(async () => {
      relay = await startTestRelay();
      const webOptions = {
        flavour: 'v13' as const,
        worldOptions: { seed: SEED },
        passwords: { Gamemaster: GM_PASSWORD },
        relayUrl: relay.baseUrl,
      };
      // The impostor page says it is the victim world, whose client id any player of that world can read.
      [keep, impostor] = await Promise.all([
        startSandboxWebClient({ ...webOptions, clientId: KEEP }),
        startSandboxWebClient({ ...webOptions, clientId: VICTIM }),
      ]);
      const worlds = relay.relay.services.knownWorlds;
      worlds.remember({ clientId: KEEP, worldId: 'sandbox-world', worldTitle: 'The Sandbox Keep' });
      worlds.remember({ clientId: VICTIM, worldId: 'sandbox-world', worldTitle: 'Victim' });
      worlds.remember({ clientId: DECOY, worldId: 'decoy', worldTitle: 'Decoy' });
      expect((await relay.admin('PATCH', `/admin/worlds/${KEEP}`, { foundryUrl: keep.url })).status).toBe(200);
      expect((await relay.admin('PATCH', `/admin/worlds/${DECOY}`, { foundryUrl: impostor.url })).status).toBe(200);
      key = await sessionKey(relay);
    }, 60_000);
    afterEach(async () => {
      for (const session of (await relay.api(key, 'GET', '/session')).body.activeSessions ?? []) {
        await relay.api(key, 'DELETE', '/end-session', { query: { sessionId: session.sessionId } });
      }
    });
    afterAll(async () => {
      await relay?.close();
      await Promise.all([keep?.close(), impostor?.close()]);
    });

    async function start(foundryUrl: string) {
      const handshake = await relay.api(key, 'POST', '/session-handshake', {
        headers: { 'x-foundry-url': foundryUrl, 'x-username': 'Gamemaster' },
      });
      expect(handshake.status).toBe(200);
      const encryptedPassword = encrypt(handshake.body.publicKey, {
        password: GM_PASSWORD,
        nonce: handshake.body.nonce,
      });
      return relay.api(key, 'POST', '/start-session', {
        body: { handshakeToken: handshake.body.token, encryptedPassword },
      });
    }

    const sessionTokens = () =>
      relay.relay.services.connectionTokens.list().filter((token) => token.source === 'session');

    it('a session at the configured address brings that world online with the seeded token', async () => {
      const started = await start(keep.url);
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ success: true, clientId: KEEP });
      const world = relay.relay.services.tabletop.world(KEEP);
      expect(world?.open).toBe(true);
      expect(sessionTokens()).toEqual([expect.objectContaining({ clientId: KEEP, id: world!.tokenId })]);
    }, 40_000);

    it('a page at a configured address that reports another paired world gets no token', async () => {
      const started = await start(impostor.url);
      expect(started.status).toBe(403);
      expect(started.body.error).toMatch(
        /runs world .* \(client id fvtt_sessionvictim01\), which is not a paired world configured for this address; no token was issued/,
      );
      expect(sessionTokens()).toEqual([]);
      expect(relay.relay.services.tabletop.world(VICTIM)).toBeUndefined();
    }, 40_000);

    it('when the world connects with another credential, the session ends and its token is revoked', async () => {
      const started = await start(keep.url);
      expect(started.status).toBe(200);
      const { token } = relay.relay.services.connectionTokens.issue(KEEP, 'GM browser', 'pairing');
      // While the session's browser answers pings it keeps the world: another GM's browser gets 4004 and waits.
      const waiting = new RawWorld(relay.wsUrl, { id: KEEP });
      await waiting.opened;
      waiting.send({ type: 'auth', token });
      expect((await waiting.closed).code).toBe(4004);
      expect(sessionTokens()).toHaveLength(1);
      // The session's socket goes away (4004 keeps its module waiting); the other browser's retry takes the world.
      relay.relay.services.tabletop.world(KEEP)?.close(4004, 'Gone');
      await expect.poll(() => relay.relay.services.tabletop.world(KEEP)).toBeUndefined();
      const other = await connectRawWorld(relay.wsUrl, KEEP, token);
      await expect.poll(async () => (await relay.api(key, 'GET', '/session')).body.activeSessions).toEqual([]);
      expect(sessionTokens()).toEqual([]);
      other.close();
    }, 40_000);
  });
});
