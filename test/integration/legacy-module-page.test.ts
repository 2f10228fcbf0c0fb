// Issue 27, item 2: a 2.x module runs in the Foundry page, so its socket comes with that page's Origin, which /relay
// refused (403) unless the GM also allowed it under the browser origins. Now "Connect a 2.x module" takes the Foundry
// address and /relay admits its page for that world. In real Chromium, with the 2.x handshake (the key in the URL, no
// auth frame) from the sandbox web client's game page.
import type { Browser, BrowserContext } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.ts';
import { createSandboxWorld } from '../../sandbox/index.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import { moduleStatus, openGamePage, untilConnected } from '../harness/game-page.ts';
import { freePort } from '../harness/ports.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { FOUNDRY_VERSION } from '../harness/world.ts';
import { serveOtherOriginPage } from '../security/other-origin-page.ts';

const SEED = 7;
/** A 2.x module connects as foundry-<the id of the GM whose browser runs it>. */
const CLIENT_ID = `foundry-${createSandboxWorld({ seed: SEED }).game.users.getName('Gamemaster')!.id}`;

let browser: Browser;
let relay: TestRelay;
let context: BrowserContext;
const webClients: SandboxWebClient[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  relay = await startTestRelay();
  context = await browser.createBrowserContext();
});
afterEach(async () => {
  await context?.close();
  await relay?.close();
  await Promise.all(webClients.splice(0).map((web) => web.close()));
});

/** "Connect a 2.x module" for the Foundry at this address: the key the GM types into the module's settings. */
async function linkKey(foundryUrl: string): Promise<{ id: string; key: string; relayUrl: string }> {
  const created = await relay.admin('POST', '/admin/world-links', { clientId: CLIENT_ID, foundryUrl });
  expect(created.status).toBe(201);
  return {
    id: created.body.id,
    key: created.body.key,
    relayUrl: created.body.settings['foundry-rest-api.wsRelayUrl'],
  };
}

/** A Foundry whose world runs the 2.x module with this key, on a port chosen beforehand so the key can name it. */
async function foundryWith2xModule(port: number, apiKey: string): Promise<SandboxWebClient> {
  const web = await startSandboxWebClient({
    port,
    worldOptions: { seed: SEED, foundryVersion: FOUNDRY_VERSION },
    relayUrl: relay.baseUrl,
    legacyApiKey: apiKey,
  });
  webClients.push(web);
  return web;
}

describe('a 2.x module in its Foundry page', () => {
  it('connects from the page "Connect a 2.x module" was given, with no browser origin allowed, and answers calls', async () => {
    const port = await freePort();
    const link = await linkKey(`http://127.0.0.1:${port}/game`);
    expect(link.relayUrl).toBe(`${relay.wsUrl}/relay`);
    expect((await relay.admin('GET', '/admin/settings')).body.corsOrigins).toEqual([]);
    const web = await foundryWith2xModule(port, link.key);
    const tab = await openGamePage(context, web.url);
    await untilConnected(tab);
    expect(relay.relay.services.tabletop.world(CLIENT_ID)).toMatchObject({
      handshake: 'legacy-key',
      metadata: { foundryVersion: FOUNDRY_VERSION },
    });
    const tool = await relay.createKey({ scopes: ['world:info'] });
    const info = await relay.api(tool, 'GET', '/world-info', { query: { clientId: CLIENT_ID } });
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ foundryVersion: FOUNDRY_VERSION });
  });

  it('is still refused from a page of another origin with the same key, and from its page once the key is revoked gets 1008', async () => {
    const port = await freePort();
    const link = await linkKey(`http://127.0.0.1:${port}`);
    const socketUrl = `${link.relayUrl}?id=${CLIENT_ID}&token=${link.key}`;
    const other = await serveOtherOriginPage(`<!doctype html><title>Another page</title><script>
      window.ending = new Promise((resolve) => {
        const socket = new WebSocket(${JSON.stringify(socketUrl)});
        socket.onopen = () => resolve('open');
        socket.onclose = (event) => resolve('closed ' + event.code);
      });</script>`);
    try {
      const stranger = await context.newPage();
      await stranger.goto(other.origin);
      expect(await stranger.evaluate('window.ending')).toBe('closed 1006');
    } finally {
      await other.close();
    }
    expect(relay.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();

    expect((await relay.admin('DELETE', `/admin/keys/${link.id}`)).status).toBe(200);
    const tab = await openGamePage(context, (await foundryWith2xModule(port, link.key)).url);
    await tab.waitForFunction(
      () => (window as unknown as { sandboxModule?: { closeCode: number } }).sandboxModule?.closeCode === 1008,
      { timeout: 5000 },
    );
    expect(await moduleStatus(tab)).toMatchObject({ connected: false, closeCode: 1008 });
  });

  it('a key made without the Foundry address is refused with a message saying what to give', async () => {
    const refused = await relay.admin('POST', '/admin/world-links', { clientId: CLIENT_ID });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/foundryUrl/);
  });
});
