import { describe, expect, it } from 'vitest';
import { durationSince, menuFor, sameMenu, statusText, type TrayMenuItem } from '../../main/tray-menu.ts';
import type { TrayStatus } from '../../main/tray-status.ts';
import { relaySnapshot, trayStatus } from './tray-fixtures.ts';
import type { KeeperView, WorldKeeping } from '../../contracts/keeper.ts';

const NOW = new Date('2026-03-01T20:00:00Z');

const relay = relaySnapshot;

const WORLD = {
  clientId: 'fvtt_abc',
  worldTitle: 'Curse of Strahd',
  systemId: 'dnd5e',
  systemTitle: 'Dungeons & Dragons Fifth Edition',
  systemVersion: '5.1.2',
  foundryVersion: '13.345',
  connectedSince: '2026-03-01T17:55:00Z',
};

function status(overrides: Partial<TrayStatus> = {}): TrayStatus {
  return trayStatus(NOW, overrides);
}

const labels = (items: TrayMenuItem[]) => items.map((item) => ('label' in item ? item.label : '---'));
const actionItem = (items: TrayMenuItem[], action: string) =>
  items.find((item) => 'action' in item && item.action === action);

describe('menuFor', () => {
  it('lists the world title, system and version, and how long it has been connected', () => {
    const items = menuFor(status({ relay: relay({ worlds: [WORLD], callsLastMinute: 42, eventStreams: 3 }) }));
    expect(labels(items).slice(0, 5)).toEqual([
      'Curse of Strahd',
      '    Dungeons & Dragons Fifth Edition 5.1.2',
      '    Connected for 2 h 5 min',
      '42 API calls in the last minute',
      '3 event streams open',
    ]);
    expect(items.slice(0, 5).every((item) => item.type === 'status')).toBe(true);
  });

  it('says no world is connected, with singular counts', () => {
    const items = menuFor(status({ relay: relay({ callsLastMinute: 1, eventStreams: 1 }) }));
    expect(labels(items).slice(0, 3)).toEqual([
      'No world connected',
      '1 API call in the last minute',
      '1 event stream open',
    ]);
  });

  it('has the same actions in every state, so Linux always shows the tray icon', () => {
    const expected = [
      'copy-local-url',
      'open-settings',
      'pause-relay',
      'toggle-start-at-login',
      'toggle-update-checks',
      'open-logs-folder',
      'quit',
    ];
    for (const each of [
      status(),
      status({ relay: undefined, error: 'port 3010 is already in use' }),
      status({ relay: undefined }),
    ]) {
      const actions = menuFor(each).flatMap((item) => ('action' in item ? [item.action] : []));
      expect(actions).toEqual(expected);
    }
  });

  it('offers Copy LAN URL only while LAN access is on', () => {
    expect(actionItem(menuFor(status()), 'copy-lan-url')).toBeUndefined();
    const on = menuFor(status({ relay: relay({ lan: { enabled: true, urls: ['http://192.168.1.20:3010'] } }) }));
    expect(actionItem(on, 'copy-lan-url')).toEqual({
      type: 'action',
      label: 'Copy LAN URL',
      action: 'copy-lan-url',
      enabled: true,
    });
  });

  it('turns Pause into Resume while paused and says calls are refused', () => {
    const items = menuFor(status({ relay: relay({ paused: true }) }));
    expect(actionItem(items, 'pause-relay')).toBeUndefined();
    expect(actionItem(items, 'resume-relay')).toMatchObject({ label: 'Resume relay' });
    expect(labels(items)[0]).toBe('Paused: API calls are refused');
  });

  it('shows the start error and disables what needs a running relay', () => {
    const items = menuFor(status({ relay: undefined, error: 'port 3010 is already in use' }));
    expect(labels(items)[0]).toBe('Tabletop Relay: port 3010 is already in use');
    expect(actionItem(items, 'open-settings')).toMatchObject({ enabled: false });
    expect(actionItem(items, 'pause-relay')).toMatchObject({ enabled: false });
    expect(actionItem(items, 'quit')).toMatchObject({ label: 'Quit Tabletop Relay' });
  });

  it('ticks Start at login as the autostart says', () => {
    expect(actionItem(menuFor(status({ startAtLogin: true })), 'toggle-start-at-login')).toMatchObject({
      type: 'checkbox',
      checked: true,
    });
    expect(actionItem(menuFor(status()), 'toggle-start-at-login')).toMatchObject({ type: 'checkbox', checked: false });
  });

  it('says which port it took when the chosen one was in use, the relay URL the module needs, and offers to keep it', () => {
    const items = menuFor(
      status({ relay: relay({ url: 'http://127.0.0.1:3011', port: 3011, portFallback: { wanted: 3010 } }) }),
    );
    expect(labels(items).slice(0, 2)).toEqual([
      'Port 3010 was in use: listening on 3011',
      "Set the module's relay URL to ws://127.0.0.1:3011/relay",
    ]);
    expect(actionItem(items, 'keep-port')).toEqual({ type: 'action', label: 'Keep port 3011', action: 'keep-port' });
    expect(actionItem(menuFor(status()), 'keep-port')).toBeUndefined();
  });

  it('counts waiting pairing requests', () => {
    expect(labels(menuFor(status({ relay: relay({ pairRequests: [{}, {}] }) })))).toContain(
      '2 pairing requests waiting',
    );
  });

  it('lists the tools waiting for a key by name and the code they show, three at most', () => {
    const request = (appName: string, code: string) => ({ appName, code });
    const one = labels(menuFor(status({ relay: relay({ keyRequests: [request('Stream Deck', 'K7P-4QX')] }) })));
    expect(one.slice(1, 3)).toEqual(['1 key request waiting', '    Stream Deck · K7P-4QX']);

    const five = ['A', 'B', 'C', 'D', 'E'].map((name, index) => request(`Tool ${name}`, `AAA-00${index}`));
    const items = labels(menuFor(status({ relay: relay({ keyRequests: five }) })));
    const first = items.indexOf('5 key requests waiting');
    expect(items.slice(first + 1, first + 5)).toEqual([
      '    Tool A · AAA-000',
      '    Tool B · AAA-001',
      '    Tool C · AAA-002',
      '    and 2 more',
    ]);
  });

  it('shortens a long tool name', () => {
    const appName = 'A very long name that a tool gave itself to stand out in the list';
    const items = labels(menuFor(status({ relay: relay({ keyRequests: [{ appName, code: 'K7P-4QX' }] }) })));
    expect(items).toContain('    A very long name that a tool gave itsel… · K7P-4QX');
  });
});

