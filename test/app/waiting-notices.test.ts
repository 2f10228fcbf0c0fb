// The desktop notifications of what waits for the GM (a tool's key request, a change held for approval), without
// Electron: one notice per request, from its arrival until the GM decides it, and a click opens the settings on it.
import { describe, expect, it } from 'vitest';
import { keyRequestNotice, keyRequestPage } from '../../main/key-request-notices.ts';
import { confirmationNotice, confirmationPage } from '../../main/confirmation-notices.ts';
import { WaitingNotices, type Notice } from '../../main/waiting-notices.ts';

interface Shown extends Notice {
  click(): void;
  closed: boolean;
}

function recorder() {
  const shown: Shown[] = [];
  const opened: string[] = [];
  const notices = new WaitingNotices(
    (notice, onClick) => {
      const entry: Shown = { ...notice, click: onClick, closed: false };
      shown.push(entry);
      return { close: () => void (entry.closed = true) };
    },
    keyRequestNotice,
    (code) => opened.push(code),
  );
  return { notices, shown, opened };
}

const STREAM_DECK = { appName: 'Stream Deck', code: 'K7P-4QX' };
const BOT = { appName: 'Dice bot', code: 'M2D-9RT' };

describe('keyRequestNotice', () => {
  it('names the tool and says where to approve it, with the code the tool shows', () => {
    expect(keyRequestNotice(STREAM_DECK)).toEqual({
      title: 'Stream Deck asks for an API key',
      body: 'Open Tabletop Relay to approve it. The tool shows the code K7P-4QX.',
    });
  });

  it('shortens a long name, so the title stays readable', () => {
    const { title } = keyRequestNotice({ appName: 'x'.repeat(100), code: 'K7P-4QX' });
    expect(title).toBe(`${'x'.repeat(39)}… asks for an API key`);
  });
});

describe('WaitingNotices', () => {
  it('shows one notice per request when it arrives, never again while it waits', () => {
    const { notices, shown } = recorder();
    notices.update([]);
    notices.update([STREAM_DECK]);
    notices.update([STREAM_DECK]);
    notices.update([STREAM_DECK, BOT]);
    expect(shown.map((notice) => notice.title)).toEqual([
      'Stream Deck asks for an API key',
      'Dice bot asks for an API key',
    ]);
  });

  it('takes the notice down once the request is decided or expired', () => {
    const { notices, shown } = recorder();
    notices.update([STREAM_DECK, BOT]);
    notices.update([BOT]);
    expect(shown.map((notice) => notice.closed)).toEqual([true, false]);
    notices.close();
    expect(shown.map((notice) => notice.closed)).toEqual([true, true]);
  });

  it('a click opens the settings on the request it names', () => {
    const { notices, shown, opened } = recorder();
    notices.update([STREAM_DECK, BOT]);
    shown[1]!.click();
    expect(opened).toEqual(['M2D-9RT']);
    expect(keyRequestPage('M2D-9RT')).toBe('status/key-request/M2D-9RT');
  });

  it('a request that comes back after it left is a new arrival', () => {
    const { notices, shown } = recorder();
    notices.update([STREAM_DECK]);
    notices.update([]);
    notices.update([STREAM_DECK]);
    expect(shown).toHaveLength(2);
  });

  it('keeps following requests where the system shows no notifications', () => {
    const opened: string[] = [];
    const notices = new WaitingNotices(
      () => undefined,
      keyRequestNotice,
      (code) => opened.push(code),
    );
    notices.update([STREAM_DECK]);
    notices.update([]);
    expect(opened).toEqual([]);
  });
});

describe('confirmationNotice', () => {
  it('names the key and the change, and says nothing changes until the GM decides', () => {
    const held = { code: 'K7P-4QX', keyName: 'Assistant', summary: 'Delete a document', worldTitle: 'Curse of Strahd' };
    expect(confirmationNotice(held)).toEqual({
      title: 'Assistant asks to change your world',
      body: 'Delete a document in Curse of Strahd. Open Tabletop Relay to approve or deny it; nothing changes until you do.',
    });
    expect(confirmationPage('K7P-4QX')).toBe('status/confirmation/K7P-4QX');
  });
});
