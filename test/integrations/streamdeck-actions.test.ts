// Each action of the Elgato plugin, end to end: the built plugin run by the stand-in of the Stream Deck app, with a key
// of the deck's scopes, against a relay and a sandbox world. A press must change the world; what the world does must
// show on the key.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldMessage } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../../sandbox/world/document.ts';
import {
  deckAction,
  FOUNDRY_VERSIONS,
  nextPush,
  recordRequests,
  startDeck,
  type Deck,
} from './stream-deck-app/deck.ts';

/** A key image's SVG (none yet: empty): the plugin draws every image as an SVG data URL. */
function svgOf(image: string | undefined): string {
  if (image === undefined) return '';
  const match = /^data:image\/svg\+xml;base64,(.+)$/.exec(image);
  if (!match) throw new Error(`not an SVG data URL: ${image.slice(0, 40)}`);
  return Buffer.from(match[1]!, 'base64').toString('utf8');
}

/** A name cut to fit a key, as the plugin cuts it: one character less and an ellipsis. */
const cut = (name: string, length: number) => (name.length > length ? `${name.slice(0, length - 1)}…` : name);

const GREEN = '#22c55e';
const AMBER = '#f59e0b';
const RED = '#e5383b';

describe.each(FOUNDRY_VERSIONS)("the Stream Deck plugin's actions on a Foundry %s world", (foundryVersion) => {
  let deck: Deck;
  beforeAll(async () => {
    deck = await startDeck({ foundryVersion });
  });
  afterAll(() => deck?.close());

  const game = () => deck.harness.world.game;
  const combat = () => game().activeCombat()!.source as { round: number; turn: number };
  const named = (collection: { contents: WorldDocument[] }, name: string) =>
    collection.contents.find((document) => document.name === name)!;
  const isTurn = (message: WorldMessage) =>
    message.type === 'combat-event' && (message.data as { eventType?: string }).eventType === 'turn';
  /** The key's title for a combat turn: the round, and the current combatant's name cut to fit. */
  const turnTitle = (message: WorldMessage) => {
    const data = message.data as { round: number; turn: number; combatants: Array<{ name: string }> };
    return `Round ${data.round}\n${cut(data.combatants[data.turn]!.name, 10)}`;
  };

  it('roll: a press rolls the formula into the world, and the key shows its total for 3 s', async () => {
    const { app } = deck;
    const key = app.appear(deckAction('roll'), { formula: '1d20+5', flavor: 'Attack' });
    await app.waitFor(() => app.title(key.context) === '1d20+5', { what: 'the formula on the key' });
    const requests = recordRequests(deck.harness);
    const mark = app.commands.length;
    app.press(key.context);
    const total = await app.waitFor(() => /^\d+$/.test(app.title(key.context) ?? '') && app.title(key.context));
    const shownAt = app.commandsFor(key.context, 'setTitle', mark).at(-1)!.at;
    const rolled = requests.find(({ request }) => request.type === 'roll')!.request;
    expect(rolled).toMatchObject({ formula: '1d20+5', flavor: 'Attack' });
    const message = game()
      .messages.contents.filter((candidate) => candidate.source.flavor === 'Attack')
      .at(-1)!;
    expect(String((message.source.rolls as Array<{ total: number }>)[0]!.total)).toBe(total);
    await app.waitFor(() => app.title(key.context) === '1d20+5', { timeoutMs: 4000, what: 'the formula again' });
    const backAt = app.commandsFor(key.context, 'setTitle', mark).at(-1)!.at;
    expect(backAt - shownAt).toBeGreaterThan(2900);
    expect(backAt - shownAt).toBeLessThan(4000);
    expect(key.alerts).toEqual([]);
    // The GM changes the formula in the property inspector: the key shows the new one.
    app.changeSettings(key.context, { formula: '2d10', flavor: 'Damage' });
    await app.waitFor(() => app.title(key.context) === '2d10', { what: 'the new formula' });
  });

  it('roll: a formula the world refuses shows an alert', async () => {
    const { app } = deck;
    const key = app.appear(deckAction('roll'), { formula: '1d20+' });
    await app.waitFor(() => app.title(key.context) === '1d20+', { what: 'the formula' });
    app.press(key.context);
    await app.waitFor(() => key.alerts.length === 1, { what: 'showAlert' });
  });

  it('next-turn and previous-turn: a press moves the combat, and the title follows its events', async () => {
    const { app, harness } = deck;
    const next = app.appear(deckAction('next-turn'));
    const previous = app.appear(deckAction('previous-turn'));
    // The sandbox world holds a combat not yet begun (round 0); the GM begins it.
    await app.waitFor(() => app.title(next.context) === 'Round 0\nGoblin', { what: 'the combat not begun' });
    // Foundry begins a combat with its first turn of round 1.
    const started = nextPush(harness, isTurn);
    harness.world.simulate.startCombat();
    const start = (await started).message;
    await app.waitFor(() => app.title(next.context) === turnTitle(start), { what: 'the first turn' });
    const before = { ...combat() };
    let turn = nextPush(harness, isTurn);
    app.press(next.context);
    const forward = (await turn).message;
    expect(combat()).not.toEqual(before);
    await app.waitFor(() => [next, previous].every((key) => app.title(key.context) === turnTitle(forward)), {
      what: 'the next turn on both keys',
    });
    turn = nextPush(harness, isTurn);
    app.press(previous.context);
    const back = (await turn).message;
    expect(combat()).toEqual(before);
    await app.waitFor(() => app.title(next.context) === turnTitle(back), { what: 'the turn before' });
    // A turn the GM takes in Foundry reaches the keys through the events, well before any poll would.
    turn = nextPush(harness, isTurn);
    harness.world.simulate.nextTurn();
    const elsewhere = await turn;
    await app.waitFor(() => app.title(next.context) === turnTitle(elsewhere.message), { timeoutMs: 500 });
    expect(next.alerts.length + previous.alerts.length).toBe(0);
  });

  it('next-turn on a dial: rotating moves turns, pressing starts the next round, the touch strip shows the turn', async () => {
    const { app, harness } = deck;
    if (!game().activeCombat()) harness.world.simulate.startCombat();
    const dial = app.appear(deckAction('next-turn'), {}, 'Encoder');
    expect(dial.layout).toBe('$A1');
    await app.waitFor(() => String(dial.feedback.title).startsWith('Round'), { what: 'the round on the strip' });
    const before = { ...combat() };
    let turn = nextPush(harness, isTurn);
    app.rotate(dial.context, 1);
    await turn;
    expect(combat()).not.toEqual(before);
    turn = nextPush(harness, isTurn);
    app.rotate(dial.context, -1);
    await turn;
    expect(combat()).toEqual(before);
    turn = nextPush(harness, isTurn);
    app.press(dial.context);
    const round = (await turn).message.data as { round: number; turn: number; combatants: Array<{ name: string }> };
    expect(combat().round).toBe(before.round + 1);
    await app.waitFor(() => dial.feedback.title === `Round ${round.round}`, { what: 'the new round on the strip' });
    expect(dial.feedback.value).toBe(round.combatants[round.turn]!.name.slice(0, 13));
    expect(dial.alerts).toEqual([]);
  });

  it("hp: the bar follows the actor's hit points within 500 ms, coloured by their ratio", async () => {
    const { app, harness } = deck;
    const thorin = named(game().actors, 'Thorin Ironfoot');
    const key = app.appear(deckAction('hp'), { actorUuid: thorin.uuid, label: 'Thorin' });
    await app.waitFor(
      () =>
        app.image(key.context)?.startsWith('data:image/svg+xml;base64,') &&
        app.commandsFor(key.context, 'setImage').length > 1,
      {
        what: 'the bar',
      },
    );
    const full = svgOf(app.image(key.context));
    expect(full).toContain('34/34');
    expect(full).toContain(`width="60" height="16" rx="4" fill="${GREEN}"`);
    for (const [value, colour, width] of [
      [12, AMBER, 21],
      [5, RED, 9],
    ] as const) {
      const changedAt = performance.now();
      harness.world.simulate.updateActor(thorin.id, { system: { attributes: { hp: { value } } } });
      await app.waitFor(() => svgOf(app.image(key.context)).includes(`${value}/34`), { what: `${value}/34` });
      const drawnAt = app.commandsFor(key.context, 'setImage').at(-1)!.at;
      expect(drawnAt - changedAt, 'the bar follows within 500 ms').toBeLessThan(500);
      expect(svgOf(app.image(key.context))).toContain(`width="${width}" height="16" rx="4" fill="${colour}"`);
    }
    // Off the page, the key is drawn no more (once the plugin had the news: the world's stream is another socket).
    app.disappear(key.context);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const mark = app.commands.length;
    harness.world.simulate.updateActor(thorin.id, { system: { attributes: { hp: { value: 30 } } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.commandsFor(key.context, undefined, mark)).toEqual([]);
  });

  it("hp on the players' deck: a band (healthy, bloodied, down) and no numbers", async () => {
    const { app, harness } = deck;
    const lyra = named(game().actors, 'Lyra Moonwhisper');
    const key = app.appear(deckAction('hp'), { actorUuid: lyra.uuid, playersDeck: true });
    await app.waitFor(() => svgOf(app.image(key.context)).includes('Healthy'), { what: 'healthy' });
    for (const [value, word, colour] of [
      [11, 'Bloodied', AMBER],
      [0, 'Down', RED],
      [22, 'Healthy', GREEN],
    ] as const) {
      harness.world.simulate.updateActor(lyra.id, { system: { attributes: { hp: { value } } } });
      await app.waitFor(() => svgOf(app.image(key.context)).includes(word), { timeoutMs: 500, what: word });
      const svg = svgOf(app.image(key.context));
      expect(svg).toContain(`fill="${colour}"`);
      expect(svg).not.toMatch(/\d+\/22/);
    }
  });

  it('playlist: a press plays it and the key shows its playing state, another stops it', async () => {
    const { app, harness } = deck;
    const tavern = named(game().playlists, 'Tavern Songs');
    const key = app.appear(deckAction('playlist'), { playlistId: tavern.id });
    await app.waitFor(() => app.title(key.context) === 'Tavern Songs', { what: "the playlist's name" });
    expect(key.state).toBe(0);
    // The plugin sets the state once the world's event says the playlist plays or stopped.
    const stateSet = (state: number, since: number) =>
      app.commandsFor(key.context, 'setState', since).some(({ command }) => command.payload.state === state);
    let mark = app.commands.length;
    app.press(key.context);
    await app.waitFor(() => tavern.source.playing === true && stateSet(1, mark), { what: 'playing' });
    expect(key.state).toBe(1);
    mark = app.commands.length;
    app.press(key.context);
    await app.waitFor(() => tavern.source.playing === false && stateSet(0, mark), { what: 'stopped' });
    expect(key.state).toBe(0);
    // The GM starts it in Foundry: the key follows.
    await harness.post('/playlist/play', { playlistId: tavern.id });
    await app.waitFor(() => key.state === 1, { timeoutMs: 1000, what: 'playing, started elsewhere' });
    await harness.post('/playlist/stop', { playlistId: tavern.id });
    await app.waitFor(() => key.state === 0, { timeoutMs: 1000, what: 'stopped, elsewhere' });
  });

  it("playlist: a press the world refuses leaves the key's state as the world has it", async () => {
    const { app } = deck;
    const key = app.appear(deckAction('playlist'), { playlistId: 'NoSuchPlaylist00' });
    await app.waitFor(() => app.title(key.context), { what: 'a title' });
    app.press(key.context);
    await app.waitFor(() => key.alerts.length === 1, { what: 'showAlert' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(key.state, 'the key does not show "playing"').toBe(0);
  });

  it('playlist-next: a press moves the playing playlist to its next track, named on the key', async () => {
    const { app, harness } = deck;
    const battle = named(game().playlists, 'Battle Music');
    await harness.post('/playlist/play', { playlistId: battle.id });
    const playing = () => battle.collection('PlaylistSound').contents.find((sound) => sound.source.playing)?.name;
    const key = app.appear(deckAction('playlist-next'), { playlistId: battle.id });
    const first = playing()!;
    await app.waitFor(() => app.title(key.context) === cut(first, 12), { what: 'the track playing' });
    app.press(key.context);
    await app.waitFor(() => playing() !== first, { what: 'the next track in the world' });
    const second = playing()!;
    await app.waitFor(() => app.title(key.context) === cut(second, 12), {
      what: 'the next track on the key',
    });
    await harness.post('/playlist/stop', { playlistId: battle.id });
  });

  it('playlist-volume on a dial: rotating sets the volume, the touch strip shows it, pressing plays or stops', async () => {
    const { app } = deck;
    const ambience = named(game().playlists, 'Dungeon Ambience');
    const volumes = () => ambience.collection('PlaylistSound').contents.map((sound) => sound.source.volume as number);
    const dial = app.appear(deckAction('playlist-volume'), { playlistId: ambience.id }, 'Encoder');
    expect(dial.layout).toBe('$B1');
    await app.waitFor(() => dial.feedback.value === '30% · stopped', { what: 'the volume on the strip' });
    expect(dial.feedback.indicator).toEqual({ value: 30 });
    app.rotate(dial.context, 2);
    await app.waitFor(() => volumes().every((volume) => Math.abs(volume - 0.4) < 1e-9), { what: 'volume 40%' });
    await app.waitFor(() => dial.feedback.value === '40% · stopped', { what: '40% on the strip' });
    expect(dial.feedback.indicator).toEqual({ value: 40 });
    app.press(dial.context);
    await app.waitFor(() => ambience.source.playing === true, { what: 'the playlist playing' });
    const playingVolume = () =>
      ambience.collection('PlaylistSound').contents.find((sound) => sound.source.playing)!.source.volume as number;
    await app.waitFor(() => dial.feedback.value === `${Math.round(playingVolume() * 100)}%`, { what: 'playing' });
    app.rotate(dial.context, -1);
    await app.waitFor(() => Math.abs(playingVolume() - 0.35) < 1e-9, { what: 'volume 35% for the playing sound' });
    app.press(dial.context);
    await app.waitFor(() => ambience.source.playing === false, { what: 'stopped' });
    expect(dial.alerts).toEqual([]);
  });

  it('macro: a press runs it in the world and shows a check mark; a world that forbids macros makes an alert', async () => {
    const { app, harness } = deck;
    const macro = named(game().collections.macros, 'Toggle Darkness');
    const key = app.appear(deckAction('macro'), { macroUuid: macro.uuid, label: 'Darkness' });
    await app.waitFor(() => app.title(key.context) === 'Darkness', { what: 'the label' });
    const requests = recordRequests(harness);
    app.press(key.context);
    await app.waitFor(() => key.oks.length === 1, { what: 'showOk' });
    expect(requests.map(({ request }) => request)).toContainEqual(
      expect.objectContaining({ type: 'macro-execute', uuid: macro.uuid }),
    );
    game().settings.allowMacroExecute = false;
    app.press(key.context);
    await app.waitFor(() => key.alerts.length === 1, { what: 'showAlert' });
    game().settings.allowMacroExecute = true;
  });

  it('status: green with the world connected, grey without it; a press opens the settings', async () => {
    const { app, harness } = deck;
    const key = app.appear(deckAction('status'));
    await app.waitFor(
      () => app.title(key.context) === 'The Sandbox…' && svgOf(app.image(key.context)).includes(`fill="${GREEN}"`),
      { what: "the world's title and a green light" },
    );
    app.press(key.context);
    await app.waitFor(() => app.openedUrls.includes(`${harness.baseUrl}/admin/`), { what: 'the settings opened' });
    const started = performance.now();
    await harness.link.close();
    await app.waitFor(
      () => app.title(key.context) === 'No world' && svgOf(app.image(key.context)).includes('fill="#8b90a3"'),
      { timeoutMs: 7000, what: 'no world and a grey light' },
    );
    console.log(`status key grey ${Math.round(performance.now() - started)} ms after the world left`);
  });

  it('sent nothing the Stream Deck app does not know, and never crashed', () => {
    expect(deck.app.rejected).toEqual([]);
    expect(deck.app.crashes).toEqual([]);
  });
});