describe('statusText', () => {
  it('names the one connected world', () => {
    expect(statusText(status({ relay: relay({ worlds: [WORLD] }) }))).toBe('Tabletop Relay: Curse of Strahd connected');
  });

  it('counts several worlds', () => {
    expect(statusText(status({ relay: relay({ worlds: [WORLD, { ...WORLD, clientId: 'fvtt_def' }] }) }))).toBe(
      'Tabletop Relay: 2 worlds connected',
    );
  });

  it('says when no world, paused, starting or failed', () => {
    expect(statusText(status())).toBe('Tabletop Relay: no world connected');
    expect(statusText(status({ relay: relay({ paused: true, worlds: [WORLD] }) }))).toBe('Tabletop Relay is paused');
    expect(statusText(status({ relay: undefined }))).toBe('Tabletop Relay is starting…');
    expect(statusText(status({ relay: undefined, error: 'the relay could not start' }))).toBe(
      'Tabletop Relay: the relay could not start',
    );
  });

  it('counts the requests waiting for the GM, by kind when only one kind waits', () => {
    const key = { appName: 'Stream Deck', code: 'K7P-4QX' };
    expect(statusText(status({ relay: relay({ worlds: [WORLD], keyRequests: [key] }) }))).toBe(
      'Tabletop Relay: Curse of Strahd connected · 1 key request waiting',
    );
    expect(statusText(status({ relay: relay({ pairRequests: [{}, {}] }) }))).toBe(
      'Tabletop Relay: no world connected · 2 pairing requests waiting',
    );
    expect(statusText(status({ relay: relay({ paused: true, pairRequests: [{}], keyRequests: [key, key] }) }))).toBe(
      'Tabletop Relay is paused · 3 requests waiting',
    );
    const held = { code: 'M2D-9RT', keyName: 'Assistant', summary: 'Delete a document' };
    expect(statusText(status({ relay: relay({ worlds: [WORLD], confirmations: [held] }) }))).toBe(
      'Tabletop Relay: Curse of Strahd connected · 1 change waiting',
    );
    expect(statusText(status({ relay: relay({ keyRequests: [key], confirmations: [held, held] }) }))).toBe(
      'Tabletop Relay: no world connected · 3 requests waiting',
    );
  });

  it('falls back to the client id for a world without a title', () => {
    expect(
      statusText(status({ relay: relay({ worlds: [{ clientId: 'fvtt_x', connectedSince: WORLD.connectedSince }] }) })),
    ).toBe('Tabletop Relay: fvtt_x connected');
  });
});

