// Item 39: the player page's stream (GET /play/events) gives a player's key what that player sees in Foundry and no
// more: the world's events come as the GM sees them, so only an actor the player owns has its changes passed on, and
// the combat, the chat and what is playing are views built by asking the world as the player (the combat sorted as
// GET /encounters sorts it). Attacked as found: a player's key (what a stolen phone holds) asking for another's actor,
// and reading the stream while the GM hides combatants, whispers to others, changes other actors and owns the
// soundboard; over HTTP and /ws/api alike; the key revoked while the stream is open; and, in real Chromium, world text
// written to run script on the page that holds the key.
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_STORAGE_KEY } from '../../contracts/play.ts';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { PLAYER_SCOPES } from '../../relay/auth/scopes.ts';
import { ApiSocket, within } from '../harness/caller-api.ts';
import type { EventStream } from '../harness/sse.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
const ids: Record<string, string> = {};
/** Alice's key as her invitation makes it: bound to her and the world, with the player scopes. */
let alice: string;
let thorin: string;
let lyra: string;

const idOf = (name: string) => harness.world.game.actors.find((actor) => actor.name === name)!.id;

/** Alice's stream, following Thorin; the views it sent on opening are read before anything changes. */
async function aliceStream(): Promise<EventStream> {
  const stream = await harness.stream('/play/events', { actorUuid: thorin }, alice);
  expect(stream.status).toBe(200);
  await Promise.all(['combat', 'chat', 'playing'].map((view) => stream.next(view)));
  return stream;
}

