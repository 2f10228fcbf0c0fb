// The world link as the unmodified module 3.4.1 sees it (module-protocol.md §2.3, §2.4, §2.5, §4.8): the subscription
// state it is told after every auth-success, and what a second GM tab of the same world meets. Frame by frame with a
// raw world, and with the sandbox world's link, which reacts to close codes as the module does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EVENT_CHANNELS, type EventChannel } from '../../contracts/streams.ts';
import { MAX_REFUSED_PAGE_SOCKETS } from '../../relay/gate/socket-limits.ts';
import { connectSandbox, createSandboxWorld, type SandboxLink, type SandboxWorld } from '../../sandbox/index.ts';
import { within } from '../harness/caller-api.ts';
import { connectRawWorld, RawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { EventStream } from '../harness/sse.ts';

const CLIENT_ID = 'fvtt_0123456789abcdef';
/** How long the relay waits for a connected world's pong when a second connection of it arrives. */
const LIVENESS_PROBE_MS = 300;
/** The module retries every 30 s after a 4004; the sandbox link here, every 150 ms. */
const DEFERRED_RETRY_MS = 150;

let harness: TestRelay;
let token: string;
const streams: EventStream[] = [];
const links: SandboxLink[] = [];

beforeEach(async () => {
  // The heartbeat is far off, so only the probe at a newcomer's arrival can find a world silent.
  harness = await startTestRelay({ heartbeatIntervalMs: 60_000, livenessProbeMs: LIVENESS_PROBE_MS });
  token = harness.relay.services.connectionTokens.issue(CLIENT_ID, 'GM browser', 'pairing').token;
});
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(links.splice(0).map((link) => link.close()));
  await harness.close();
});

async function subscribe(path: string): Promise<EventStream> {
  const key = await harness.createKey({ scopes: ['events:subscribe'] });
  const url = new URL(path, harness.baseUrl);
  url.searchParams.set('clientId', CLIENT_ID);
  const stream = new EventStream(url.toString(), key);
  streams.push(stream);
  await stream.ready;
  return stream;
}

function subscriptionUpdates(world: RawWorld): { channel: EventChannel; count: number }[] {
  return world.received
    .filter((message) => message.type === 'event-subscription-update')
    .map(({ channel, count }) => ({ channel, count }));
}

/** The state the relay tells a world right after auth-success: one event-subscription-update per channel. */
async function stateAfterAuth(world: RawWorld): Promise<Record<string, number>> {
  await world.next((message) => message.type === 'event-subscription-update' && message.channel === 'scene-events');
  const state: Record<string, number> = {};
  for (const { channel, count } of subscriptionUpdates(world)) state[channel] = count;
  return state;
}

/** Answers the next `rolls` request on this world with a marker, and returns what the API caller got. */
async function rollsAnsweredBy(world: RawWorld, marker: string): Promise<unknown> {
  const tool = await harness.createKey({ scopes: ['roll:read'] });
  world.received.length = 0;
  const pending = harness.api(tool, 'GET', '/rolls', { query: { clientId: CLIENT_ID } });
  const request = await world.next((message) => message.type === 'rolls');
  world.send({ type: 'rolls-result', requestId: request.requestId, data: [marker] });
  return (await pending).body.data;
}

/** Which sandbox world answers a world-info call through the relay. */
async function worldAnswering(worlds: SandboxWorld[]): Promise<number> {
  const seen = worlds.map(() => 0);
  const originals = worlds.map((world) => world.handle.bind(world));
  worlds.forEach((world, index) => {
    world.handle = async (request) => {
      seen[index]++;
      return originals[index](request);
    };
  });
  try {
    const tool = await harness.createKey({ scopes: ['world:info'] });
    const answer = await harness.api(tool, 'GET', '/world-info', { query: { clientId: CLIENT_ID } });
    expect(answer.status).toBe(200);
  } finally {
    worlds.forEach((world, index) => (world.handle = originals[index]));
  }
  expect(seen.filter((count) => count > 0)).toHaveLength(1);
  return seen.findIndex((count) => count > 0);
}

function startLink(world: SandboxWorld): { link: Promise<SandboxLink> } {
  const link = connectSandbox(world, {
    relayUrl: harness.wsUrl,
    clientId: CLIENT_ID,
    token,
    reconnect: true,
    reconnectBaseDelayMs: 50,
    deferredRetryMs: DEFERRED_RETRY_MS,
  });
  void link.then((opened) => links.push(opened));
  return { link };
}