describe('durationSince', () => {
  it.each([
    ['2026-03-01T19:59:30Z', 'less than a minute'],
    ['2026-03-01T19:48:00Z', '12 min'],
    ['2026-03-01T18:00:00Z', '2 h'],
    ['2026-02-28T17:00:00Z', '1 d 3 h'],
  ])('since %s is %s', (since, words) => {
    expect(durationSince(since, NOW)).toBe(words);
  });
});

describe('statusText with a port fallback', () => {
  it('names the port in use and the one that was taken', () => {
    expect(statusText(status({ relay: relay({ port: 3011, portFallback: { wanted: 3010 } }) }))).toBe(
      'Tabletop Relay on port 3011: port 3010 was in use',
    );
  });
});

describe('sameMenu', () => {
  it('is true only for a menu that shows the same items', () => {
    const shown = menuFor(status({ relay: relay({ worlds: [WORLD] }) }));
    expect(sameMenu(undefined, shown)).toBe(false);
    expect(sameMenu(shown, menuFor(status({ relay: relay({ worlds: [WORLD] }) })))).toBe(true);
    // Seconds pass: "Connected for 2 h 5 min" still reads the same.
    expect(
      sameMenu(shown, menuFor(status({ relay: relay({ worlds: [WORLD] }), now: new Date(NOW.getTime() + 30_000) }))),
    ).toBe(true);
    expect(
      sameMenu(shown, menuFor(status({ relay: relay({ worlds: [WORLD] }), now: new Date(NOW.getTime() + 60_000) }))),
    ).toBe(false);
    expect(sameMenu(shown, menuFor(status({ relay: relay({ worlds: [WORLD], callsLastMinute: 1 }) })))).toBe(false);
    expect(sameMenu(shown, menuFor(status({ relay: relay({ worlds: [WORLD] }), startAtLogin: true })))).toBe(false);
  });
});

describe('menuFor, with world keepers', () => {
  const keeper = (overrides: Partial<KeeperView> = {}): KeeperView => ({
    enabled: true,
    username: 'Tabletop Relay',
    passwordSet: true,
    adminPasswordSet: false,
    phase: 'kept',
    since: '2026-03-01T19:00:00Z',
    transitions: [],
    ...overrides,
  });
  const kept = (overrides: Partial<KeeperView>, connected: boolean): WorldKeeping => ({
    clientId: WORLD.clientId,
    worldTitle: WORLD.worldTitle,
    connected,
    keeper: keeper(overrides),
  });

  it('says a world is online through the keeper, in the menu and the tooltip', () => {
    const shown = status({ relay: relay({ worlds: [WORLD], keeping: [kept({ phase: 'kept' }, true)] }) });
    expect(labels(menuFor(shown))[2]).toBe('    Online through the keeper for 2 h 5 min');
    expect(statusText(shown)).toBe('Tabletop Relay: Curse of Strahd kept online');
  });

  it('says why a kept world is offline and when the keeper tries again', () => {
    const retrying = kept(
      { phase: 'retrying', reason: 'Foundry is not reachable', retryAt: '2026-03-01T20:00:20Z' },
      false,
    );
    const items = labels(menuFor(status({ relay: relay({ keeping: [retrying] }) })));
    expect(items.slice(0, 3)).toEqual([
      'No world connected',
      'Curse of Strahd',
      '    Offline: Foundry is not reachable. Retry in 20 s',
    ]);
  });

  it('has a Keep online switch per paired world, ticked as its keeper is', () => {
    const items = menuFor(status({ relay: relay({ keeping: [kept({ enabled: false, phase: 'off' }, false)] }) }));
    expect(items.find((item) => item.type === 'keep-online')).toEqual({
      type: 'keep-online',
      label: 'Keep Curse of Strahd online',
      clientId: WORLD.clientId,
      checked: false,
    });
  });
});
