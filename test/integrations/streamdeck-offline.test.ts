// The Elgato plugin while the relay is away: a press alerts at once rather than hanging the key, every key shows the
// offline image (the status key says the relay is not running), and all of them come back by themselves with the relay.
// A relay that hangs instead costs a press its 2 s call timeout, and nothing else.
import { createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deckAction, FOUNDRY_VERSIONS, recordRequests, startDeck, type Deck } from './stream-deck-app/deck.ts';

const DOWN_FOR_MS = 1500;

function svgOf(image: string | undefined): string {
  const match = /^data:image\/svg\+xml;base64,(.+)$/.exec(image ?? '');
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
}

const isOffline = (image: string | undefined) => /Relay<\/text>.*offline<\/text>/.test(svgOf(image));

describe.each(FOUNDRY_VERSIONS)('the Stream Deck plugin when the relay goes away, on a Foundry %s world', (version) => {
  let deck: Deck;
  beforeAll(async () => {
    // The world's module connects again by itself, as it does when the GM's relay restarts.
    deck = await startDeck({ foundryVersion: version, link: { reconnect: true, reconnectBaseDelayMs: 100 } });
  });
  afterAll(() => deck?.close());

  it('alerts a press within 2.5 s and shows the offline image; the keys recover when the relay is back', async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d8' });
    const turn = app.appear(deckAction('next-turn'));
    const status = app.appear(deckAction('status'));
    const alive = () =>
      app.title(roll.context) === '1d8' &&
      !isOffline(app.image(roll.context)) &&
      app.title(turn.context)?.startsWith('Round') &&
      svgOf(app.image(status.context)).includes('#22c55e');
    await app.waitFor(alive, { what: 'the keys alive' });

    const stoppedAt = performance.now();
    const back = harness.restart({ downForMs: DOWN_FOR_MS });
    await app.waitFor(
      () =>
        isOffline(app.image(roll.context)) &&
        isOffline(app.image(turn.context)) &&
        app.title(status.context) === 'Relay not\nrunning',
      { timeoutMs: 2500, what: 'the offline image on every key' },
    );
    const pressedAt = app.press(roll.context);
    await app.waitFor(() => roll.alerts.length === 1, { timeoutMs: 2500, what: 'an alert' });
    expect(roll.alerts[0]! - pressedAt).toBeLessThan(2500);
    expect(isOffline(app.image(roll.context)), 'the key stays offline').toBe(true);

    await back;
    const returnedAt = performance.now();
    await app.waitFor(alive, { timeoutMs: 8000, what: 'the keys recovered' });
    console.log(
      `Stream Deck keys on Foundry ${version}: offline ${Math.round(returnedAt - stoppedAt)} ms, ` +
        `alive again ${Math.round(performance.now() - returnedAt)} ms after the relay came back`,
    );
    const requests = recordRequests(harness);
    const mark = app.commands.length;
    app.press(roll.context);
    await app.waitFor(() => /^[1-8]$/.test(app.title(roll.context) ?? ''), { what: "the roll's total" });
    expect(requests.filter(({ request }) => request.type === 'roll')).toHaveLength(1);
    expect(app.commandsFor(roll.context, 'showAlert', mark)).toEqual([]);
    expect(app.rejected).toEqual([]);
    expect(app.crashes).toEqual([]);
  });

  it('a relay that takes connections and never answers: the press alerts within 2.5 s, the deck stays responsive', async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d12' });
    const status = app.appear(deckAction('status'));
    await app.waitFor(() => app.title(roll.context) === '1d12', { what: 'the roll key' });
    const port = harness.relay.port;
    await harness.relay.stop();
    const held = new Set<Socket>();
    const hanging = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => hanging.listen(port, '127.0.0.1', resolve));
    try {
      const pressedAt = app.press(roll.context);
      app.press(status.context);
      await app.waitFor(() => app.openedUrls.length > 0, { timeoutMs: 1000, what: 'the status press, meanwhile' });
      await app.waitFor(() => roll.alerts.length === 1, { timeoutMs: 2500, what: 'an alert' });
      expect(roll.alerts[0]! - pressedAt).toBeLessThan(2500);
      expect(held.size, 'the calls did reach the silent relay').toBeGreaterThan(0);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => hanging.close(resolve));
    }
    expect(app.crashes).toEqual([]);
  });
});