describe('§4.8: the full subscription state right after every auth-success', () => {
  it('tells a world nobody listens to that every channel is at zero, right after auth-success', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    await stateAfterAuth(world);
    expect(world.received.slice(0, 1 + EVENT_CHANNELS.length)).toEqual([
      { type: 'auth-success' },
      ...EVENT_CHANNELS.map((channel) => ({ type: 'event-subscription-update', channel, count: 0 })),
    ]);
    world.close();
  });

  it('tells a reconnecting world the counts as they are now, a channel whose subscribers left while it was away at zero', async () => {
    const first = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const rolls = await subscribe('/rolls/subscribe');
    await subscribe('/chat/subscribe');
    await first.next((message) => message.channel === 'chat-events' && message.count === 1);
    first.close();
    await expect.poll(() => harness.relay.services.tabletop.world(CLIENT_ID)).toBeUndefined();
    rolls.close();
    await expect.poll(() => harness.relay.services.events.count(CLIENT_ID, 'roll')).toBe(0);

    const again = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    expect(await stateAfterAuth(again)).toEqual({
      'roll-events': 0,
      'chat-events': 1,
      hooks: 0,
      'combat-events': 0,
      'actor-events': 0,
      'scene-events': 0,
    });
    again.close();
  });

  it('turns off, after a relay restart, the channels the sandbox world still pushes on', async () => {
    const world = createSandboxWorld({ seed: 7 });
    const link = await startLink(world).link;
    await subscribe('/rolls/subscribe');
    await expect.poll(() => world.enabledChannels()).toEqual(['roll-events']);

    await harness.restart();
    await expect.poll(() => harness.relay.services.tabletop.world(CLIENT_ID)).toBeDefined();
    await expect.poll(() => world.enabledChannels()).toEqual([]);
    expect(link.connected).toBe(true);
  });
});

describe('§2.4: a second GM tab of the same world', () => {
  it('two live tabs: the newcomer gets 4004 before any auth-success, the first keeps working, and once it closes the retry gets in', async () => {
    const first = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const second = new RawWorld(harness.wsUrl, { id: CLIENT_ID });
    await second.opened;
    second.send({ type: 'auth', token });
    expect(await within(second.closed, 1000, 'the refusal')).toEqual({
      code: 4004,
      reason: 'Client ID already connected',
    });
    expect(second.received).toEqual([]);
    expect(first.socket.readyState).toBe(WebSocket.OPEN);
    expect(await rollsAnsweredBy(first, 'from the first tab')).toEqual(['from the first tab']);

    first.close();
    await first.closed;
    const retry = await within(connectRawWorld(harness.wsUrl, CLIENT_ID, token), 1000, 'the retry getting in');
    expect(await rollsAnsweredBy(retry, 'from the second tab')).toEqual(['from the second tab']);
    retry.close();
  });

  it('a reload whose old socket went silent: a 2.x key still gets 4004, the same token takes over, the silent one is told 4004', async () => {
    const old = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    old.socket.pause();

    const key = (
      await harness.admin('POST', '/admin/world-links', { clientId: CLIENT_ID, foundryUrl: 'http://localhost:30000' })
    ).body.key;
    const legacy = new RawWorld(harness.wsUrl, { id: CLIENT_ID, token: key }, { path: '/' });
    expect(await within(legacy.closed, 1000, 'the 2.x refusal')).toEqual({
      code: 4004,
      reason: 'Client ID already connected',
    });

    const started = Date.now();
    const reloaded = await within(connectRawWorld(harness.wsUrl, CLIENT_ID, token), 2000, 'the reload getting in');
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIVENESS_PROBE_MS - 20);
    expect(await rollsAnsweredBy(reloaded, 'from the reloaded tab')).toEqual(['from the reloaded tab']);

    old.socket.resume();
    expect((await within(old.closed, 2000, 'the silent socket closing')).code).toBe(4004);
    expect(old.received.some((message) => message.type === 'rolls')).toBe(false);
    reloaded.close();
  });

  it('two sandbox links: the second defers on 4004 while the first answers, and takes the world when the first closes', async () => {
    const worlds = [createSandboxWorld({ seed: 7 }), createSandboxWorld({ seed: 7 })];
    const first = await startLink(worlds[0]).link;
    const second = startLink(worlds[1]).link;

    await new Promise((resolve) => setTimeout(resolve, DEFERRED_RETRY_MS * 3));
    expect(first.connected).toBe(true);
    expect(await worldAnswering(worlds)).toBe(0);

    await first.close();
    const taken = await within(second, 2000, 'the second tab getting in');
    expect(taken.connected).toBe(true);
    expect(await worldAnswering(worlds)).toBe(1);
  });
});

