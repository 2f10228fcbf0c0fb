// Item 17: a LAN attacker cannot obtain a key through the key-request flow (POST /auth/key-request).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { callFrom } from '../harness/from-address.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer } from '../ui/lan-peer.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';
import { checkAdmin } from '../../relay/routing/access.ts';
import { answerBeforeTheBody } from './unfinished-body.ts';

const TOOL = { appName: 'Stream Deck', scopes: ['roll:execute', 'playlist:control'] };

// Ten machines on the LAN; without namespaces (outside CI only) what needs them is skipped or checked otherwise.
const lanPeer = await createLanPeer({ machines: 10 });
let relay: TestRelay;
beforeAll(async () => {
  relay = await startTestRelay({ keyRequestPollIntervalMs: 100 });
});
afterAll(async () => {
  await relay.close();
  await lanPeer?.close();
});
afterEach(async () => {
  for (const waiting of (await relay.admin('GET', '/admin/key-requests')).body.keyRequests)
    await relay.admin('POST', `/admin/key-requests/${waiting.code}/deny`);
});

async function ask(body: unknown = TOOL): Promise<{ code: string; pollUrl: string }> {
  const answer = await call(relay.baseUrl, 'POST', '/auth/key-request', { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** What a web page's <form method=post> sends: a simple request, which no browser asks the relay about first. */
const FORM = {
  body: 'appName=Stream+Deck&scopes=roll%3Aexecute&scopes=playlist%3Acontrol',
  contentType: 'application/x-www-form-urlencoded',
};

const waitingCodes = async () =>
  (await relay.admin('GET', '/admin/key-requests')).body.keyRequests.map((request: { code: string }) => request.code);

const keyCount = async () => (await relay.admin('GET', '/admin/keys')).body.keys.length as number;

describe('item 17: key requests give a key only to the tool that asked, once, after the GM approved it on this computer', () => {
  it('the short code the tool shows collects nothing, in any spelling, and guessed poll secrets find nothing', async () => {
    const tool = await ask();
    await relay.admin('POST', `/admin/key-requests/${tool.code}/approve`, {});
    const bare = tool.code.replace('-', '');
    for (const guess of [tool.code, bare, bare.toLowerCase(), `krq_${bare}`]) {
      for (const path of [`/auth/key-request/${guess}`, `/auth/key-request/${guess}/status`]) {
        const answer = await call(relay.baseUrl, 'GET', path);
        expect(answer.status, path).toBe(404);
        expect(answer.text).not.toMatch(/ttr_/);
      }
    }
    const guesses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        callFrom(`127.0.3.${(index % 50) + 1}`, relay.baseUrl, 'GET', `/auth/key-request/krq_${index}guess`),
      ),
    );
    expect(guesses.every((answer) => answer.status === 404 && !answer.text.includes('ttr_'))).toBe(true);
    // The admin API shows the code, never the secret that collects: the GM's screen leaks nothing either.
    const secret = new URL(tool.pollUrl).pathname.split('/').pop()!;
    expect(JSON.stringify((await relay.admin('GET', '/admin/status')).body)).not.toContain(secret);
    // The tool that asked still collects its key.
    const collected = await call(relay.baseUrl, 'GET', new URL(tool.pollUrl).pathname);
    expect(collected.body.apiKey).toMatch(/^ttr_/);
  });

  it.skipIf(!lanPeer)(
    'a flood from many machines: 3 wait per address, 20 in all, the rest get 429 with Retry-After',
    async () => {
      await setLanAccess(relay, true);
      try {
        const answers = await fromLan(
          relay,
          lanPeer!,
          lanPeer!.peerAddresses.flatMap((from) =>
            [0, 1, 2, 3].map((tool) => ({
              method: 'POST',
              path: '/auth/key-request',
              from,
              body: { ...TOOL, appName: `Flood ${tool}` },
            })),
          ),
        );
        expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
        const refused = answers.filter((answer) => answer.status === 429);
        expect(refused).toHaveLength(20);
        for (const answer of refused) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
        const waiting = (await relay.admin('GET', '/admin/key-requests')).body.keyRequests;
        expect(waiting).toHaveLength(20);
        expect(new Set(waiting.map((entry: { source: string }) => entry.source)).size).toBe(7);
      } finally {
        await setLanAccess(relay, false);
      }
      // One address cannot keep asking either: 10 at once, then it waits.
      const burst = [];
      for (let index = 0; index < 12; index += 1)
        burst.push((await callFrom('127.0.5.1', relay.baseUrl, 'POST', '/auth/key-request', TOOL)).status);
      expect(burst.filter((status) => status === 429).length).toBeGreaterThan(0);
    },
  );

  it('only the GM approves: no admin token, a wrong one, or a call from another machine changes nothing', async () => {
    const tool = await ask();
    const before = await keyCount();
    const approvePath = `/admin/key-requests/${tool.code}/approve`;
    expect((await call(relay.baseUrl, 'POST', approvePath, { body: {} })).status).toBe(401);
    const wrongToken = await call(relay.baseUrl, 'POST', approvePath, {
      body: {},
      headers: { authorization: 'Bearer not-the-admin-token' },
    });
    expect(wrongToken.status).toBe(401);
    const fromPage = await call(relay.baseUrl, 'POST', approvePath, {
      body: {},
      headers: { authorization: `Bearer ${relay.relay.adminToken}`, origin: 'http://evil.example' },
    });
    expect(fromPage.status).toBe(403);
    if (lanPeer) {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
      await expect.poll(async () => (await relay.admin('GET', '/admin/status')).body.lan.enabled).toBe(true);
      const fromLan = await lanPeer.get(`http://${lanPeer.hostAddress}:${relay.relay.port}/admin/key-requests`, {
        authorization: `Bearer ${relay.relay.adminToken}`,
      });
      expect(fromLan.status).toBe(403);
      const codeFromLan = await lanPeer.get(
        `http://${lanPeer.hostAddress}:${relay.relay.port}/auth/key-request/${tool.code}`,
      );
      expect(codeFromLan.status).toBe(404);
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    } else {
      // No network namespace could be made here: the admin check is asked with another machine's socket address.
      const lanCall = {
        transport: 'http' as const,
        remoteAddress: '192.168.1.20',
        relayOrigin: relay.baseUrl,
        header: (name: string) => (name === 'authorization' ? `Bearer ${relay.relay.adminToken}` : undefined),
      };
      expect(() => checkAdmin({ method: 'POST', call: lanCall, hasQuery: false }, relay.relay.services)).toThrow(
        /only on this computer/,
      );
    }
    expect(await keyCount()).toBe(before);
    expect((await call(relay.baseUrl, 'GET', new URL(tool.pollUrl).pathname)).body.status).toBe('pending');
  });

  it('the GM cannot be tricked into granting more than was asked', async () => {
    const tool = await ask();
    const before = await keyCount();
    const wider = await relay.admin('POST', `/admin/key-requests/${tool.code}/approve`, {
      scopes: ['roll:execute', 'execute-js'],
    });
    expect(wider.status).toBe(400);
    expect(await keyCount()).toBe(before);
  });

  it('an approved key is delivered once: of two polls at the same moment one gets it, the other nothing', async () => {
    const asked = await call(relay.baseUrl, 'POST', '/auth/key-request', { body: TOOL });
    expect(asked.headers.get('cache-control')).toBe('no-store');
    const tool = asked.body;
    await relay.admin('POST', `/admin/key-requests/${tool.code}/approve`, {});
    const path = new URL(tool.pollUrl).pathname;
    const polls = await Promise.all([call(relay.baseUrl, 'GET', path), call(relay.baseUrl, 'GET', path)]);
    expect(polls.map((answer) => answer.status).sort()).toEqual([200, 404]);
    const delivered = polls.filter((answer) => answer.text.includes('ttr_'));
    expect(delivered).toHaveLength(1);
    // No cache between the tool and the relay (a proxy, a web tool's browser) may keep the key.
    expect(delivered[0]!.headers.get('cache-control')).toBe('no-store');
    expect((await call(relay.baseUrl, 'GET', path)).status).toBe(404);
  });

  it("a web page in the GM's browser cannot raise a key request: no card, no notification, no slot of this computer", async () => {
    // Tools on this computer (the Stream Deck plugin, Companion) ask from 127.0.0.1, as every page in the GM's browser
    // would: a page's form must neither raise cards nor replace a waiting tool's request nor use up the address's slots.
    const plugin = await ask({ appName: 'Stream Deck', scopes: ['roll:execute', 'playlist:control'] });
    for (const origin of ['http://evil.example', 'http://127.0.0.1:1', 'null']) {
      const refused = await call(relay.baseUrl, 'POST', '/auth/key-request', {
        body: FORM.body,
        headers: { 'content-type': FORM.contentType, origin, 'sec-fetch-site': 'cross-site' },
      });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.error).toMatch(/^Key requests from other web pages are refused \(.+\)/);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(await waitingCodes()).toEqual([plugin.code]);
    expect(
      await answerBeforeTheBody(relay.baseUrl, '/auth/key-request', { headers: { origin: 'http://evil.example' } }),
    ).toBe(403);
    // The relay's own pages and the origins the GM allowed may still ask, as tools without an Origin do.
    const ownPage = await call(relay.baseUrl, 'POST', '/auth/key-request', {
      body: { appName: 'Own page', scopes: ['roll:execute'] },
      headers: { origin: relay.baseUrl },
    });
    expect(ownPage.status).toBe(201);
    // This computer, every loopback address, has 3 places: the checks so far took 2.
    await relay.admin('POST', `/admin/key-requests/${ownPage.body.code}/deny`);
    await relay.admin('PATCH', '/admin/settings', { corsOrigins: ['http://tool.example'] });
    try {
      const allowed = await callFrom('127.0.3.90', relay.baseUrl, 'POST', '/auth/key-request', TOOL);
      expect(allowed.status).toBe(201);
      const allowedPage = await call(relay.baseUrl, 'POST', '/auth/key-request', {
        body: FORM.body,
        headers: { 'content-type': FORM.contentType, origin: 'http://tool.example' },
      });
      expect(allowedPage.status).toBe(201);
    } finally {
      await relay.admin('PATCH', '/admin/settings', { corsOrigins: [] });
    }
  });

  it('an address that keeps asking is turned away before the relay reads its body', async () => {
    const flooder = '127.0.3.91';
    for (let request = 0; request < 10; request += 1)
      expect((await callFrom(flooder, relay.baseUrl, 'POST', '/auth/key-request', TOOL)).status).toBe(201);
    expect(await answerBeforeTheBody(relay.baseUrl, '/auth/key-request', { source: flooder })).toBe(429);
    expect(await answerBeforeTheBody(relay.baseUrl, '/auth/key-request', { source: '127.0.3.92' })).toBe('no answer');
  });

  it('a key the tool never collects is revoked when its request runs out, and when the relay stops', async () => {
    const short = await startTestRelay({ keyRequestLifetimeMs: 300 });
    const keyIds = async () =>
      (await short.admin('GET', '/admin/keys')).body.keys.map((key: { id: string }) => key.id) as string[];
    const approvedKey = async (appName: string) => {
      const tool = (await call(short.baseUrl, 'POST', '/auth/key-request', { body: { ...TOOL, appName } })).body;
      const approved = await short.admin('POST', `/admin/key-requests/${tool.code}/approve`, {});
      expect(await keyIds()).toContain(approved.body.keyId);
      return { path: new URL(tool.pollUrl).pathname, keyId: approved.body.keyId as string };
    };
    try {
      const expiring = await approvedKey('Left alone');
      await expect.poll(keyIds).not.toContain(expiring.keyId);
      expect(await call(short.baseUrl, 'GET', expiring.path)).toMatchObject({
        status: 410,
        body: { status: 'expired' },
      });
      const stopping = await approvedKey('Stopped');
      await short.restart();
      expect(await keyIds()).not.toContain(stopping.keyId);
    } finally {
      await short.close();
    }
  });
});
