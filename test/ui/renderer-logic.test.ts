// The settings UI's plain logic: reading the admin event stream and grouping scopes for the key form.
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../renderer/src/live.ts';
import { groupScopes } from '../../renderer/src/scopes.ts';
import { SCOPES } from '../../relay/auth/scopes.ts';

describe('parseEvents', () => {
  it('reads named events and keeps an unfinished one for the next chunk', () => {
    const { events, rest } = parseEvents('event: status\ndata: {"paused":false}\n\n: keepalive\n\nevent: activity\ndata: {"status"');
    expect(events).toEqual([{ event: 'status', data: '{"paused":false}' }]);
    expect(parseEvents(`${rest}:200}\n\n`).events).toEqual([{ event: 'activity', data: '{"status":200}' }]);
  });

  it('joins multi-line data and accepts CRLF', () => {
    expect(parseEvents('event: status\r\ndata: a\r\ndata: b\r\n\r\n').events).toEqual([{ event: 'status', data: 'a\nb' }]);
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

  it('puts a scope it does not know under Other rather than dropping it', () => {
    expect(groupScopes(['roll:read', 'pf2e']).map((group) => group.title)).toEqual(['Dice rolls', 'Other']);
  });
});
