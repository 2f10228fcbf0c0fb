// Item 23: a player's key (the invitation's scopes, bound to a user who is not a GM) got what the GM sees from the
// routes whose answers the world's module does not narrow by user: the GM's whispered rolls and rolls never posted to
// chat (GET /rolls, /lastroll and their /ws/api operations), combatants the GM hid (GET /encounters), the map of a scene
// the player may not view (GET /scene/image/raw), hidden tokens on the canvas, the GM's canvas render and the GM's
// soundboard. Every keyed route now says in its table entry what a player gets; the attacks run against a Foundry 13
// and a Foundry 14 world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_SCOPES } from '../../relay/auth/scopes.ts';
import { openApiDocument } from '../../relay/api/openapi.ts';
import { allRoutes, routeGroups } from '../../relay/routes.ts';
import { scopeOf } from '../../relay/routing/route.ts';
import { postRoll, userIdsByName } from '../harness/chat-rolls.ts';
import { ApiSocket } from '../harness/caller-api.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

describe('item 23: one table says what each keyed route gives a player', () => {
  it('every keyed route declares whether its answer passes, is refused or is sorted, and why', () => {
    const keyed = allRoutes.filter((route) => scopeOf(route) !== undefined);
    const undecided = keyed.filter((route) => route.playerView === undefined).map((r) => `${r.method} ${r.path}`);
    expect(undecided).toEqual([]);
    for (const route of keyed) {
      const view = route.playerView!;
      const why = 'passes' in view ? view.passes : 'refused' in view ? view.refused : view.sorted;
      expect(why.length, `${route.method} ${route.path}`).toBeGreaterThan(20);
      if ('sort' in view) expect(route.kind, `${route.method} ${route.path}`).toBe('world');
    }
  });

  it('/openapi.json tells a tool what a player key gets from each route', () => {
    const paths = openApiDocument(routeGroups, 'http://127.0.0.1:3010').paths as Record<string, any>;
    expect(paths['/rolls'].get.description).toContain('A key bound to a player gets the rolls the user made');
    expect(paths['/playlists'].get.description).toContain('Refused (403) to a key bound to a player');
    expect(paths['/get'].get.description).toContain('the world answers as the user');
  });
});

