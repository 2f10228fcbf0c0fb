// The Elgato plugin under a GM's fingers: a burst of presses is neither blocked nor lost, and the time from a key press
// (keyDown leaving the Stream Deck app) to the change leaving the world (its event stream) is measured and printed.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldMessage } from '../../contracts/world-protocol.ts';
import {
  deckAction,
  FOUNDRY_VERSIONS,
  nextPush,
  percentile,
  recordRequests,
  startDeck,
  type Deck,
} from './stream-deck-app/deck.ts';

const BURST = 50;
const SAMPLES = 100;

describe.each(FOUNDRY_VERSIONS)('the Stream Deck plugin under load, on a Foundry %s world', (foundryVersion) => {
  let deck: Deck;
  beforeAll(async () => {
    deck = await startDeck({ foundryVersion });
    deck.harness.world.simulate.startCombat();
    // Streams of the world's rolls and turns, as any tool watching the table holds them.
    await deck.harness.stream('/rolls/subscribe');
    await deck.harness.stream('/encounters/subscribe');
  });
  afterAll(() => deck?.close());

  const combat = () => deck.harness.world.game.activeCombat()!.source as { round: number; turn: number };

  it(`a burst of ${BURST} presses neither blocks the deck nor loses a press: ${BURST} rolls reach the world`, async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d20' });
    const turn = app.appear(deckAction('next-turn'));
    const requests = recordRequests(harness);
    const rolls = () => requests.filter(({ request }) => request.type === 'roll').length;
    const before = { ...combat() };
    const started = performance.now();
    for (let press = 0; press < BURST; press += 1) app.press(roll.context);
    app.press(turn.context);
    expect(performance.now() - started, 'the app hands every press over at once').toBeLessThan(200);
    await app.waitFor(() => combat().turn !== before.turn || combat().round !== before.round, {
      timeoutMs: 2500,
      what: 'the next turn, pressed right after the burst',
    });
    await app.waitFor(() => rolls() === BURST, { timeoutMs: 10_000, what: `${BURST} rolls in the world` });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rolls()).toBe(BURST);
    expect(roll.alerts, 'no press failed').toEqual([]);
    expect(app.crashes).toEqual([]);
  });

  it(`press-to-effect latency over ${SAMPLES} presses of next-turn and of roll`, async () => {
    const { app, harness } = deck;
    const turn = app.appear(deckAction('next-turn'));
    const roll = app.appear(deckAction('roll'), { formula: '2d6+3' });
    const measure = async (context: string, matches: (message: WorldMessage) => boolean) => {
      const samples: number[] = [];
      for (let press = 0; press < SAMPLES; press += 1) {
        const effect = nextPush(harness, matches);
        const sent = app.press(context);
        samples.push((await effect).at - sent);
      }
      return samples;
    };
    const isTurn = (message: WorldMessage) =>
      message.type === 'combat-event' && (message.data as { eventType?: string }).eventType === 'turn';
    const isRoll = (message: WorldMessage) =>
      message.type === 'roll-data' && (message.data as { formula?: string }).formula === '2d6+3';
    const turns = await measure(turn.context, isTurn);
    const rolls = await measure(roll.context, isRoll);
    const figures = (samples: number[]) =>
      `p50 ${percentile(samples, 0.5).toFixed(1)} ms, p99 ${percentile(samples, 0.99).toFixed(1)} ms`;
    console.log(
      `Stream Deck press-to-effect on Foundry ${foundryVersion} (${SAMPLES} presses each): ` +
        `next-turn ${figures(turns)}; roll ${figures(rolls)}`,
    );
    expect(percentile(turns, 0.99)).toBeLessThan(500);
    expect(percentile(rolls, 0.99)).toBeLessThan(500);
    expect(turn.alerts.length + roll.alerts.length).toBe(0);
  });
});