/** The view of this name the stream sent last, once that one satisfies `where`. */
async function lastView(stream: EventStream, name: string, where: (view: any) => boolean): Promise<any> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const last = stream.events.filter((event) => event.name === name).at(-1);
    if (last && where(last.data)) return last.data;
    if (Date.now() > deadline) throw new Error(`no ${name} view as expected: ${JSON.stringify(last?.data)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  harness = await startRelayWithWorld();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if ((await harness.admin('GET', '/admin/status')).body.worlds[0]?.players.length) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const user of harness.world.game.users.contents) ids[user.name] = user.id;
  alice = await harness.keyWith(PLAYER_SCOPES, { userId: ids.Alice, worldIds: [harness.clientId] });
  [thorin, lyra] = await Promise.all([uuidOf(harness, 'Thorin Ironfoot'), uuidOf(harness, 'Lyra Moonwhisper')]);
});
afterAll(() => harness?.close());

describe("item 39: the player page's stream shows a player what they see in Foundry", () => {
  it('refuses to follow an actor the player does not own, over HTTP and /ws/api', async () => {
    const goblin = await uuidOf(harness, 'Goblin');
    for (const actorUuid of [lyra, goblin]) {
      const refused = await harness.stream('/play/events', { actorUuid }, alice);
      expect(refused.status).toBe(403);
      expect(refused.events[0]!.data).toContain('Alice, who does not own that actor in Foundry');
    }
    const socket = await ApiSocket.open(harness.wsUrl, alice);
    try {
      socket.send({ type: 'play-events', requestId: 'other', actorUuid: lyra });
      const answer = await socket.next((message) => message.requestId === 'other');
      expect(answer).toMatchObject({ type: 'play-events-result', status: 403 });
    } finally {
      socket.close();
    }
    expect((await harness.api(alice, 'GET', '/play/me')).body.characters).toEqual([
      { uuid: thorin, name: 'Thorin Ironfoot' },
    ]);
  });

  it("passes on the changes of the player's own actor only, over HTTP and /ws/api", async () => {
    const stream = await aliceStream();
    const socket = await ApiSocket.open(harness.wsUrl, alice);
    try {
      socket.send({ type: 'play-events', requestId: 'mine', actorUuid: thorin });
      expect(await socket.next((message) => message.requestId === 'mine')).toMatchObject({
        type: 'play-events-result',
        actorUuid: thorin,
      });
      harness.world.simulate.updateActor(idOf('Lyra Moonwhisper'), { 'system.attributes.hp.value': 3 });
      harness.world.simulate.updateActor(idOf('Thorin Ironfoot'), { 'system.attributes.hp.value': 30 });
      const own = await stream.next('actor-update');
      expect(own.data.data.actorUuid).toBe(thorin);
      const actorEvents = stream.events.filter((event) => event.name.startsWith('actor-'));
      expect(actorEvents.map((event) => event.data.data.actorUuid)).toEqual([thorin]);
      expect(JSON.stringify(stream.events)).not.toContain(lyra);
      const frame = await socket.next(
        (message) => message.type === 'play-events-event' && message.event === 'actor-update',
      );
      expect(frame.data.data.actorUuid).toBe(thorin);
      expect(JSON.stringify(socket.received)).not.toContain(lyra);
    } finally {
      socket.close();
      stream.close();
    }
  });

  it("leaves out the combatants the GM hid but the player's own, and no turn while a hidden one has it", async () => {
    const stream = await aliceStream();
    const combat = harness.world.simulate.startCombat();
    try {
      const combatants = combat.collection('Combatant').contents;
      const mine = combatants.find((combatant) => combatant.source.actorId === idOf('Thorin Ironfoot'))!;
      const secret = combatants.find((combatant) => combatant.source.actorId !== idOf('Thorin Ironfoot'))!;
      for (const hidden of [mine, secret]) harness.world.game.updateDocument(hidden, { hidden: true });
      const view = await lastView(
        stream,
        'combat',
        (shown) => shown.active && shown.combatants.length === combatants.length - 1,
      );
      expect(view.combatants.map((shown: { id: string }) => shown.id)).not.toContain(secret.id);
      expect(view.combatants.find((shown: { id: string }) => shown.id === mine.id)).toMatchObject({ mine: true });
      expect(JSON.stringify(stream.events)).not.toContain(secret.id);

      const order = (await harness.get('/encounters')).body.encounters.find((e: { id: string }) => e.id === combat.id);
      const turnOrder = [...order.combatants].sort(
        (a: { initiative: number | null }, b: { initiative: number | null }) =>
          (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity),
      );
      harness.world.game.updateDocument(combat, {
        turn: turnOrder.findIndex((shown: { id: string }) => shown.id === secret.id),
      });
      expect((await lastView(stream, 'combat', (shown) => shown.turn === null)).turn).toBeNull();
    } finally {
      harness.world.simulate.endCombat();
      stream.close();
    }
  });

  it("shows no whisper between others, and the player's own", async () => {
    const stream = await aliceStream();
    try {
      const bob = await harness.keyWith(PLAYER_SCOPES, { userId: ids.Bob, worldIds: [harness.clientId] });
      const toCarol = await harness.api(bob, 'POST', '/chat', {
        body: { content: 'Only Carol reads this', whisper: ids.Carol },
      });
      expect(toCarol.status, toCarol.text).toBe(200);
      await harness.post('/chat', { content: 'The GM tells Bob alone', whisper: [ids.Bob] });
      await harness.api(bob, 'POST', '/chat', { body: { content: 'Bob whispers to Alice', whisper: ids.Alice } });
      await harness.post('/chat', { content: 'Everyone hears this' });
      const chat = await lastView(stream, 'chat', (lines) =>
        lines.some((line: { text: string }) => line.text === 'Everyone hears this'),
      );
      const texts = chat.map((line: { text: string }) => line.text);
      expect(texts).toContain('Bob whispers to Alice');
      expect(JSON.stringify(stream.events)).not.toContain('Only Carol reads this');
      expect(JSON.stringify(stream.events)).not.toContain('The GM tells Bob alone');
    } finally {
      stream.close();
    }
  });

  it("shows what is playing, never the GM's playlists that are not", async () => {
    const stream = await aliceStream();
    try {
      harness.world.simulate.changeTrack();
      const playing = await lastView(stream, 'playing', (tracks) => tracks.length > 0);
      const asGm = (await harness.get('/playlists')).body.data.playlists as {
        name: string;
        sounds: { name: string; playing: boolean }[];
      }[];
      const nowPlaying = asGm.flatMap((playlist) =>
        playlist.sounds
          .filter((sound) => sound.playing)
          .map((sound) => ({ playlist: playlist.name, track: sound.name })),
      );
      expect(playing).toEqual(nowPlaying);
      const silent = asGm.flatMap((playlist) => playlist.sounds.filter((sound) => !sound.playing).map((s) => s.name));
      for (const name of silent) expect(JSON.stringify(stream.events)).not.toContain(`"${name}"`);
    } finally {
      stream.close();
    }
  });

  it('stops following an actor once the GM takes it from the player', async () => {
    const pip = await uuidOf(harness, 'Pip Thistledown');
    const pipDocument = harness.world.game.actors.get(idOf('Pip Thistledown'))!;
    harness.world.game.updateDocument(pipDocument, { [`ownership.${ids.Alice}`]: 3 });
    const stream = await harness.stream('/play/events', { actorUuid: pip }, alice);
    expect(stream.status).toBe(200);
    harness.world.game.updateDocument(pipDocument, { [`ownership.${ids.Alice}`]: 0 });
    await within(stream.ended, 3000, 'the stream to end');
    expect(stream.events.some((event) => event.name === 'actor-update')).toBe(false);
    expect((await harness.stream('/play/events', { actorUuid: pip }, alice)).status).toBe(403);
  });

  it('a stolen phone is signed out at once: revoking its key ends the stream and every call', async () => {
    const device = await harness.keyWith(PLAYER_SCOPES, { userId: ids.Alice, worldIds: [harness.clientId] });
    const stream = await harness.stream('/play/events', { actorUuid: thorin }, device);
    const keys = (await harness.admin('GET', '/admin/keys')).body.keys as { id: string; prefix: string }[];
    const id = keys.find((key) => device.startsWith(key.prefix) && key.prefix.length > 4)!.id;
    await harness.admin('DELETE', `/admin/keys/${id}`);
    await within(stream.ended, 3000, 'the stream to end');
    expect((await harness.api(device, 'GET', '/play/me')).status).toBe(401);
  });

  it('acts as one user: a key bound to none is refused', async () => {
    const unbound = await harness.keyWith(PLAYER_SCOPES);
    for (const path of ['/play/me', '/play/events']) {
      const refused = await harness.api(unbound, 'GET', path);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('The player page acts as one user, and this key is bound to none');
    }
  });
});

describe('item 39: the player page in a browser keeps its key from what the world says', () => {
  let browser: Browser;
  beforeAll(async () => {
    [browser] = await Promise.all([launchChromium(), buildRenderer()]);
  }, 20_000);
  afterAll(() => browser?.close());

  it('runs nothing a world text carries: names and chat show as text, and only the relay is asked', async () => {
    const trap = '<img src=/stolen onerror="window.stolen=localStorage.getItem(\'tabletop-relay.player\')">';
    harness.world.simulate.updateActor(idOf('Thorin Ironfoot'), { name: `Thorin ${trap}` });
    await harness.post('/chat', { content: `<script>window.stolen = 1</script>${trap} Look out!` });
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    try {
      const answer = await page.goto(`${harness.baseUrl}/play/`);
      const policy = answer!.headers()['content-security-policy']!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).toContain("frame-ancestors 'none'");
      await page.evaluate(
        (storageKey, key) =>
          localStorage.setItem(storageKey, JSON.stringify({ key, name: 'Alice', userName: 'Alice' })),
        PLAY_STORAGE_KEY,
        alice,
      );
      await page.reload();
      await page.waitForFunction(
        (name) => document.querySelector('#character-name')?.textContent === name,
        {},
        `Thorin ${trap}`,
      );
      await page.click('[data-tab="table"]');
      await page.waitForFunction(() => document.body.innerText.includes('Look out!'));
      expect(await page.evaluate(() => (window as unknown as { stolen?: unknown }).stolen)).toBeUndefined();
      expect(await page.$$('#content img')).toHaveLength(0);
      for (const url of asked) expect(new URL(url).origin).toBe(harness.baseUrl);
      expect(asked.some((url) => new URL(url).pathname === '/stolen')).toBe(false);
    } finally {
      await page.close();
      harness.world.simulate.updateActor(idOf(`Thorin ${trap}`), { name: 'Thorin Ironfoot' });
    }
  });
});