describe('§2.3: a credential the relay no longer knows is told so with 1008, from any page', () => {
  const PAGED_CLIENT_ID = 'fvtt_pagedworld0000';
  const FOUNDRY = 'http://localhost:30000';
  const UNRELATED = 'http://unrelated.example';

  /** Opens /relay as a page of `origin` (or a program, without one), sends the token and says how the relay ended it. */
  async function endingFor(credential: string, origin: string | undefined): Promise<{ code: number; reason: string }> {
    const world = new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID }, { origin });
    await world.opened;
    world.send({ type: 'auth', token: credential });
    const ending = await within(world.closed, 2000, `the end of ${origin ?? 'a program'}'s socket`);
    expect(world.received).toEqual([]);
    return ending;
  }

  it('a revoked token gets 1008 from the page it was paired on, from another page and from a program alike', async () => {
    const { token: paired, record } = harness.relay.services.connectionTokens.issue(
      PAGED_CLIENT_ID,
      'GM browser',
      'pairing',
      FOUNDRY,
    );
    expect((await harness.admin('DELETE', `/admin/connection-tokens/${record.id}`)).status).toBe(200);
    for (const origin of [FOUNDRY, UNRELATED, undefined]) {
      expect({ origin, ending: await endingFor(paired, origin) }).toEqual({
        origin,
        ending: { code: 1008, reason: 'Authentication failed' },
      });
    }
  });

  it('a valid token from a page its world was not paired on is still refused, with 4403, which the module retries on', async () => {
    const { token: paired } = harness.relay.services.connectionTokens.issue(
      PAGED_CLIENT_ID,
      'GM browser',
      'pairing',
      FOUNDRY,
    );
    expect(await endingFor(paired, UNRELATED)).toEqual({
      code: 4403,
      reason: "This page may not connect this world: allow its origin in Tabletop Relay's settings (Access)",
    });
    const fromItsPage = new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID }, { origin: FOUNDRY });
    await fromItsPage.opened;
    fromItsPage.send({ type: 'auth', token: paired });
    await fromItsPage.next((message) => message.type === 'auth-success');
    fromItsPage.close();
  });

  it('a revoked 2.x key gets 1008 from its Foundry page, where the module stops for good', async () => {
    const link = await harness.admin('POST', '/admin/world-links', { clientId: PAGED_CLIENT_ID, foundryUrl: FOUNDRY });
    expect((await harness.admin('DELETE', `/admin/keys/${link.body.id}`)).status).toBe(200);
    for (const origin of [FOUNDRY, UNRELATED]) {
      const legacy = new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID, token: link.body.key }, { origin, path: '/' });
      expect({ origin, ending: await within(legacy.closed, 2000, 'the 2.x refusal') }).toEqual({
        origin,
        ending: { code: 1008, reason: 'Invalid API key' },
      });
    }
  });

  it('pages its world was not paired on wait in places of their own, so they keep no world out', async () => {
    const { token: paired } = harness.relay.services.connectionTokens.issue(
      PAGED_CLIENT_ID,
      'GM browser',
      'pairing',
      FOUNDRY,
    );
    const strangers = Array.from(
      { length: MAX_REFUSED_PAGE_SOCKETS },
      () => new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID }, { origin: UNRELATED }),
    );
    await Promise.all(strangers.map((stranger) => stranger.opened));
    const oneMore = new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID }, { origin: UNRELATED });
    await expect(oneMore.opened).rejects.toThrow(/503/);
    const world = new RawWorld(harness.wsUrl, { id: PAGED_CLIENT_ID }, { origin: FOUNDRY });
    await world.opened;
    world.send({ type: 'auth', token: paired });
    await world.next((message) => message.type === 'auth-success');
    world.close();
    for (const stranger of strangers) stranger.close();
  });
});
