// The Companion module driven by a stand-in of Companion (companion-host.ts) against a relay with the sandbox world,
// over real sockets: each action changes the world, variables and feedbacks follow the world's events within 500 ms,
// the status follows the relay going away and coming back, and the key never reaches a log line. Once on a Foundry 13
// world and once on a 14 one.
import { InstanceStatus } from '@companion-module/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECK_SCOPES } from '../../integrations/client/actions.ts';
import { GREEN, AMBER, RED } from '../../integrations/companion/feedbacks.ts';
import { NO_KEY_MESSAGE } from '../../integrations/companion/status.ts';
import TabletopRelayInstance from '../../integrations/companion/main.ts';
import { DEFAULT_SETTINGS } from '../../relay/storage/settings.ts';
import { combatantName } from '../../sandbox/events.ts';
import { currentCombatant } from '../../sandbox/world/combat.ts';
import { freePort } from '../harness/ports.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { CompanionHost, waitFor, type PlacedFeedback } from './companion-host.ts';

const FOUNDRY_VERSIONS = ['13.348', '14.366'];
/** Events reach the buttons within this: the bound for a change in the world to show on a key. */
const FOLLOW_MS = 500;

describe.each(FOUNDRY_VERSIONS)('Companion module on a Foundry %s world', (foundryVersion) => {
  let harness: WorldHarness;
  let host: CompanionHost;
  let key: string;
  let goblin: string;
  let thorin: string;

  /** What the world itself says of its combat: round and whose turn it is. */
  function worldCombat() {
    const game = harness.world.game;
    const combat = game.activeCombat()!;
    const current = currentCombatant(game, combat);
    return { round: combat.source.round as number, current: current ? combatantName(game, current) : undefined };
  }

  async function playlistNamed(name: string) {
    const answer = await harness.get('/playlists');
    return answer.body.data.playlists.find((playlist: { name: string }) => playlist.name === name);
  }

  function variable(name: string) {
    return host.variables.get(name);
  }

  /** Waits for a variable to hold `value`, within FOLLOW_MS of now. */
  async function follows(name: string, value: unknown) {
    const { ms } = await waitFor(`${name} = ${String(value)}`, () => variable(name) === value, 3000);
    expect(ms, `${name} followed in ${Math.round(ms)} ms`).toBeLessThanOrEqual(FOLLOW_MS);
  }

  async function feedbackFollows(feedback: PlacedFeedback, value: unknown) {
    const { ms } = await waitFor(
      `${feedback.feedbackId} = ${JSON.stringify(value)}`,
      () => JSON.stringify(feedback.value) === JSON.stringify(value),
      3000,
    );
    expect(ms, `${feedback.feedbackId} followed in ${Math.round(ms)} ms`).toBeLessThanOrEqual(FOLLOW_MS);
  }

  beforeAll(async () => {
    // A port of its own, so that the relay comes back where the module looks for it.
    harness = await startRelayWithWorld({
      foundryVersion,
      relay: { port: await freePort() },
      link: { reconnect: true, reconnectBaseDelayMs: 100 },
    });
    harness.world.game.settings.allowMacroExecute = true;
    harness.world.simulate.startCombat();
    goblin = await uuidOf(harness, 'Goblin');
    thorin = await uuidOf(harness, 'Thorin Ironfoot');
    key = await harness.keyWith(DECK_SCOPES);
    host = await CompanionHost.start(
      TabletopRelayInstance,
      { relayUrl: harness.baseUrl, clientId: '', trackedActors: `Goblin=${goblin}\n${thorin}` },
      { apiKey: key },
    );
    await waitFor('the world connected', () => host.status?.status === InstanceStatus.Ok);
    await waitFor('the playlists', () => (host.presets.structure[1]?.definitions.length ?? 0) > 1);
  });

  afterAll(async () => {
    await host?.destroy();
    await harness?.close();
  });

  it('defines its config fields, actions, feedbacks, variables and two preset pages, and says the world is connected', async () => {
    const fields = host.instance.getConfigFields();
    expect(fields.find((field) => field.id === 'relayUrl')).toMatchObject({
      type: 'textinput',
      default: `http://127.0.0.1:${DEFAULT_SETTINGS.port}`,
    });
    expect(fields.find((field) => field.id === 'apiKey')?.type).toBe('secret-text');
    expect(fields.map((field) => field.id)).toEqual(expect.arrayContaining(['clientId', 'trackedActors']));

    expect(Object.keys(host.actions).sort()).toEqual(
      [
        'roll',
        'next-turn',
        'previous-turn',
        'next-round',
        'previous-round',
        'playlist',
        'playlist-next',
        'playlist-volume',
        'macro',
      ].sort(),
    );
    expect(
      Object.fromEntries(Object.entries(host.feedbacks).map(([id, feedback]) => [id, feedback && feedback.type])),
    ).toEqual({
      'world-connected': 'boolean',
      'playlist-playing': 'boolean',
      'combat-active': 'boolean',
      'combatant-turn': 'boolean',
      'hp-colour': 'advanced',
    });
    const thorinSlug = `hp_${thorin.replace(/^Actor\./, '').toLowerCase()}`;
    expect(Object.keys(host.variableDefinitions)).toEqual([
      'round',
      'turn_name',
      'next_name',
      'last_roll_total',
      'last_roll_formula',
      'world_title',
      'now_playing',
      'hp_goblin',
      thorinSlug,
    ]);

    const { structure, presets } = host.presets;
    expect(structure.map((section) => section.name)).toEqual(['GM combat', 'Music']);
    for (const section of structure)
      for (const id of section.definitions as string[]) expect(presets[id], `preset ${id}`).toBeDefined();
    expect(presets['next-turn']?.steps[0]?.down).toEqual([{ actionId: 'next-turn', options: {} }]);
    expect(presets['next-turn']?.style.text).toContain('$(tabletop-relay:turn_name)');
    expect(presets['hp-goblin']?.feedbacks).toEqual([{ feedbackId: 'hp-colour', options: { actor: goblin } }]);
    const tavern = await playlistNamed('Tavern Songs');
    expect(presets[`playlist-${tavern.id}`]?.steps[0]?.down).toEqual([
      { actionId: 'playlist', options: { playlist: tavern.id, mode: 'toggle' } },
    ]);

    const clients = await harness.get('/clients');
    expect(clients.body.clients[0].foundryVersion).toBe(foundryVersion);
    const title = clients.body.clients[0].worldTitle;
    expect(host.status).toEqual({ status: InstanceStatus.Ok, message: title });
    expect(variable('world_title')).toBe(title);
    expect((await host.placeFeedback('world-connected')).value).toBe(true);
    expect(host.undefinedVariables).toEqual([]);
  });

  it('roll: the roll reaches the world, and last_roll_total and last_roll_formula follow its event', async () => {
    await host.runAction('roll', { formula: '1d20+3', flavor: 'Companion attack' });
    const last = await harness.get('/lastroll');
    expect(last.body.data).toMatchObject({ formula: '1d20+3', flavor: 'Companion attack' });
    await follows('last_roll_formula', '1d20+3');
    expect(variable('last_roll_total')).toBe(last.body.data.rollTotal);

    harness.world.simulate.playerRoll('Alice', '2d6+1', 'Damage');
    await follows('last_roll_formula', '2d6+1');
  });

  it('next-turn, previous-turn and next-round move the combat; round, turn_name and the turn feedbacks follow', async () => {
    const active = await host.placeFeedback('combat-active');
    expect(active.value).toBe(true);
    const before = worldCombat();
    await follows('turn_name', before.current);

    await host.runAction('next-turn');
    const afterNext = worldCombat();
    expect(afterNext.current).not.toBe(before.current);
    const turnOf = await host.placeFeedback('combatant-turn', { combatant: afterNext.current!.toUpperCase() });
    await follows('turn_name', afterNext.current);
    await feedbackFollows(turnOf, true);

    await host.runAction('previous-turn');
    expect(worldCombat().current).toBe(before.current);
    await follows('turn_name', before.current);
    await feedbackFollows(turnOf, false);

    await host.runAction('next-round');
    const afterRound = worldCombat();
    expect(afterRound.round).toBe(before.round + 1);
    await follows('round', afterRound.round);

    harness.world.simulate.nextTurn();
    await follows('turn_name', worldCombat().current);
    expect(variable('next_name')).toEqual(expect.any(String));
  });

  it('playlist toggle, next track and volume change the music; now_playing and playlist-playing follow', async () => {
    const tavern = await playlistNamed('Tavern Songs');
    expect(tavern.playing).toBe(false);
    const playing = await host.placeFeedback('playlist-playing', { playlist: tavern.id });
    expect(playing.value).toBe(false);

    await host.runAction('playlist', { playlist: tavern.id, mode: 'toggle' });
    expect((await playlistNamed('Tavern Songs')).playing).toBe(true);
    await feedbackFollows(playing, true);
    const { value: nowPlaying } = await waitFor('now_playing', () =>
      String(variable('now_playing')).startsWith('Tavern Songs') ? String(variable('now_playing')) : undefined,
    );

    await host.runAction('playlist-next', { playlist: tavern.id });
    const afterNext = await playlistNamed('Tavern Songs');
    const sound = afterNext.sounds.find((each: { playing: boolean }) => each.playing);
    expect(`Tavern Songs: ${sound.name}`).not.toBe(nowPlaying);
    await follows('now_playing', `Tavern Songs: ${sound.name}`);

    await host.runAction('playlist-volume', { playlist: tavern.id, change: -0.2 });
    const quieter = (await playlistNamed('Tavern Songs')).sounds.find((each: { id: string }) => each.id === sound.id);
    expect(quieter.volume).toBeCloseTo(sound.volume - 0.2, 5);

    await host.runAction('playlist', { playlist: 'tavern songs', mode: 'toggle' });
    expect((await playlistNamed('Tavern Songs')).playing).toBe(false);
    await feedbackFollows(playing, false);
    await follows('now_playing', '');
  });

  it('macro: runs the macro in the world', async () => {
    const macros = await harness.get('/macros');
    const macro = macros.body.macros.find((entry: { name: string }) => entry.name === 'Toggle Darkness');
    const messages = harness.world.game.collections.messages;
    const before = messages.contents.length;
    await host.runAction('macro', { macroUuid: macro.uuid });
    expect(messages.contents.length).toBe(before + 1);
    expect(JSON.stringify(messages.contents.at(-1)!.toObject())).toContain('1d20');
  });

  it("a tracked actor's hit points: hp_<slug> and the HP colour follow its events", async () => {
    const colour = await host.placeFeedback('hp-colour', { actor: goblin });
    await waitFor('the goblin HP', () => variable('hp_goblin') === '7/7');
    expect(colour.value).toMatchObject({ bgcolor: GREEN });
    const goblinId = goblin.split('.')[1]!;

    harness.world.simulate.updateActor(goblinId, { 'system.attributes.hp.value': 3 });
    await follows('hp_goblin', '3/7');
    await feedbackFollows(colour, { bgcolor: AMBER, color: 0 });

    harness.world.simulate.updateActor(goblinId, { 'system.attributes.hp.value': 0 });
    await follows('hp_goblin', '0/7');
    expect(colour.value).toMatchObject({ bgcolor: RED });
  });

  it('the status follows the relay going away and coming back, and the world-connected feedback with it', async () => {
    const connected = await host.placeFeedback('world-connected');
    const relayUrl = harness.baseUrl;
    await harness.relay.stop();
    const down = await waitFor('a connection failure naming the relay', () =>
      host.status?.status === InstanceStatus.ConnectionFailure && host.status.message?.includes(relayUrl)
        ? host.status
        : undefined,
    );
    expect(down.value.message).toContain('not running');
    expect(down.ms).toBeLessThan(2500);
    await feedbackFollows(connected, false);

    await harness.restart();
    expect(harness.baseUrl).toBe(relayUrl);
    await waitFor('the world connected again', () => host.status?.status === InstanceStatus.Ok, 12_000);
    await waitFor('the feedback', () => connected.value === true);
  }, 20_000);

  it('never writes the key in a log line or a status message', () => {
    expect(host.logs.length).toBeGreaterThan(0);
    for (const line of host.logs) expect(line.message).not.toContain(key);
    for (const { value } of host.statuses) expect(value.message ?? '').not.toContain(key);
    expect(host.undefinedVariables).toEqual([]);
  });
});

