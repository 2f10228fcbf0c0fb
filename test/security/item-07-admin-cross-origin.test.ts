// Item 7: a page on another port of 127.0.0.1 (the same site as the relay, so a SameSite=Strict cookie still goes
// along) must not use the GM's settings UI session: no key created, no pair request approved, in real Chromium.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSessions } from '../../relay/auth/admin-sessions.ts';
import { adminRoutes } from '../../relay/admin/routes.ts';
import type { LocalRoute } from '../../relay/routing/route.ts';
import { buildRenderer, RENDERER_OUT } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { call } from '../harness/http.ts';
import { lanCallContext } from '../harness/from-address.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';
import { serveOtherOriginPage, type OtherOriginPage } from './other-origin-page.ts';
import { openSettings } from '../ui/browser-page.ts';

const TWELVE_HOURS_MS = 12 * 60 * 60_000;

let relay: TestRelay;
let browser: Browser;
let settingsPage: Page;
let other: OtherOriginPage;
let lanPeer: LanPeer | undefined;

beforeAll(async () => {
  await buildRenderer();
  [relay, browser, other, lanPeer] = await Promise.all([
    startTestRelay(),
    launchChromium(),
    serveOtherOriginPage(),
    createLanPeer(),
  ]);
  settingsPage = await openSettings(browser, relay.relay.createAdminLoginUrl());
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await relay?.close();
  await other?.close();
  await lanPeer?.close();
});

/** The attacks the other page makes, each a request the relay receives (none is preflighted). */
interface Attack {
  kind: 'form' | 'fetch';
  method: 'GET' | 'POST';
  path: string;
  enctype?: string;
  fields?: Record<string, string>;
  contentType?: string;
  body?: string;
}

function attacksOn(code: string): Attack[] {
  const keyJson = JSON.stringify({ name: 'planted', scopes: ['clients:read'] });
  const keyQuery = 'name=planted&scopes=clients%3Aread';
  return [
    {
      kind: 'form',
      method: 'POST',
      path: '/admin/keys',
      enctype: 'application/x-www-form-urlencoded',
      fields: { name: 'planted', scopes: 'clients:read' },
    },
    {
      kind: 'form',
      method: 'POST',
      path: `/admin/keys?${keyQuery}`,
      enctype: 'application/x-www-form-urlencoded',
      fields: { x: '1' },
    },
    {
      kind: 'form',
      method: 'POST',
      path: '/admin/keys',
      enctype: 'text/plain',
      fields: { '{"name":"planted","scopes":["clients:read"],"x":"': '"}' },
    },
    {
      kind: 'form',
      method: 'POST',
      path: `/auth/api-keys?${keyQuery}`,
      enctype: 'multipart/form-data',
      fields: { name: 'planted', scopes: 'clients:read' },
    },
    {
      kind: 'form',
      method: 'POST',
      path: `/admin/pair-requests/${code}/approve`,
      enctype: 'application/x-www-form-urlencoded',
      fields: { x: '1' },
    },
    { kind: 'fetch', method: 'POST', path: '/admin/keys', contentType: 'text/plain', body: keyJson },
    { kind: 'fetch', method: 'POST', path: `/admin/keys?${keyQuery}` },
    { kind: 'fetch', method: 'POST', path: '/auth/api-keys', contentType: 'text/plain', body: keyJson },
    { kind: 'fetch', method: 'POST', path: `/auth/api-keys?${keyQuery}` },
    { kind: 'fetch', method: 'POST', path: `/admin/pair-requests/${code}/approve` },
    {
      kind: 'fetch',
      method: 'POST',
      path: `/admin/pair-requests/${code}/approve?x=1`,
      contentType: 'text/plain',
      body: '{}',
    },
    { kind: 'fetch', method: 'GET', path: '/admin/keys' },
  ];
}

