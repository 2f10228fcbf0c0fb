// The settings UI in real Chromium against a running relay and the sandbox world, as a GM would use it.
import { mkdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import {
  connectSandbox,
  connectSandboxLegacy,
  createSandboxWorld,
  exchangePairingCode,
  pairSandbox,
  RelayConnectionError,
  type PairingResult,
  type SandboxLink,
} from '../../sandbox/index.ts';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { startRelayWithWorld } from '../harness/world.ts';
import { createLanPeer, type LanPeer } from './lan-peer.ts';
import { openSettings } from './browser-page.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

let relay: TestRelay;
let browser: Browser;
let page: Page;
let link: SandboxLink | undefined;
let lanPeer: LanPeer | undefined;
/** The world paired to be given an address, then forgotten. */
let secondWorld: PairingResult | undefined;

async function screenshot(name: string): Promise<void> {
  // Toasts of earlier steps would cover the page; they fade by themselves a few seconds later.
  await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png`, fullPage: false });
}

async function openPage(id: string): Promise<void> {
  await page.click(`a[data-page="${id}"]`);
  await page.waitForFunction(
    (title) => document.querySelector('#page-title')?.textContent === title,
    {},
    await page.$eval(`a[data-page="${id}"] span`, (span) => span.textContent),
  );
}

async function text(): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

async function waitForText(expected: string, timeout = 5000): Promise<void> {
  await page.waitForFunction((wanted) => document.body.innerText.includes(wanted), { timeout }, expected);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  [relay, browser, lanPeer] = await Promise.all([startTestRelay(), launchChromium(), createLanPeer()]);
  page = await openSettings(browser, relay.relay.createAdminLoginUrl());
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await relay?.close();
  await lanPeer?.close();
});

describe('settings UI', () => {
  it('signs in with the one-time admin URL, which works only once', async () => {
    expect(new URL(page.url()).pathname).toBe('/admin/');
    const used = relay.relay.createAdminLoginUrl();
    expect((await fetch(used, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(used, { redirect: 'manual' })).status).toBe(401);
  });

  it('shows the first-run guide with the relay URL until a world connects', async () => {
    await waitForText('Connect your world');
    const shown = await text();
    expect(shown).toContain(`${relay.wsUrl}/relay`);
    expect(shown).toContain('Waiting for your world');
    await screenshot('status-first-run');
  });

  it('shows a sandbox pairing request live, and Approve brings the world online on the Status page', async () => {
    const world = createSandboxWorld({ seed: 11 });
    let code = '';
    const paired = pairSandbox(world, {
      httpBase: relay.baseUrl,
      pollIntervalMs: 50,
      timeoutMs: 15_000,
      onCode: (issued) => {
        code = issued;
      },
    });
    await page.waitForSelector('.pair-request [data-action="approve"]', { timeout: 5000 });
    expect(await page.$eval('.pair-request', (item) => item.getAttribute('data-code'))).toBe(code);
    expect(await text()).toContain(world.metadata.worldTitle);
    await screenshot('status-pair-request');

    await page.click(`.pair-request[data-code="${code}"] [data-action="approve"]`);
    const result = await paired;
    link = await connectSandbox(world, { relayUrl: relay.wsUrl, clientId: result.clientId, token: result.token });
    await page.waitForSelector(`.world[data-client-id="${result.clientId}"]`, { timeout: 5000 });
    const shown = await text();
    expect(shown).toContain(world.metadata.worldTitle);
    expect(shown).toContain(world.metadata.systemTitle);
    expect(shown).not.toContain('Connect your world');
    expect(await page.$('.pair-request')).toBeNull();
    await screenshot('status');
  }, 20_000);

  it('labels a request for a paired world as such, names where it came from, and drops it once denied', async () => {
    const world = createSandboxWorld({ seed: 11 });
    const again = await call(relay.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: world.metadata.worldId, worldTitle: 'Someone else' },
    });
    const card = `.pair-request[data-code="${again.body.code}"]`;
    await page.waitForSelector(`${card} .pair-request-paired`, { timeout: 5000 });
    const shown = await page.$eval(card, (item) => (item as HTMLElement).innerText);
    expect(shown).toContain(
      `Already paired — approving gives this browser a new token for ${world.metadata.worldTitle}`,
    );
    expect(shown).toContain('From 127.0.0.1');
    await screenshot('status-pair-request-already-paired');
    await page.click(`${card} [data-action="deny"]`);
    await page.waitForSelector(card, { hidden: true, timeout: 5000 });
  });

  it('lists the paired worlds; sets a world’s Foundry address, refuses a bad one next to the field, and clears it', async () => {
    const world = createSandboxWorld({ seed: 12, worldId: 'winter-march', worldTitle: 'Winter March' });
    const { code } = (await relay.admin('POST', '/admin/pairing-codes', {})).body;
    secondWorld = await exchangePairingCode(world, { httpBase: relay.baseUrl, code });
    const secondLink = await connectSandbox(world, {
      relayUrl: relay.wsUrl,
      clientId: secondWorld.clientId,
      token: secondWorld.token,
    });
    const row = `.known-world[data-client-id="${secondWorld.clientId}"]`;
    await page.waitForSelector(`${row} .pill-success`, { timeout: 5000 });
    const firstRow = `.known-world[data-client-id="${link!.clientId}"]`;
    expect(await page.$eval(firstRow, (item) => (item as HTMLElement).innerText)).toContain('Not set');
    const storedAddress = async () =>
      (await relay.admin('GET', '/admin/worlds')).body.worlds.find(
        (known: { clientId: string }) => known.clientId === secondWorld!.clientId,
      ).foundryUrl;

    await page.click(`${row} [data-action="edit-address"]`);
    await page.type(`${row} input[name="foundryUrl"]`, 'file:///etc/passwd');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`${row} .field-error:not([hidden])`);
    expect(await page.$eval(`${row} .field-error`, (error) => (error as HTMLElement).innerText)).toContain(
      'must be an http(s) URL',
    );
    expect(await storedAddress()).toBeUndefined();
    await page.$eval('#paired-worlds-title', (title) => title.scrollIntoView({ block: 'start' }));
    await screenshot('status-paired-worlds-refused');

    await page.$eval(`${row} input[name="foundryUrl"]`, (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.type(`${row} input[name="foundryUrl"]`, 'http://localhost:30000');
    await page.click(`${row} button[type="submit"]`);
    await page.waitForSelector(`${row} .known-world-url`);
    expect(await page.$eval(`${row} .known-world-url`, (url) => url.textContent)).toBe('http://localhost:30000');
    expect(await page.$(`${row} .field-error:not([hidden])`)).toBeNull();
    expect(await storedAddress()).toBe('http://localhost:30000');

    // Left, it shows when it was last seen.
    await secondLink.close();
    await page.waitForSelector(`${row} .known-world-head .pill-muted`, { timeout: 5000 });
    expect(await page.$eval(`${row} .known-world-head .pill-muted`, (pill) => pill.textContent)).toBe(
      'Last seen just now',
    );
    await page.$eval('#paired-worlds-title', (title) => title.scrollIntoView({ block: 'start' }));
    await screenshot('status-paired-worlds');
    await page.setViewport({ width: 800, height: 600 });
    await page.$eval('#paired-worlds-title', (title) => title.scrollIntoView({ block: 'start' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot('status-paired-worlds-800x600');
    await page.setViewport({ width: 1024, height: 768 });

    await page.click(`${row} [data-action="edit-address"]`);
    await page.$eval(`${row} input[name="foundryUrl"]`, (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.click(`${row} button[type="submit"]`);
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.includes('Not set'),
      {},
      `${row} .known-world-address-value`,
    );
    expect(await storedAddress()).toBeUndefined();
  }, 20_000);

  it('forgets a world after a confirm that says what happens: it leaves the list and its token stops working', async () => {
    const world = createSandboxWorld({ seed: 12, worldId: 'winter-march', worldTitle: 'Winter March' });
    const { clientId, token } = secondWorld!;
    const connected = await connectSandbox(world, { relayUrl: relay.wsUrl, clientId, token });
    const row = `.known-world[data-client-id="${clientId}"]`;
    await page.waitForSelector(`${row} .pill-success`, { timeout: 5000 });

    await page.click(`${row} [data-action="forget"]`);
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    const dialog = await page.$eval('dialog[open]', (open) => (open as HTMLElement).innerText);
    expect(dialog).toContain('Forget Winter March?');
    expect(dialog).toContain('revokes its connection tokens and disconnects it; the module must pair again');
    await screenshot('status-forget-world');
    await page.click('dialog[open] button[value="confirm"]');

    await page.waitForSelector(row, { hidden: true, timeout: 5000 });
    expect((await connected.closed).code).toBe(4002);
    expect(
      (await relay.admin('GET', '/admin/worlds')).body.worlds.map((known: { clientId: string }) => known.clientId),
    ).toEqual([link!.clientId]);
    await expect(connectSandbox(world, { relayUrl: relay.wsUrl, clientId, token })).rejects.toThrow(
      RelayConnectionError,
    );
    expect(await page.$(`.known-world[data-client-id="${link!.clientId}"]`)).not.toBeNull();
  });

  it('creates a key with two scopes, shows it once, and the key works with exactly those scopes', async () => {
    await openPage('keys');
    await page.click('#new-key');
    await page.waitForSelector('#key-name');
    await page.type('#key-name', 'Stream Deck');
    await page.click('#choose-scopes summary');
    await page.click('input[name="scopes"][value="roll:read"]');
    await page.click('input[name="scopes"][value="search"]');
    expect(await page.$eval('input[value="execute-js"]', (box) => (box as HTMLInputElement).checked)).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot('keys-new');
    await page.click('.key-form button[type="submit"]');
    await page.waitForSelector('#revealed-key');
    const key = await page.$eval('#revealed-key', (input) => (input as HTMLInputElement).value);
    expect(key).toMatch(/^ttr_/);
    await waitForText('Stream Deck');
    await screenshot('keys-created');

    const records = (await relay.admin('GET', '/admin/keys')).body.keys;
    expect(records).toHaveLength(1);
    expect([...records[0].scopes].sort()).toEqual(['roll:read', 'search']);
    expect(JSON.stringify(records)).not.toContain(key);

    expect((await relay.api(key, 'GET', '/search', { query: { query: 'goblin' } })).status).toBe(200);
    expect((await relay.api(key, 'GET', '/rolls')).status).toBe(200);
    expect((await relay.api(key, 'GET', '/structure')).status).toBe(403);
    expect((await relay.api(key, 'GET', '/clients')).status).toBe(403);

    await page.click('.reveal button:not(.button-primary)');
    await page.waitForFunction(() => !document.querySelector('#revealed-key'));
    expect(await page.content()).not.toContain(key);
    await page.reload();
    await page.waitForSelector('tr[data-key-id]');
    expect(await page.content()).not.toContain(key);
    expect(await text()).toContain('just now');
    await screenshot('keys');

    await page.click(`tr[data-key-id="${records[0].id}"] button[aria-label="Revoke Stream Deck"]`);
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    await page.click('dialog[open] button[value="confirm"]');
    await waitForText('No API keys yet');
    expect((await relay.api(key, 'GET', '/search', { query: { query: 'goblin' } })).status).toBe(401);
  });

  it('keeps the keys list as it is while calls come in that change no key, so a click on it lands', async () => {
    await relay.createKey({ scopes: ['search'], name: 'Steady bot' });
    await openPage('keys');
    await page.waitForSelector('tr[data-key-id]');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await page.$eval('tr[data-key-id]', (row) => row.setAttribute('data-marked', 'yes'));
    // A refused call is in Activity, and the page looks at its keys again; none of them changed.
    expect((await relay.api('ttr_unknown-key', 'GET', '/rolls')).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await page.$('tr[data-key-id][data-marked="yes"]')).not.toBeNull();
    const [steady] = (await relay.admin('GET', '/admin/keys')).body.keys;
    expect((await relay.admin('DELETE', `/admin/keys/${steady.id}`)).status).toBe(200);
  });

  it('rotates a key: the new one is shown once and works, the old one gets 401', async () => {
    const old = await relay.createKey({ scopes: ['search'], name: 'Discord bot' });
    await page.reload();
    await page.waitForSelector('button[aria-label="Rotate Discord bot"]');
    await page.click('button[aria-label="Rotate Discord bot"]');
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    await page.click('dialog[open] button[value="confirm"]');
    await page.waitForSelector('#revealed-key');
    const rotated = await page.$eval('#revealed-key', (input) => (input as HTMLInputElement).value);
    expect(rotated).not.toBe(old);
    expect((await relay.api(old, 'GET', '/search', { query: { query: 'goblin' } })).status).toBe(401);
    expect((await relay.api(rotated, 'GET', '/search', { query: { query: 'goblin' } })).status).toBe(200);
    await page.click('.reveal button:not(.button-primary)');
  });

  it("binds a new key to a player chosen from the world's player list and to that world", async () => {
    const world = (await relay.admin('GET', '/admin/status')).body.worlds[0];
    const player = world.players.find((candidate: { role: number }) => candidate.role < 4);
    await page.click('#new-key');
    await page.waitForSelector('#key-name');
    await page.type('#key-name', 'Player handout');
    await page.click('[data-preset="player"]');
    await page.select('#key-user', player.id);
    await page.click(`input[name="worldIds"][value="${world.clientId}"]`);
    await page.click('.key-form button[type="submit"]');
    await page.waitForSelector('#revealed-key');
    const record = (await relay.admin('GET', '/admin/keys')).body.keys.find(
      (key: { name: string }) => key.name === 'Player handout',
    );
    expect(record).toMatchObject({ userId: player.id, worldIds: [world.clientId] });
    await page.click('.reveal button:not(.button-primary)');
    await waitForText(`Acts as ${player.name} · Only ${world.worldTitle}`);
    await screenshot('keys');
  });

  it('connects a 2.x module: a key that links only its world, shown once with the relay URL to type into the module', async () => {
    const legacyWorld = createSandboxWorld({ seed: 11 });
    const clientId = `foundry-${legacyWorld.game.moduleUserId}`;
    await page.click('#connect-2x-module');
    await page.waitForSelector('#link-client-id');
    await page.type('#link-client-id', clientId);
    await page.type('#link-foundry-url', 'http://localhost:30000');
    await page.type('#link-name', 'Old campaign');
    await page.click('.link-form button[type="submit"]');
    await page.waitForSelector('#revealed-link-key');
    const relayUrl = await page.$eval('#link-relay-url', (input) => (input as HTMLInputElement).value);
    const key = await page.$eval('#revealed-link-key', (input) => (input as HTMLInputElement).value);
    expect(relayUrl).toBe(`${relay.wsUrl}/relay`);
    await waitForText(`Links the 2.x module of ${clientId} from http://localhost:30000`);
    await screenshot('keys-2x-module');
    const record = (await relay.admin('GET', '/admin/keys')).body.keys.find(
      (candidate: { name: string }) => candidate.name === 'Old campaign',
    );
    expect(record).toMatchObject({ scopes: ['world:link'], worldIds: [clientId], origin: 'http://localhost:30000' });
    const legacyLink = await connectSandboxLegacy(legacyWorld, { relayUrl, apiKey: key });
    expect(relay.relay.services.tabletop.world(clientId)?.handshake).toBe('legacy-key');
    await legacyLink.close();
    await page.click('.reveal button:not(.button-primary)');
  });

  it('lists the API calls on the Activity page live, with the key name and no secrets', async () => {
    await openPage('activity');
    await page.waitForSelector('table[aria-label="Recent API calls"]');
    const key = await relay.createKey({ scopes: ['search'], name: 'OBS overlay' });
    await relay.api(key, 'GET', '/search', { query: { query: 'dragon' } });
    await waitForText('OBS overlay');
    const shown = await text();
    expect(shown).toContain('/search');
    expect(shown).toContain('Stream Deck');
    expect(shown).toContain('Discord bot');
    expect(shown).not.toContain('dragon');
    expect(await page.content()).not.toContain(key);
    await screenshot('activity');
  });

  it('lists refused calls on the Activity page with their reason and who made them, never the key, at 800×600', async () => {
    const unknownKey = 'ttr_NoSuchKeyWasEverIssued0123456789abcdef';
    const reader = await relay.createKey({ scopes: ['roll:read'], name: 'Stream Deck roll' });
    const roller = await relay.createKey({ scopes: ['roll:execute'], name: 'Roll button' });
    await call(relay.baseUrl, 'POST', '/roll', { body: { formula: '1d20' } });
    await relay.api(unknownKey, 'POST', '/roll', { body: { formula: '1d20' } });
    await relay.api(reader, 'POST', '/roll', { body: { formula: '1d20' } });
    await relay.api(roller, 'POST', '/roll', {
      body: 'flavor=Attack',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await page.setViewport({ width: 800, height: 600 });
    await openPage('activity');
    await waitForText("'formula' is required");
    const refused = await page.$$eval('tr.activity-refused', (rows) =>
      rows
        .slice(0, 4)
        .map((row) =>
          [...row.querySelectorAll('td')].map((cell) => (cell as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
        ),
    );
    // Newest first: time, key, endpoint and reason, status, duration.
    expect(refused.map(([, key, call, status]) => [key, call, status])).toEqual([
      ['Roll button', "POST /roll 'formula' is required", '400'],
      ['Stream Deck roll', 'POST /roll API key lacks required scope: roll:execute', '403'],
      ['Unknown key', 'POST /roll Invalid API key', '401'],
      [
        'No key',
        'POST /roll API key is required: send it in the x-api-key header, or as Authorization: Bearer <key>',
        '401',
      ],
    ]);
    const content = await page.content();
    for (const key of [unknownKey, reader, roller]) expect(content).not.toContain(key.slice(4, 12));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot('activity-refused');
    await page.setViewport({ width: 1024, height: 768 });
  });

  it('turns LAN access on and off: the relay then answers, then refuses, on another address of this machine', async () => {
    await openPage('access');
    await page.waitForSelector('#lan-access');
    await screenshot('access');
    const lanUrl = (host: string) => `http://${host}:${relay.relay.port}/clients`;

    await page.click('label[for="lan-access"]');
    await page.waitForSelector('.url-list');
    expect((await relay.admin('GET', '/admin/settings')).body.lanAccess).toBe(true);
    if (lanPeer) {
      expect(await text()).toContain(`http://${lanPeer.hostAddress}:${relay.relay.port}`);
      expect((await lanPeer.get(lanUrl(lanPeer.hostAddress))).status).toBe(401);
    } else {
      // No network namespaces here: 127.0.0.2 stands in for another address (see lan-peer.ts).
      expect((await call(`http://127.0.0.2:${relay.relay.port}`, 'GET', '/clients')).status).toBe(401);
    }
    await screenshot('access-lan-on');

    await page.click('label[for="lan-access"]');
    await page.waitForFunction(() => !document.querySelector('.url-list'));
    expect((await relay.admin('GET', '/admin/settings')).body.lanAccess).toBe(false);
    if (lanPeer) expect((await lanPeer.get(lanUrl(lanPeer.hostAddress))).status).toBe(0);
    else await expect(call(`http://127.0.0.2:${relay.relay.port}`, 'GET', '/clients')).rejects.toThrow();
    expect((await relay.api(undefined, 'GET', '/clients')).status).toBe(401);
  }, 20_000);

  it('saves the rate limit and the allowed browser origins, none until the GM adds one, * only with a warning', async () => {
    await page.$eval('#rate-limit', (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.type('#rate-limit', '90');
    await page.click('form[aria-labelledby="limits-title"] button[type="submit"]');
    await waitForText('Limits saved');
    expect(await page.$eval('#cors-only', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect(await page.$eval('#cors-origins', (input) => (input as HTMLTextAreaElement).value)).toBe('');
    expect(await page.$eval('#cors-any-warning', (warning) => (warning as HTMLElement).offsetParent === null)).toBe(
      true,
    );
    await page.click('label[for="cors-any"]');
    expect(await page.$eval('#cors-any-warning', (warning) => (warning as HTMLElement).innerText)).toContain(
      'Any web page',
    );
    await screenshot('access-cors-any');
    await page.click('button[data-origin="http://localhost:30000"]');
    expect(await page.$eval('#cors-only', (input) => (input as HTMLInputElement).checked)).toBe(true);
    await page.type('#cors-origins', '\nhttps://overlay.example');
    await page.click('form[aria-labelledby="cors-title"] button[type="submit"]');
    await waitForText('2 origins allowed');
    expect((await relay.admin('GET', '/admin/settings')).body).toMatchObject({
      requestsPerMinute: 90,
      corsOrigins: ['http://localhost:30000', 'https://overlay.example'],
    });
  });

  it('adds a host name the relay answers to; other names get 421', async () => {
    const asHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = httpRequest(
          { host: '127.0.0.1', port: relay.relay.port, path: '/api/status', headers: { host } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject).end();
      });
    expect(await asHost('tabletop.home.arpa')).toBe(421);
    await page.type('#allowed-hosts', 'Tabletop.Home.Arpa');
    await page.click('form[aria-labelledby="hosts-title"] button[type="submit"]');
    await waitForText('1 name allowed');
    expect((await relay.admin('GET', '/admin/settings')).body.allowedHosts).toEqual(['tabletop.home.arpa']);
    expect(await asHost('tabletop.home.arpa')).toBe(200);
    expect(await asHost('attacker.example')).toBe(421);
  });

  it('shows the capture settings form, and a clear state when the relay has no capture', async () => {
    await openPage('capture');
    await page.waitForSelector('#capture-url');
    await screenshot('capture');

    await page.setRequestInterception(true);
    const answer404 = (request: import('puppeteer-core').HTTPRequest) => {
      if (new URL(request.url()).pathname === '/admin/capture')
        void request.respond({ status: 404, contentType: 'application/json', body: '{"error":"Unknown endpoint"}' });
      else void request.continue();
    };
    page.on('request', answer404);
    await openPage('status');
    await openPage('capture');
    await page.waitForSelector('[data-capture="unavailable"]');
    expect(await text()).toContain('Sheet capture is not available');
    await screenshot('capture-unavailable');
    page.off('request', answer404);
    await page.setRequestInterception(false);
  });

  it('stays tidy at 800×600: nothing wider than the window on any page', async () => {
    await page.setViewport({ width: 800, height: 600 });
    for (const id of ['status', 'keys', 'access', 'capture', 'activity']) {
      await openPage(id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await page.evaluate(() => document.documentElement.scrollWidth), id).toBeLessThanOrEqual(800);
      const cramped = await page.$$eval(
        '.card',
        (cards) => cards.filter((card) => card.scrollWidth > card.clientWidth + 1).length,
      );
      expect(cramped, `cards with a horizontal scrollbar on ${id}`).toBe(0);
    }
    await openPage('status');
    await screenshot('status-800x600');
    await page.setViewport({ width: 1024, height: 768 });
  });

  it('follows the system dark theme', async () => {
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
    await openPage('status');
    expect(await page.$eval('.card', (card) => getComputedStyle(card).backgroundColor)).toBe('rgb(29, 31, 39)');
    await screenshot('status-dark');
    await page.emulateMediaFeatures([
      { name: 'prefers-color-scheme', value: 'light' },
      { name: 'prefers-reduced-motion', value: 'reduce' },
    ]);
  });

  it('can be used with the keyboard alone: skip link, then the pages in tab order', async () => {
    await page.goto(relay.relay.createAdminLoginUrl());
    await page.waitForSelector('.sidebar');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-page'))).toBe('keys');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('#page-title')?.textContent === 'API keys');
  });
});

describe('admin API access', () => {
  it('refuses requests without the token or a session', async () => {
    expect((await call(relay.baseUrl, 'GET', '/admin/status')).status).toBe(401);
    expect(
      (await call(relay.baseUrl, 'GET', '/admin/keys', { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
    expect(
      (await call(relay.baseUrl, 'GET', '/admin/status', { headers: { cookie: 'ttr_admin=forged' } })).status,
    ).toBe(401);
  });

  it('refuses requests from another machine even with the token, and does not serve it the settings UI', async (context) => {
    // Needs the network namespace peer (root and `ip`); without one there is no other address to ask from.
    if (!lanPeer)
      return context.skip('no network namespace peer here (it needs root and ip): no other address to call from');
    await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
    try {
      const base = `http://${lanPeer!.hostAddress}:${relay.relay.port}`;
      const status = await lanPeer!.get(`${base}/admin/status`, { authorization: `Bearer ${relay.relay.adminToken}` });
      expect(status.status).toBe(403);
      expect(status.body).toContain('loopback');
      expect((await lanPeer!.get(`${base}/admin/`)).status).not.toBe(200);
    } finally {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    }
  });
});

describe('Status page counters', () => {
  it('follow API calls and event streams live, without a reload', async () => {
    const harness = await startRelayWithWorld();
    const statusPage = await browser.newPage();
    try {
      await statusPage.goto(harness.relay.createAdminLoginUrl());
      const counter = (label: string) =>
        statusPage.evaluate(
          (wanted) =>
            [...document.querySelectorAll('.stat')]
              .find((tile) => tile.querySelector('.stat-label')?.textContent === wanted)
              ?.querySelector('.stat-value')?.textContent,
          label,
        );
      const showsCounter = (label: string, value: string) =>
        statusPage.waitForFunction(
          (wanted, expected) =>
            [...document.querySelectorAll('.stat')].some(
              (tile) =>
                tile.querySelector('.stat-label')?.textContent === wanted &&
                tile.querySelector('.stat-value')?.textContent === expected,
            ),
          { timeout: 5000 },
          label,
          value,
        );
      await showsCounter('Event streams', '0');
      expect(await counter('API calls')).toBe('0');
      await statusPage.evaluate(() => Object.assign(window, { sameDocument: true }));

      for (const query of ['goblin', 'dragon', 'torch']) await harness.get('/search', { query });
      await showsCounter('API calls', '3');
      const stream = await harness.stream('/rolls/subscribe');
      await showsCounter('Event streams', '1');
      stream.close();
      await showsCounter('Event streams', '0');
      expect(await statusPage.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    } finally {
      await statusPage.close();
      await harness.close();
    }
  }, 20_000);
});