describe.each(['13.348', '14.366'])('item 23: a player key on a Foundry %s world', (foundryVersion) => {
  let harness: WorldHarness;
  let ids: Record<string, string>;
  let player: string;
  beforeAll(async () => {
    harness = await startRelayWithWorld({ foundryVersion, relay: { settings: { requestsPerMinute: 0 } } });
    ids = userIdsByName(harness);
    player = await harness.keyWith(PLAYER_SCOPES, { userId: ids.Bob, worldIds: [harness.clientId] });
  });
  afterAll(() => harness.close());

  const idsOf = (rolls: Array<{ id: string }>) => rolls.map((roll) => roll.id);

  it("GET /rolls and /lastroll give the player their rolls and those they see, never the GM's whispers or unposted rolls", async () => {
    // The module records rolls made in Foundry only while someone listens to the roll stream.
    const stream = await harness.stream('/rolls/subscribe');
    const sentinel = postRoll(harness, 'Carol', '1d4');
    await stream.next('roll', { where: ({ data }) => data.id === sentinel });
    const publicRoll = postRoll(harness, 'Alice', '1d6');
    const toBob = postRoll(harness, 'Gamemaster', '1d8', ['Bob']);
    const bobsBlind = postRoll(harness, 'Bob', '1d10', ['Gamemaster']);
    const gmRoll = postRoll(harness, 'Gamemaster', '1d20', ['Gamemaster', 'Assistant GM']);
    await stream.next('roll', { where: ({ data }) => data.id === gmRoll });
    const unposted = (await harness.post('/roll', { formula: '1d100', flavor: 'behind the screen' })).body.data.id;

    const asGm = idsOf((await harness.get('/rolls')).body.data);
    expect(asGm).toEqual(expect.arrayContaining([unposted, gmRoll, bobsBlind, toBob, publicRoll]));

    const rolls = await harness.api(player, 'GET', '/rolls');
    expect(rolls.status, rolls.text).toBe(200);
    expect(idsOf(rolls.body.data).slice(0, 4)).toEqual([bobsBlind, toBob, publicRoll, sentinel]);
    const one = await harness.api(player, 'GET', '/rolls', { query: { limit: 1 } });
    expect(idsOf(one.body.data)).toEqual([bobsBlind]);
    const last = await harness.api(player, 'GET', '/lastroll');
    expect(last.body.data.id).toBe(bobsBlind);
    expect(last.text).not.toContain('behind the screen');

    const caller = await ApiSocket.open(harness.wsUrl, player);
    try {
      caller.send({ type: 'rolls', requestId: 'r' });
      caller.send({ type: 'last-roll', requestId: 'l' });
      const wsRolls = await caller.next((message) => message.requestId === 'r');
      expect(idsOf(wsRolls.data)).not.toContain(gmRoll);
      expect(idsOf(wsRolls.data)).not.toContain(unposted);
      expect((await caller.next((message) => message.requestId === 'l')).data.id).toBe(bobsBlind);
    } finally {
      caller.close();
    }
  });

  it("GET /encounters leaves out the combatants the GM hid, but not the player's own, and keeps the turn right", async () => {
    const combat = harness.world.simulate.startCombat();
    const combatants = combat.collection('Combatant').contents;
    const lyra = combatants.find(
      (combatant) => harness.world.game.actors.get(combatant.source.actorId as string)?.name === 'Lyra Moonwhisper',
    )!;
    const secret = combatants.find((combatant) => combatant !== lyra)!;
    for (const hidden of [secret, lyra]) harness.world.game.updateDocument(hidden, { hidden: true });
    const ofCombat = (body: any) => body.encounters.find((encounter: { id: string }) => encounter.id === combat.id);

    const asGm = ofCombat((await harness.get('/encounters')).body);
    expect(asGm.combatants.map((c: { id: string }) => c.id)).toContain(secret.id);
    const seen = await harness.api(player, 'GET', '/encounters');
    expect(seen.status, seen.text).toBe(200);
    const asBob = ofCombat(seen.body);
    const shownIds = asBob.combatants.map((c: { id: string }) => c.id);
    expect(shownIds).not.toContain(secret.id);
    expect(shownIds).toContain(lyra.id);
    expect(shownIds).toHaveLength(combatants.length - 1);

    const order = [...asGm.combatants].sort((a, b) => (b.initiative ?? -1) - (a.initiative ?? -1));
    harness.world.game.updateDocument(combat, { turn: order.findIndex((c: { id: string }) => c.id === secret.id) });
    expect(ofCombat((await harness.api(player, 'GET', '/encounters')).body).turn).toBeNull();

    const caller = await ApiSocket.open(harness.wsUrl, player);
    try {
      caller.send({ type: 'encounters', requestId: 'e' });
      const answer = await caller.next((message) => message.requestId === 'e');
      expect(JSON.stringify(answer)).not.toContain(secret.id);
    } finally {
      caller.close();
      harness.world.simulate.endCombat();
    }
  });

  it('GET /scene/image/raw gives the map of the active scene only, not of a scene the player may not view', async () => {
    const scenes = harness.world.game.scenes.contents;
    const active = scenes.find((scene) => scene.source.active === true)!;
    const hiddenAway = scenes.find((scene) => scene.source.active !== true)!;
    const refused = await harness.api(player, 'GET', '/scene/image/raw', { query: { sceneId: hiddenAway.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('Bob, who may not view that scene');
    expect(refused.text).not.toContain('imageData');
    const ownScene = await harness.api(player, 'GET', '/scene/image/raw', { query: { sceneId: active.id } });
    expect(ownScene.status, ownScene.text).toBe(200);
    expect(ownScene.body.data.sceneId).toBe(active.id);
    harness.world.game.updateDocument(hiddenAway, { ownership: { default: 0, [ids.Bob!]: 1 } });
    const shared = await harness.api(player, 'GET', '/scene/image/raw', { query: { sceneId: hiddenAway.id } });
    expect(shared.status, shared.text).toBe(200);
    harness.world.game.updateDocument(hiddenAway, { ownership: { default: 0 } });
  });

  it("the canvas holds no token the GM hid, and the GM's render of the scene is refused", async () => {
    const active = harness.world.game.activeScene()!;
    // The world shows a scene's documents to a user with at least LIMITED on it.
    harness.world.game.updateDocument(active, { ownership: { default: 0, [ids.Bob!]: 1 } });
    const tokens = await harness.api(player, 'GET', '/canvas/tokens');
    expect(tokens.status, tokens.text).toBe(200);
    const asGm = (await harness.get('/canvas/tokens')).body.data as Array<{ hidden?: boolean; name: string }>;
    const hidden = asGm.filter((token) => token.hidden === true).map((token) => token.name);
    expect(hidden.length).toBeGreaterThan(0);
    expect(tokens.body.data.some((token: { hidden?: boolean }) => token.hidden === true)).toBe(false);
    const measured = await harness.api(player, 'GET', '/measure-distance', {
      query: { originName: 'Lyra Moonwhisper', targetName: hidden[0]! },
    });
    expect(measured.status).toBe(400);
    expect(measured.body.error).toBe(`Target token not found: ${hidden[0]}`);
    const render = await harness.api(player, 'GET', '/scene/image');
    expect(render.status).toBe(403);
    expect(render.body.error).toContain("rendered from the GM's canvas");
    harness.world.game.updateDocument(active, { ownership: { default: 0 } });
  });

  it("the GM's soundboard stays with GM-level keys", async () => {
    const playlists = await harness.api(
      await harness.keyWith(['playlist:control'], { userId: ids.Bob }),
      'GET',
      '/playlists',
    );
    expect(playlists.status).toBe(403);
    expect(playlists.body.error).toContain('This key acts as Bob, who is not a GM in this world');
  });
});