/** Runs in the other page: forms into hidden frames, and no-cors fetches that send the cookie. */
async function launchAttacks(page: Page, relayUrl: string, attacks: Attack[]): Promise<void> {
  await page.evaluate(
    async (base, list) => {
      const fetches: Promise<unknown>[] = [];
      list.forEach((attack, index) => {
        const url = base + attack.path;
        if (attack.kind === 'fetch') {
          const init: RequestInit = { method: attack.method, mode: 'no-cors', credentials: 'include' };
          if (attack.body !== undefined) init.body = new Blob([attack.body], { type: attack.contentType });
          fetches.push(fetch(url, init).catch(() => undefined));
          return;
        }
        const frame = document.createElement('iframe');
        frame.name = `attack-${index}`;
        document.body.append(frame);
        const form = document.createElement('form');
        Object.assign(form, { method: attack.method, action: url, enctype: attack.enctype, target: frame.name });
        for (const [name, value] of Object.entries(attack.fields ?? {})) {
          const input = document.createElement('input');
          Object.assign(input, { type: 'hidden', name, value });
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      });
      await Promise.all(fetches);
    },
    relayUrl,
    attacks,
  );
}

/** A fetch the browser must preflight (JSON), which the relay never allows across origins: it rejects. */
async function preflightedFetch(page: Page, url: string): Promise<string> {
  return page.evaluate(async (target) => {
    try {
      const response = await fetch(target, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'planted', scopes: ['clients:read'] }),
      });
      return `answered ${response.status}`;
    } catch {
      return 'blocked';
    }
  }, url);
}

