// Issue 23, item 12: names shown to the GM took line and paragraph separators, NEL, bidi marks and isolates,
// zero-width and tag characters and floods of combining marks, and a world title with CR/LF reached the tray menu.
// One rule now: a name a caller sends (a key request, an invitation's label) is refused with a 400 that names the field;
// a name a world sends about itself (a pair request, the /relay handshake, its player list) is cleaned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, type SandboxLink } from '../../sandbox/index.ts';
import { menuFor, statusText } from '../../main/tray-menu.ts';
import type { TrayStatus } from '../../main/tray-status.ts';
import { call } from '../harness/http.ts';
import { callFrom } from '../harness/from-address.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

/** What a stranger or a world tried to put in front of the GM, each hiding or rearranging text in its own way. */
const UNSHOWN: Record<string, string> = {
  'line feed': 'Stream\nDeck',
  'carriage return and line feed': 'Stream\r\nDeck',
  'line separator': 'Stream\u2028Deck',
  'paragraph separator': 'Stream\u2029Deck',
  'next line (NEL)': 'Stream\u0085Deck',
  'right-to-left override': 'Stream \u202ekceD',
  'right-to-left mark': 'Stream\u200f Deck',
  'arabic letter mark': 'Stream\u061c Deck',
  'first strong isolate': 'Stream \u2068Deck\u2069',
  'zero-width space': 'Stream\u200bDeck',
  'zero-width joiner': 'Stream\u200dDeck',
  'word joiner': 'Stream\u2060Deck',
  'byte order mark': 'Stream\ufeffDeck',
  'tag characters': 'Stream Deck\u{E0067}\u{E0062}\u{E007F}',
  'combining flood': `Stream De${'\u0301\u0300\u0302'.repeat(10)}ck`,
};

/** Names in any script, with their accents and emoji, show as they read. */
const SHOWN = ['Élodie’s Stream Deck', 'Tiếng Việt', 'サイコロ係', 'שולחן משחק', 'Spieltisch ⚔️', 'नमस्ते'];

/** A name that still hides something: an independent look for what the rule keeps out. */
function hidesSomething(text: string): boolean {
  return /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u.test(text) || /\p{M}{5,}/u.test(text);
}

let relay: TestRelay;
let link: SandboxLink;
let caller = 0;
/** Each request from an address of its own on this computer: the per-address rates are not what is tested here. */
const post = (path: string, body: unknown) => {
  caller += 1;
  return callFrom(`127.33.${Math.floor(caller / 250)}.${(caller % 250) + 1}`, relay.baseUrl, 'POST', path, body);
};
const clientId = 'fvtt_shownnames000001';

beforeAll(async () => {
  relay = await startTestRelay();
  const world = createSandboxWorld({ seed: 33, worldId: 'keep', worldTitle: 'The Keep\r\nPAID \u202eLIAME' });
  const player = world.game.users.contents.find((user) => user.source.role === 1)!;
  player.source.name = `Bob\u2028\u2067Admin\u2069${'\u0336'.repeat(40)}`;
  const { token } = relay.relay.services.connectionTokens.issue(clientId, 'Browser', 'pairing');
  link = await connectSandbox(world, { relayUrl: relay.wsUrl, clientId, token });
});

afterAll(async () => {
  await link?.close();
  await relay?.close();
});

describe('item 33: one rule for every name a stranger or a world puts in front of the GM', () => {
  it("a key request's name, description, user and worlds are refused when they hide something, naming the field", async () => {
    for (const [what, text] of Object.entries(UNSHOWN)) {
      for (const field of ['appName', 'appDescription', 'userId']) {
        const answer = await post('/auth/key-request', { appName: 'Tool', scopes: ['roll:read'], [field]: text });
        expect(answer.status, `${field}: ${what}`).toBe(400);
        expect(answer.body.error).toMatch(new RegExp(`^'${field}' must be plain text on one line`));
      }
      const worlds = await post('/auth/key-request', { appName: 'Tool', scopes: ['roll:read'], clientIds: [text] });
      expect(worlds.status, `clientIds: ${what}`).toBe(400);
    }
    expect((await relay.admin('GET', '/admin/key-requests')).body.keyRequests).toEqual([]);
    for (const name of SHOWN) {
      const answer = await post('/auth/key-request', { appName: name, scopes: ['roll:read'] });
      expect(answer.status, name).toBe(201);
      await relay.admin('POST', `/admin/key-requests/${answer.body.code}/deny`);
    }
  });

  it('a pair request shows the world it names cleaned, on one line, whatever the stranger sent', async () => {
    const texts = Object.values(UNSHOWN);
    for (const [index, text] of texts.entries()) {
      const answer = await post('/auth/pair-request', {
        worldId: `w${index}\u200b`,
        worldTitle: text,
        systemTitle: text,
      });
      expect(answer.status, JSON.stringify(text)).toBe(201);
      const { pairRequests } = (await relay.admin('GET', '/admin/pair-requests')).body;
      const shown = pairRequests.find((request: { code: string }) => request.code === answer.body.code).world;
      for (const value of [shown.worldId, shown.worldTitle, shown.systemTitle]) {
        expect(hidesSomething(value), JSON.stringify(value)).toBe(false);
      }
      expect(shown.worldId).toBe(`w${index}`);
      await relay.admin('POST', `/admin/pair-requests/${answer.body.code}/deny`);
    }
    const lines = await call(relay.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'lines', worldTitle: 'Line one\r\nLine two\u2028three\u0085four' },
    });
    const { pairRequests } = (await relay.admin('GET', '/admin/pair-requests')).body;
    expect(pairRequests.find((request: { code: string }) => request.code === lines.body.code).world.worldTitle).toBe(
      'Line one Line two three four',
    );
  });

  it("a world's title and players' names from /relay reach the settings and the tray menu cleaned", async () => {
    const status = relay.relay.status();
    const world = status.worlds.find((entry) => entry.clientId === clientId)!;
    expect(world.worldTitle).toBe('The Keep PAID LIAME');
    for (const player of world.players) expect(hidesSomething(player.name), JSON.stringify(player.name)).toBe(false);
    expect(world.players.map((player) => player.name)).toContain(`Bob Admin${'\u0336'.repeat(4)}`);

    const tray: TrayStatus = {
      relay: status,
      startAtLogin: false,
      checkForUpdates: true,
      update: { phase: 'unpackaged' },
      now: new Date(),
    };
    const labels = [statusText(tray), ...menuFor(tray).flatMap((item) => ('label' in item ? [item.label] : []))];
    expect(labels.join('\n')).toContain('The Keep PAID LIAME');
    for (const label of labels) expect(hidesSomething(label), JSON.stringify(label)).toBe(false);
  });

  it("an invitation's label is refused when it hides something; the player's name from the world comes cleaned", async () => {
    const player = relay.relay.status().worlds[0]!.players.find((entry) => entry.role === 1)!;
    for (const [what, text] of Object.entries(UNSHOWN)) {
      const answer = await relay.admin('POST', '/admin/invitations', { clientId, userId: player.id, name: text });
      expect(answer.status, what).toBe(400);
      expect(answer.body.error).toMatch(/^'name' must be plain text on one line/);
    }
    const made = await relay.admin('POST', '/admin/invitations', { clientId, userId: player.id });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe(`Invitation for ${player.name}`);
    expect(hidesSomething(made.body.userName)).toBe(false);
    expect(made.body.worldTitle).toBe('The Keep PAID LIAME');
  });
});
