// Overlay links (issue 14): the one credential a URL may carry, since OBS's browser source cannot send a header. A link
// opens its own overlay's routes for its own world, read-only, and nothing else; an API key is refused in any URL; a
// link that is revoked, rotated or changed stops its open streams within a second; a full disk makes, rotates or
// changes no link (a revocation takes effect all the same: item 32).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OVERLAYS, type OverlayName } from '../../contracts/overlays.ts';
import type { NewOverlayLink } from '../../contracts/admin-api.ts';
import { withoutSecrets } from '../../main/logger.ts';
import { createRequestListener } from '../../relay/http/app.ts';
import type { RelayLog } from '../../relay/log.ts';
import { allRoutes } from '../../relay/routes.ts';
import { localRoute, scopeOf, streamRoute, type Route } from '../../relay/routing/route.ts';
import { resolveWorld } from '../../relay/routing/world-resolution.ts';
import { connectSandbox, createSandboxWorld, type SandboxLink } from '../../sandbox/index.ts';
import { call, type Answer } from '../harness/http.ts';
import { ApiSocket, within } from '../harness/caller-api.ts';
import { EventStream } from '../harness/sse.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { injectedWriter } from './short-writes.ts';

// The injected failing writer of item 02 (short-writes.ts), for where no tmpfs can be mounted.
vi.mock('node:fs', async (importOriginal) =>
  (await import('./short-writes.ts')).withShortWrites(await importOriginal<typeof import('node:fs')>()),
);

const AT_ONCE_MS = 1000;
const OTHER_WORLD = 'fvtt_otherworld0test';

/**
 * Stand-ins with overlay access, registered only here: what the kernel gives an overlay's view (a local route) and its
 * stream (a stream route), whatever the real overlay routes make of it.
 */
const STAND_INS: Route[] = [
  ...(['dice', 'initiative'] as const).map((overlay) =>
    localRoute({
      method: 'GET',
      path: `/stand-in/${overlay}/state`,
      summary: 'Who the kernel lets in, and the world it binds them to',
      access: { overlay },
      parameters: z.object({}).passthrough(),
      handle: ({ key, link, linkSecret, parameters, services }) => ({
        body: {
          keyName: key?.name,
          scopes: key?.scopes,
          userId: key?.userId,
          linkId: link?.id,
          secretMatches: linkSecret !== undefined,
          parameters,
          world: resolveWorld(services.tabletop, undefined, key).clientId,
        },
      }),
    }),
  ),
  streamRoute({
    method: 'GET',
    path: '/stand-in/dice/rolls',
    summary: 'Roll events of the link’s world',
    access: { overlay: 'dice' },
    parameters: z.object({}),
    stream: 'roll',
    filter: () => ({}),
  }),
];
const OVERLAY_ROUTES = allRoutes.filter((route) => typeof route.access === 'object' && 'overlay' in route.access);

const logged: string[] = [];
const captureLog: RelayLog = {
  info: (message, detail) => logged.push(`${message} ${String(detail ?? '')}`),
  warn: (message, detail) => logged.push(`${message} ${String(detail ?? '')}`),
  error: (message, detail) => logged.push(`${message} ${String(detail ?? '')}`),
};

let harness: WorldHarness;
let otherWorld: SandboxLink;
let standIn: Server;
let standInUrl: string;

beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { log: captureLog } });
  const other = createSandboxWorld({ seed: 9, worldId: 'other-world', worldTitle: 'Other' });
  const { token } = harness.relay.services.connectionTokens.issue(OTHER_WORLD, 'other', 'demo');
  otherWorld = await connectSandbox(other, { relayUrl: harness.wsUrl, clientId: OTHER_WORLD, token });
  standIn = createServer(createRequestListener([...allRoutes, ...STAND_INS], harness.relay.services));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
});
afterAll(async () => {
  standIn?.closeAllConnections();
  standIn?.close();
  await otherWorld?.close();
  await harness?.close();
});