describe('item 07: the admin API refuses other web pages, takes changes as JSON only, and its session expires', () => {
  it('the one-time link sets an HttpOnly, SameSite=Strict session cookie that expires in 12 hours', async () => {
    const cookie = (await browser.cookies()).find((candidate) => candidate.name === 'ttr_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', session: false });
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + TWELVE_HOURS_MS - 60_000);
    expect(cookie!.expires * 1000).toBeLessThanOrEqual(Date.now() + TWELVE_HOURS_MS + 1000);

    const login = await fetch(relay.relay.createAdminLoginUrl(), { redirect: 'manual' });
    const header = login.headers.get('set-cookie')!;
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Strict/);
    expect(header).toMatch(/; Max-Age=43200/);
    expect(relay.relay.services.adminSessions.isSession(/^ttr_admin=([0-9a-f]+)/.exec(header)![1]!)).toBe(true);

    const sessions = new AdminSessions();
    const loggedInAt = Date.now();
    const session = sessions.redeem(sessions.issueLoginCode(loggedInAt), loggedInAt)!;
    expect(sessions.isSession(session, loggedInAt + TWELVE_HOURS_MS - 1)).toBe(true);
    expect(sessions.isSession(session, loggedInAt + TWELVE_HOURS_MS)).toBe(false);
  });

  it('a page on another port of 127.0.0.1 creates no key and approves no pair request, by form, fetch or query string', async () => {
    const attacker = await browser.newPage();
    await attacker.goto(other.origin);
    const pairRequest = await attacker.evaluate(async (base) => {
      const response = await fetch(`${base}/auth/pair-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ worldId: 'planted-world', worldTitle: 'Planted world' }),
      });
      return (await response.json()) as { code: string };
    }, relay.baseUrl);
    const attacks = attacksOn(pairRequest.code);
    const statuses: Array<{ url: string; status: number }> = [];
    const allAnswered = new Promise<void>((resolve) => {
      attacker.on('response', (response) => {
        const { url, method } = { url: response.url(), method: response.request().method() };
        // Preflights of the JSON fetches below are refused too, but are not requests the attacks make.
        if (!url.startsWith(relay.baseUrl) || url.includes('/auth/pair-request') || method === 'OPTIONS') return;
        statuses.push({ url, status: response.status() });
        if (statuses.length === attacks.length) resolve();
      });
    });

    await launchAttacks(attacker, relay.baseUrl, attacks);
    await allAnswered;
    expect(await preflightedFetch(attacker, `${relay.baseUrl}/admin/keys`)).toBe('blocked');
    expect(await preflightedFetch(attacker, `${relay.baseUrl}/admin/pair-requests/${pairRequest.code}/approve`)).toBe(
      'blocked',
    );

    expect(statuses.map((answer) => answer.status)).toEqual(attacks.map(() => 403));
    expect((await relay.admin('GET', '/admin/keys')).body.keys).toEqual([]);
    const waiting = (await relay.admin('GET', '/admin/pair-requests')).body.pairRequests;
    expect(waiting.find((request: { code: string }) => request.code === pairRequest.code)?.status).toBe('pending');
    await attacker.close();
  }, 20_000);

  it('the settings UI itself still makes changes with its JSON fetches', async () => {
    const created = await settingsPage.evaluate(async () => {
      const response = await fetch('/admin/keys', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'from the settings UI', scopes: ['clients:read'] }),
      });
      return response.status;
    });
    expect(created).toBe(201);
    expect((await relay.admin('GET', '/admin/keys')).body.keys.map((key: { name: string }) => key.name)).toEqual([
      'from the settings UI',
    ]);
  });

  it('refuses a foreign Origin or Sec-Fetch-Site with 403, a non-JSON change with 415 and query parameters on a change with 400', async () => {
    const token = { authorization: `Bearer ${relay.relay.adminToken}` };
    const newKey = { name: 'by script', scopes: ['clients:read'] };
    const foreign = await call(relay.baseUrl, 'POST', '/admin/keys', {
      body: newKey,
      headers: { ...token, origin: 'http://127.0.0.1:1' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toContain('refuses calls from other web pages');
    const sameSite = await call(relay.baseUrl, 'GET', '/admin/status', {
      headers: { ...token, 'sec-fetch-site': 'same-site' },
    });
    expect(sameSite.status).toBe(403);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await call(relay.baseUrl, 'POST', '/admin/keys', {
        body: JSON.stringify(newKey),
        headers: { ...token, 'content-type': contentType },
      });
      expect(answer.status).toBe(415);
      expect(answer.body.error).toContain('Content-Type: application/json');
    }
    const fromQuery = await call(relay.baseUrl, 'POST', '/admin/keys', {
      query: { name: 'by script', scopes: 'clients:read' },
      body: {},
      headers: token,
    });
    expect(fromQuery.status).toBe(400);
    const own = await call(relay.baseUrl, 'POST', '/admin/keys', {
      body: newKey,
      headers: { ...token, origin: relay.baseUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(201);
  });

  it('redeems /admin/login codes from loopback only', async () => {
    const url = new URL(relay.relay.createAdminLoginUrl());
    if (lanPeer) {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
      await expect.poll(async () => (await relay.admin('GET', '/admin/status')).body.lan.enabled).toBe(true);
      const fromLan = await lanPeer.get(`http://${lanPeer.hostAddress}:${url.port}${url.pathname}${url.search}`);
      expect(fromLan.status).toBe(403);
      expect(JSON.parse(fromLan.body).error).toContain('only in a browser on the computer running Tabletop Relay');
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    } else {
      // No network namespace could be made here: the route is called with another machine's socket address instead.
      const login = adminRoutes.find((route) => route.path === '/admin/login') as LocalRoute;
      const call = lanCallContext(relay.baseUrl);
      await expect(async () =>
        login.handle({
          parameters: { code: url.searchParams.get('code')! },
          call,
          services: relay.relay.services,
        } as never),
      ).rejects.toMatchObject({ status: 403 });
    }
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
  });

  it('serves /admin/ unframeable with nosniff and a content security policy, and no source maps', async () => {
    const page = await fetch(`${relay.baseUrl}/admin/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-src 'self';");

    expect(readdirSync(RENDERER_OUT).filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(readFileSync(join(RENDERER_OUT, 'app.js'), 'utf8')).not.toContain('sourceMappingURL');
    const leftover = `leftover-${process.pid}.js.map`;
    writeFileSync(join(RENDERER_OUT, leftover), '{"version":3}');
    try {
      expect((await fetch(`${relay.baseUrl}/admin/${leftover}`)).status).toBe(404);
    } finally {
      rmSync(join(RENDERER_OUT, leftover), { force: true });
    }
  });
});
