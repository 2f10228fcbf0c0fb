// The settings UI's plain logic: reading the admin event stream, grouping and flagging scopes for the key form and
// key requests, and an overlay's URL for OBS.
import { describe, expect, it } from 'vitest';
import { LiveState, parseEvents } from '../../renderer/src/live.ts';
import type { PairRequest, RelayStatus } from '../../renderer/src/admin-api.ts';
import { groupScopes, isWriteScope } from '../../renderer/src/scopes.ts';
import { fitScale, overlayUrl } from '../../renderer/src/overlay-url.ts';
import { defaultOverlayOptions } from '../../contracts/overlays.ts';
import { DEFAULT_SCOPES, SCOPES, TOOL_SCOPES } from '../../relay/auth/scopes.ts';

describe('parseEvents', () => {
  it('reads named events and keeps an unfinished one for the next chunk', () => {
    const { events, rest } = parseEvents(
      'event: status\ndata: {"paused":false}\n\n: keepalive\n\nevent: activity\ndata: {"status"',
    );
    expect(events).toEqual([{ event: 'status', data: '{"paused":false}' }]);
    expect(parseEvents(`${rest}:200}\n\n`).events).toEqual([{ event: 'activity', data: '{"status":200}' }]);
  });

  it('joins multi-line data and accepts CRLF', () => {
    expect(parseEvents('event: status\r\ndata: a\r\ndata: b\r\n\r\n').events).toEqual([
      { event: 'status', data: 'a\nb' },
    ]);
  });
});

describe('LiveState', () => {
  const request = (code: string, status = 'pending') =>
    ({
      code,
      status,
      upgradeOnly: false,
      world: { worldId: code },
      source: '127.0.0.1',
      createdAt: '',
      expiresAt: '',
    }) as PairRequest;
  const initial = {
    url: 'http://127.0.0.1:3010',
    paused: false,
    pairRequests: [request('A')],
  } as unknown as RelayStatus;
  const event = (name: string, data: unknown) => ({ event: name, data: JSON.stringify(data) });

  it('keeps the waiting requests across status events, which carry none', () => {
    const state = new LiveState(initial);
    expect(state.apply(event('status', { url: 'http://127.0.0.1:3010', paused: true }))).toMatchObject({
      paused: true,
      pairRequests: [request('A')],
    });
  });

  it('takes the counters into the status it has, leaving the rest as it was', () => {
    const state = new LiveState(initial);
    expect(state.apply(event('counters', { callsLastMinute: 7, eventStreams: 2 }))).toMatchObject({
      url: 'http://127.0.0.1:3010',
      callsLastMinute: 7,
      eventStreams: 2,
      pairRequests: [request('A')],
    });
  });

  it('adds a request that appears, drops one that is decided or expired, and replaces the list when the feed reopens', () => {
    const state = new LiveState(initial);
    expect(state.apply(event('pair-request', request('B')))?.pairRequests.map((r) => r.code)).toEqual(['A', 'B']);
    expect(state.apply(event('pair-request', request('A', 'expired')))?.pairRequests.map((r) => r.code)).toEqual(['B']);
    expect(
      state.apply(event('pair-requests', { pairRequests: [request('C')] }))?.pairRequests.map((r) => r.code),
    ).toEqual(['C']);
    expect(state.apply(event('activity', {}))).toBeUndefined();
  });
});

describe('isWriteScope', () => {
  it("flags exactly the relay's scopes beyond its read-only defaults, execute-js apart (a key request flags it red)", () => {
    const writes = TOOL_SCOPES.filter((scope) => scope !== 'execute-js' && !DEFAULT_SCOPES.includes(scope));
    expect(TOOL_SCOPES.filter(isWriteScope)).toEqual(writes);
    expect(writes).toContain('playlist:control');
    expect(writes).toContain('session:manage');
  });
});

describe('groupScopes', () => {
  const groups = groupScopes(SCOPES);

  it('places every scope of the relay in exactly one group', () => {
    const placed = groups.flatMap((group) => group.scopes);
    expect([...placed].sort()).toEqual([...SCOPES].sort());
    expect(groups.find((group) => group.title === 'Other')).toBeUndefined();
  });

  it('keeps execute-js alone in the last group, marked dangerous', () => {
    expect(groups.at(-1)).toEqual({ title: 'Dangerous', scopes: ['execute-js'], dangerous: true });
    expect(groups.slice(0, -1).some((group) => group.scopes.includes('execute-js'))).toBe(false);
  });

  it('sets world:link apart in a group of its own, which the key form leaves to "Connect a 2.x module"', () => {
    expect(groups.filter((group) => group.scopes.includes('world:link'))).toEqual([
      { title: '2.x module link', scopes: ['world:link'], worldLink: true },
    ]);
  });

  it('puts a scope it does not know under Other rather than dropping it', () => {
    expect(groupScopes(['roll:read', 'pf2e']).map((group) => group.title)).toEqual(['Dice rolls', 'Other']);
  });
});

describe('overlayUrl', () => {
  const link = 'http://127.0.0.1:7777/overlays/dice?link=ttol_secret';

  it('puts the options after the link, the accent escaped, and leaves out those the overlay does not take', () => {
    const dice = new URL(overlayUrl(link, 'dice', { ...defaultOverlayOptions('dice'), accent: '#3fb8af' }));
    expect(dice.search).toBe(
      '?link=ttol_secret&theme=dark&accent=%233fb8af&fontSize=24&max=5&hold=15&position=bottom-right',
    );
    const card = new URL(
      overlayUrl(
        'http://127.0.0.1:7777/overlays/character-card?link=x',
        'character-card',
        defaultOverlayOptions('character-card'),
      ),
    );
    expect([...card.searchParams.keys()]).toEqual(['link', 'theme', 'accent', 'fontSize', 'position']);
  });

  it('moves the URL to a LAN address for OBS on another computer, path and query kept', () => {
    expect(overlayUrl(link, 'dice', defaultOverlayOptions('dice'), 'http://192.168.1.20:7777')).toMatch(
      /^http:\/\/192\.168\.1\.20:7777\/overlays\/dice\?link=ttol_secret&theme=dark/,
    );
  });
});

describe('fitScale', () => {
  it('shrinks an overlay to fit the preview, never enlarges it', () => {
    expect(fitScale({ width: 520, height: 720 }, { width: 400, height: 360 })).toBe(0.5);
    expect(fitScale({ width: 640, height: 160 }, { width: 400, height: 360 })).toBe(0.625);
    expect(fitScale({ width: 100, height: 100 }, { width: 400, height: 360 })).toBe(1);
  });
});