async function makeLink(overlay: OverlayName = 'dice', extra: Record<string, unknown> = {}): Promise<NewOverlayLink> {
  const made = await harness.admin<NewOverlayLink>('POST', '/admin/overlay-links', {
    overlay,
    clientId: harness.clientId,
    ...(overlay === 'character-card' ? { actorUuid: 'Actor.any' } : {}),
    ...extra,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}

function standInCall(path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call(standInUrl, 'GET', path, { query, headers });
}

function openStream(path: string, query: Record<string, string>): Promise<EventStream> {
  const url = new URL(path, standInUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const stream = new EventStream(url.toString(), '');
  return stream.ready.then(() => stream);
}

/** A route's path with its `{name}` segments filled in, as a caller would send it. */
function pathOf(route: Route): string {
  return route.path.replace(/\{documentType\}/, 'tokens').replace(/\{(\w+)\}/g, 'x');
}

describe('item 16: an overlay link opens its own overlay and nothing else', () => {
  it('opens its overlay as a read-only key of that overlay, world and user; the activity names the link, never its secret', async () => {
    const made = await makeLink('dice', { userId: 'Alice' });
    expect(made.link).toMatch(/^ttol_[\w-]{40,}$/);
    expect(made.url).toBe(`${harness.baseUrl}/overlays/dice?link=${made.link}`);
    expect(made.size).toEqual(OVERLAYS.dice.size);
    expect(made.record).toMatchObject({ overlay: 'dice', scopes: OVERLAYS.dice.scopes });
    expect(made.record.name).toMatch(/^Dice feed · .+/);

    const opened = await standInCall('/stand-in/dice/state', { link: made.link, extra: 'kept' });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toEqual({
      keyName: `Overlay link "${made.record.name}"`,
      scopes: OVERLAYS.dice.scopes,
      userId: 'Alice',
      linkId: made.record.id,
      secretMatches: true,
      parameters: { extra: 'kept' },
      world: harness.clientId,
    });

    const activity = await harness.admin('GET', '/admin/activity');
    expect(activity.body.entries).toContainEqual(
      expect.objectContaining({
        keyName: `Overlay link "${made.record.name}"`,
        path: '/stand-in/dice/state',
        status: 200,
      }),
    );
    expect(JSON.stringify(activity.body)).not.toContain(made.link);
    const listed = (await harness.admin('GET', '/admin/overlay-links')).body.links;
    const view = listed.find((link: { id: string }) => link.id === made.record.id);
    expect(view.lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(listed)).not.toContain(made.link);
  });

  it('cannot call any API route, sent as x-api-key or as ?link=, nor open /ws/api', async () => {
    const { link } = await makeLink();
    const keyed = allRoutes.filter((route) => scopeOf(route) !== undefined);
    const opened: string[] = [];
    for (const route of keyed) {
      const asKey = await call(harness.baseUrl, route.method, pathOf(route), { headers: { 'x-api-key': link } });
      if (asKey.status !== 401 || !String(asKey.body.error).includes('an overlay link only opens its overlay'))
        opened.push(`${route.method} ${route.path} as x-api-key: ${asKey.status} ${asKey.text}`);
      const inQuery = await call(harness.baseUrl, route.method, pathOf(route), { query: { link } });
      if (inQuery.status !== 401 || !String(inQuery.body.error).startsWith('API key is required'))
        opened.push(`${route.method} ${route.path} as ?link=: ${inQuery.status} ${inQuery.text}`);
    }
    expect(opened).toEqual([]);
    expect(keyed.length).toBeGreaterThan(50);
    const admin = await call(harness.baseUrl, 'GET', '/admin/overlay-links', { query: { link } });
    expect(admin.status).toBe(401);
    const socket = new ApiSocket(`${harness.wsUrl}/ws/api`, { 'x-api-key': link });
    expect((await within(socket.closed, 3000, 'the /ws/api socket closing')).code).toBe(4002);
  });

  it("cannot open another overlay's routes: 403 naming the overlay it is for", async () => {
    const { link } = await makeLink('dice');
    const refused = await standInCall('/stand-in/initiative/state', { link });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(
      'This overlay link is for the Dice feed overlay (/overlays/dice), not for initiative',
    );
    const others = OVERLAY_ROUTES.filter((route) => (route.access as { overlay: string }).overlay !== 'dice');
    for (const route of others) {
      const answer = await call(harness.baseUrl, route.method, pathOf(route), { query: { link } });
      expect(answer.status, `${route.method} ${route.path}`).toBe(403);
    }
  });

  it('an overlay route takes no API key, neither as x-api-key nor without a link', async () => {
    const refused = await standInCall('/stand-in/dice/state', {}, { 'x-api-key': harness.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatch(/^Overlay link is required/);
    const unknown = await standInCall('/stand-in/dice/state', { link: 'ttol_madeUpmadeUpmadeUpmadeUpmadeUp' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatch(/^Invalid overlay link/);
    for (const route of OVERLAY_ROUTES) {
      const answer = await call(harness.baseUrl, route.method, pathOf(route), {
        headers: { 'x-api-key': harness.key },
      });
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it('a link bound to world A cannot reach world B, with two worlds connected', async () => {
    expect(harness.relay.services.tabletop.world(OTHER_WORLD)).toBeDefined();
    const { link } = await makeLink('dice');
    expect((await standInCall('/stand-in/dice/state', { link })).body.world).toBe(harness.clientId);
    const streamed = await openStream('/stand-in/dice/rolls', { link, clientId: OTHER_WORLD });
    expect(streamed.status).toBe(403);
    expect(streamed.events[0]!.data).toContain('API key is not authorized for this client');
    const own = await openStream('/stand-in/dice/rolls', { link });
    expect(own.status).toBe(200);
    expect(own.events[0]!.data.clientId).toBe(harness.clientId);
    own.close();

    const unknownWorld = await harness.admin('POST', '/admin/overlay-links', {
      overlay: 'dice',
      clientId: 'fvtt_nosuchworld',
    });
    expect(unknownWorld.status).toBe(404);
    expect(unknownWorld.body.error).toContain('fvtt_nosuchworld');
  });

  it('keeps the key rules: the stream cap per owner, the rate limit and pause apply to a link', async () => {
    const { link } = await makeLink('dice');
    await harness.admin('PATCH', '/admin/settings', { streamsPerKey: 1 });
    try {
      const first = await openStream('/stand-in/dice/rolls', { link });
      expect(first.status).toBe(200);
      const second = await openStream('/stand-in/dice/rolls', { link });
      expect(second.status).toBe(429);
      first.close();
    } finally {
      await harness.admin('PATCH', '/admin/settings', { streamsPerKey: 20 });
    }
    await harness.admin('POST', '/admin/pause');
    try {
      expect((await standInCall('/stand-in/dice/state', { link })).status).toBe(503);
    } finally {
      await harness.admin('POST', '/admin/resume');
    }
    const limited = await standInCall('/stand-in/dice/state', { link });
    expect(limited.headers.get('ratelimit-limit')).toBe('1200');
  });
});

const KEY_PARAMETERS = ['link', 'apiKey', 'api_key', 'key', 'x-api-key', 'token', 'anything'];
const KEY_PATHS = ['/clients', '/overlays/dice', '/stand-in/dice/state', '/api/status', '/admin/status', '/nowhere'];

describe('item 16: an API key in a URL is refused, with why', () => {
  it.each(KEY_PARAMETERS)('in ?%s= on any path: 401 that explains, the key in no log or activity', async (name) => {
    logged.length = 0;
    for (const path of KEY_PATHS) {
      const answer = await standInCall(path, { clientId: harness.clientId, [name]: harness.key });
      expect(answer.status, path).toBe(401);
      expect(answer.body.error).toMatch(
        /^API keys are refused in URLs: a URL ends up in logs, browser history and OBS/,
      );
      expect(answer.body.error).toContain('x-api-key header');
      expect(answer.body.error).toContain('overlay link in the settings UI (Overlays)');
      expect(answer.body.error).toContain('rotate it');
    }
    const activity = (await harness.admin('GET', '/admin/activity')).body.entries;
    expect(activity[0]).toMatchObject({ keyName: 'test key', status: 401, path: '/nowhere' });
    expect(JSON.stringify(activity)).not.toContain(harness.key);
    expect(logged.join('\n')).not.toContain(harness.key);
  });

  it('refuses the /ws/api upgrade that carries a key in its query', async () => {
    const socket = new WebSocket(`${harness.wsUrl}/ws/api?token=${harness.key}`);
    const status = await new Promise<number>((resolve, reject) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => reject(new Error('the socket opened')));
      socket.once('error', () => {});
    });
    expect(status).toBe(401);
  });

  it('lets a key in the header through beside words that merely contain ttr_ (attr_…)', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/clients', {
      query: { note: 'attr_strength_modifier_value' },
      headers: { 'x-api-key': harness.key },
    });
    expect(answer.status).toBe(200);
  });

  it("the desktop app's log file masks links and keys, also as a URL's link=", () => {
    const { link } = { link: `ttol_${'A'.repeat(43)}` };
    const line = withoutSecrets(`GET /overlays/dice?link=${link}&theme=dark and ttr_${'K'.repeat(43)} and ${link}`);
    expect(line).not.toContain('AAAA');
    expect(line).not.toContain('KKKK');
    expect(line).toContain('link=…&theme=dark');
  });
});

const CHANGES: [string, (id: string) => Promise<Answer>][] = [
  ['revoked', (id) => harness.admin('DELETE', `/admin/overlay-links/${id}`)],
  ['rotated', (id) => harness.admin('POST', `/admin/overlay-links/${id}/rotate`)],
  ['changed', (id) => harness.admin('PATCH', `/admin/overlay-links/${id}`, { customCss: 'body { color: red }' })],
];

describe('item 16: a link that changes stops its overlay at once', () => {
  it.each(CHANGES)('a link %s ends its open stream within a second; other links stream on', async (change, act) => {
    const held = await makeLink('dice');
    const bystander = await makeLink('dice');
    const stream = await openStream('/stand-in/dice/rolls', { link: held.link });
    const other = await openStream('/stand-in/dice/rolls', { link: bystander.link });

    expect((await act(held.record.id)).status).toBe(200);
    await within(stream.ended, AT_ONCE_MS, `the stream of the ${change} link ending`);

    harness.world.simulate.playerRoll('Alice', `1d${CHANGES.findIndex(([name]) => name === change) + 4}`);
    await other.next('roll');
    other.close();
    const reopened = await standInCall('/stand-in/dice/state', { link: held.link });
    expect(reopened.status).toBe(change === 'changed' ? 200 : 401);
  });

  it("the dice overlay's own stream ends too", async () => {
    const events = OVERLAY_ROUTES.find((route) => route.path === '/overlays/dice/events');
    expect(events, 'the overlay route GET /overlays/dice/events, which this test closes').toBeDefined();
    const held = await makeLink('dice');
    const url = new URL('/overlays/dice/events', harness.baseUrl);
    url.searchParams.set('link', held.link);
    const stream = new EventStream(url.toString(), '');
    await within(
      stream.ready.catch(() => undefined),
      3000,
      'the overlay stream opening',
    );
    expect(stream.status).toBe(200);
    await harness.admin('DELETE', `/admin/overlay-links/${held.record.id}`);
    await within(stream.ended, AT_ONCE_MS, "the real overlay's stream ending");
  });
});

describe('item 16: a full disk makes, rotates or changes no overlay link', () => {
  let relay: TestRelay | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    injectedWriter.shortWrites = false;
    await relay?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    relay = dataDir = undefined;
    vi.restoreAllMocks();
  });

  it('making, rotating or changing a link on a full disk answers 507 and leaves every link as it was', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-overlay-links-'));
    relay = await startTestRelay({ dataDir, capture: false });
    relay.relay.services.knownWorlds.remember({ clientId: 'fvtt_diskworld00001', worldTitle: 'Disk' });
    const made: NewOverlayLink[] = [];
    for (let index = 0; index < 8; index += 1) {
      const answer = await relay.admin('POST', '/admin/overlay-links', {
        overlay: 'chat',
        clientId: 'fvtt_diskworld00001',
        customCss: `/* ${index} */ ${'.line { color: white } '.repeat(40)}`,
      });
      expect(answer.status).toBe(201);
      made.push(answer.body);
    }
    const file = join(dataDir, 'overlay-links.json');
    const before = readFileSync(file);
    expect(before.length).toBeGreaterThan(2 * 4096);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const list = async () => (await relay!.admin('GET', '/admin/overlay-links')).body.links;
    const listed = await list();

    injectedWriter.shortWrites = true;
    const id = made[0]!.record.id;
    const attempts = [
      relay.admin('POST', '/admin/overlay-links', { overlay: 'chat', clientId: 'fvtt_diskworld00001' }),
      relay.admin('POST', `/admin/overlay-links/${id}/rotate`),
      relay.admin('PATCH', `/admin/overlay-links/${id}`, { name: 'renamed on a full disk' }),
    ];
    for (const attempt of attempts) {
      const answer = await attempt;
      expect(answer.status).toBe(507);
      expect(answer.body.error).toMatch(/^The disk is full: nothing was changed/);
      expect(answer.body.link).toBeUndefined();
    }
    injectedWriter.shortWrites = false;

    expect(readFileSync(file).equals(before)).toBe(true);
    expect(await list()).toEqual(listed);
    for (const { link, record } of made) expect(relay.relay.services.overlayLinks.verify(link)?.id).toBe(record.id);
    injectedWriter.shortWrites = true;
    await relay.restart();
    injectedWriter.shortWrites = false;
    expect(JSON.stringify(errors.mock.calls)).not.toMatch(/ttol_[\w-]{8}/);
    for (const { link, record } of made) expect(relay.relay.services.overlayLinks.verify(link)?.id).toBe(record.id);
  });
});