describe('Companion module without a usable key', () => {
  let harness: WorldHarness;
  beforeAll(async () => {
    harness = await startRelayWithWorld();
  });
  afterAll(() => harness.close());

  it('says BadConfig "no API key" when none is set and it may not ask for one, and asks nothing of the relay', async () => {
    const host = await CompanionHost.start(
      TabletopRelayInstance,
      { relayUrl: harness.baseUrl, clientId: '', trackedActors: '', requestKey: false },
      { apiKey: '' },
    );
    expect(host.status).toEqual({ status: InstanceStatus.BadConfig, message: NO_KEY_MESSAGE });
    await host.runAction('next-turn');
    const activity = await harness.admin('GET', '/admin/activity');
    expect(activity.status).toBe(200);
    expect(activity.body.entries).toEqual([]);
    expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
    await host.destroy();
  });

  it("asks the relay for a key with the deck's scopes, shows the code, and saves the key the GM approves", async () => {
    const host = await CompanionHost.start(
      TabletopRelayInstance,
      { relayUrl: harness.baseUrl, clientId: '', trackedActors: '' },
      { apiKey: '' },
    );
    const { value: code } = await waitFor('a code to approve', () =>
      host.status?.status === InstanceStatus.BadConfig
        ? /approve the request (\S+) in Tabletop Relay/.exec(host.status.message ?? '')?.[1]
        : undefined,
    );
    expect(host.status?.message).toMatch(/no API key/i);
    const waiting = await harness.admin('GET', '/admin/key-requests');
    const request = waiting.body.keyRequests.find((entry: { code: string }) => entry.code === code);
    expect(request.appName).toBe('Bitfocus Companion');
    expect([...request.scopes].sort()).toEqual([...DECK_SCOPES].sort());

    expect((await harness.admin('POST', `/admin/key-requests/${code}/approve`, {})).status).toBe(200);
    // The module polls at the relay's interval (seconds), so the key arrives within one interval and the save after.
    const { value: saved } = await waitFor('the key saved', () => host.savedConfigs[0], 10_000);
    const apiKey = (saved.secrets as { apiKey: string }).apiKey;
    expect(apiKey).toMatch(/^ttr_/);
    expect(saved.config).toMatchObject({ relayUrl: harness.baseUrl });
    await waitFor('the world connected', () => host.status?.status === InstanceStatus.Ok);
    await host.runAction('roll', { formula: '1d4', flavor: '' });
    expect((await harness.get('/lastroll')).body.data.formula).toBe('1d4');
    for (const line of host.logs) expect(line.message).not.toContain(apiKey);
    await host.destroy();
  });

  it('says AuthenticationFailure for a key the relay does not know, without writing it anywhere', async () => {
    const unknownKey = 'ttr_companionTestUnknownKey0000000000000';
    const host = await CompanionHost.start(
      TabletopRelayInstance,
      { relayUrl: harness.baseUrl, clientId: '', trackedActors: '' },
      { apiKey: unknownKey },
    );
    await waitFor('an authentication failure', () => host.status?.status === InstanceStatus.AuthenticationFailure);
    for (const line of host.logs) expect(line.message).not.toContain(unknownKey);
    expect(host.status?.message).not.toContain(unknownKey);
    await host.destroy();
  });

  it('follows a new key given in the config: from BadConfig to Ok', async () => {
    const host = await CompanionHost.start(
      TabletopRelayInstance,
      { relayUrl: harness.baseUrl, clientId: '', trackedActors: '' },
      { apiKey: '' },
    );
    expect(host.status?.status).toBe(InstanceStatus.BadConfig);
    await host.updateConfig(
      { relayUrl: harness.baseUrl, clientId: harness.clientId, trackedActors: '' },
      { apiKey: await harness.keyWith(DECK_SCOPES) },
    );
    await waitFor('the world connected', () => host.status?.status === InstanceStatus.Ok);
    await host.destroy();
  });
});
