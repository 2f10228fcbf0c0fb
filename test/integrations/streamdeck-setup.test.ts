// The Elgato plugin sets itself up: with no key in its global settings it asks the relay for one (a key request with
// exactly the deck's scopes), every key says to approve it in Tabletop Relay, and the GM's approval through the admin
// API brings the keys to life with nothing pasted. The key lands in the app's global settings and in no log.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECK_SCOPES } from '../../integrations/client/actions.ts';
import { StreamDeckApp } from './stream-deck-app/stream-deck-app.ts';
import {
  deckAction,
  FOUNDRY_VERSIONS,
  installedDeckPlugin,
  recordRequests,
  startDeck,
  type Deck,
} from './stream-deck-app/deck.ts';

const APPROVE = 'Approve in\nTabletop\nRelay';

function svgOf(image: string | undefined): string {
  const match = /^data:image\/svg\+xml;base64,(.+)$/.exec(image ?? '');
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
}

/** Everything the plugin wrote to its own log folder (the SDK keeps logs/ in the plugin's folder). */
function pluginLogs(pluginDir: string): string {
  const folder = join(pluginDir, 'logs');
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('\n');
}

describe.each(FOUNDRY_VERSIONS)('the Stream Deck plugin with no key, on a Foundry %s world', (foundryVersion) => {
  let deck: Deck;
  /** Every key request the relay received, from the plugin's first start on. */
  let asked = 0;
  beforeAll(async () => {
    deck = await startDeck({
      foundryVersion,
      relay: { keyRequestPollIntervalMs: 200 },
      globalSettings: async (harness) => {
        const keyRequests = harness.relay.services.keyRequests;
        const request = keyRequests.request.bind(keyRequests);
        keyRequests.request = (...args) => ((asked += 1), request(...args));
        return { relayUrl: harness.baseUrl };
      },
    });
  });
  afterAll(() => deck?.close());

  it("asks for a key with the deck's scopes, shows its code on every key, and comes alive once approved", async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d6' });
    const status = app.appear(deckAction('status'));
    const showsCode = (context: string) =>
      app.title(context) === APPROVE && /[0-9A-Z]{3}-[0-9A-Z]{3}/.test(svgOf(app.image(context)));
    await app.waitFor(() => showsCode(roll.context) && showsCode(status.context), {
      what: 'every key asking for approval with a code',
    });
    const waiting = (await harness.admin('GET', '/admin/key-requests')).body.keyRequests;
    expect(asked, 'one key request, however many times the app gave the settings').toBe(1);
    expect(waiting).toHaveLength(1);
    const [request] = waiting;
    expect(request.appName).toBe('Stream Deck');
    expect([...request.scopes].sort()).toEqual([...DECK_SCOPES].sort());
    for (const key of [roll, status]) expect(svgOf(app.image(key.context))).toContain(request.code);

    // Before the approval a press does nothing but alert, and the status key opens the page where the GM approves.
    const requests = recordRequests(harness);
    app.press(roll.context);
    await app.waitFor(() => roll.alerts.length === 1, { what: 'an alert' });
    app.press(status.context);
    await app.waitFor(() => app.openedUrls.includes(`${harness.baseUrl}/admin/#keys`), { what: 'the approval page' });
    expect(requests).toEqual([]);

    const approved = await harness.admin('POST', `/admin/key-requests/${request.code}/approve`, {});
    expect(approved.status, approved.text).toBe(200);
    await app.waitFor(() => app.globalSettings.apiKey, { what: 'the key saved in the global settings' });
    const apiKey = app.globalSettings.apiKey as string;
    expect(app.globalSettings).toEqual({ relayUrl: harness.baseUrl, apiKey: expect.stringMatching(/^ttr_/) });
    const made = (await harness.admin('GET', '/admin/keys')).body.keys.find(
      (key: { name: string }) => key.name === 'Stream Deck',
    );
    expect([...made.scopes].sort()).toEqual([...DECK_SCOPES].sort());

    await app.waitFor(() => app.title(roll.context) === '1d6' && svgOf(app.image(status.context)).includes('#22c55e'), {
      what: 'the keys alive',
    });
    app.press(roll.context);
    await app.waitFor(() => /^[1-6]$/.test(app.title(roll.context) ?? ''), { what: "the roll's total" });
    expect(requests.filter(({ request: sent }) => sent.type === 'roll')).toHaveLength(1);

    const written = [pluginLogs(app.plugin.dir), app.output, ...app.logMessages].join('\n');
    expect(written.length).toBeGreaterThan(0);
    expect(written).not.toContain(apiKey);
    expect(written).not.toContain(apiKey.slice(4, 20));
  });

  it('started again, the plugin uses the key the app kept and asks for none', async () => {
    const { harness } = deck;
    const again = await StreamDeckApp.start({
      pluginDir: await installedDeckPlugin(),
      globalSettings: deck.app.globalSettings,
    });
    try {
      const status = again.appear(deckAction('status'));
      await again.waitFor(() => svgOf(again.image(status.context)).includes('#22c55e'), { what: 'a green light' });
      expect((await harness.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
      expect(again.commands.filter(({ command }) => command.event === 'setGlobalSettings')).toEqual([]);
    } finally {
      await again.stop();
    }
  });

  it('a key revoked in Tabletop Relay shows on the deck; a key given in the settings brings it back', async () => {
    const { app, harness } = deck;
    const roll = app.appear(deckAction('roll'), { formula: '1d4' });
    const status = app.appear(deckAction('status'));
    await app.waitFor(() => app.title(roll.context) === '1d4' && svgOf(app.image(status.context)).includes('#22c55e'));
    const made = (await harness.admin('GET', '/admin/keys')).body.keys.find(
      (key: { name: string }) => key.name === 'Stream Deck',
    );
    expect((await harness.admin('DELETE', `/admin/keys/${made.id}`)).status).toBe(200);
    const pressedAt = app.press(roll.context);
    await app.waitFor(() => roll.alerts.length === 1, { timeoutMs: 2500, what: 'an alert' });
    expect(roll.alerts[0]! - pressedAt).toBeLessThan(2500);
    await app.waitFor(() => app.title(status.context) === 'No key', { timeoutMs: 7000, what: 'No key on the status' });

    // The GM pastes a new key in the plugin's settings (the property inspector writes the global settings).
    const apiKey = await harness.createKey({ scopes: DECK_SCOPES, name: 'Stream Deck, by hand' });
    app.changeGlobalSettings({ relayUrl: harness.baseUrl, apiKey });
    await app.waitFor(() => svgOf(app.image(status.context)).includes('#22c55e'), { what: 'a green light again' });
    const mark = app.commands.length;
    app.press(roll.context);
    await app.waitFor(() => /^[1-4]$/.test(app.title(roll.context) ?? ''), { what: "the roll's total" });
    expect(app.commandsFor(roll.context, 'showAlert', mark)).toEqual([]);
  });

  it('sent nothing the Stream Deck app does not know, and never crashed', () => {
    expect(deck.app.rejected).toEqual([]);
    expect(deck.app.crashes).toEqual([]);
  });
});
