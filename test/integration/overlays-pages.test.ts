import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERLAY_NAMES, OVERLAYS, type OverlayPageConfig } from '../../contracts/overlays.ts';
import { getOverlay, makeOverlayLink } from '../harness/overlays.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';
import { call } from '../harness/http.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

function configIn(html: string): OverlayPageConfig {
  const match = /<script type="application\/json" id="overlay-config">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error(`no overlay config in ${html}`);
  return JSON.parse(match[1]!) as OverlayPageConfig;
}

describe('overlay pages', () => {
  it('serve each overlay with its config, defaults from the catalog, and a strict CSP', async () => {
    const actorUuid = await uuidOf(harness, 'Thorin Ironfoot');
    for (const overlay of OVERLAY_NAMES) {
      const { link } = await makeOverlayLink(harness, overlay, { customCss: '.name { color: gold }', actorUuid });
      const page = await getOverlay(harness, overlay, '', link);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'self'",
      );
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.text).toContain('<link rel="stylesheet" href="/overlays/assets/overlay.css">');
      expect(page.text).toContain('<script src="/overlays/assets/overlay.js" defer></script>');
      const position = OVERLAYS[overlay].position;
      expect(page.text).toContain(`<body class="overlay overlay-${overlay} theme-dark position-${position}">`);
      const config = configIn(page.text);
      expect(config).toMatchObject({
        overlay,
        options: { theme: 'dark', position },
        stateUrl: `/overlays/${overlay}/state?link=${link}`,
        eventsUrl: `/overlays/${overlay}/events?link=${link}`,
        customCss: '.name { color: gold }',
      });
      expect(config.options.accent).toMatch(/^#[0-9a-f]{6}$/);
      expect(config.sheetUrl).toBeUndefined();
    }
  });

  it('take the options of the URL, and the sheet variant for the character card', async () => {
    const { link } = await makeOverlayLink(harness, 'dice');
    const page = await getOverlay(harness, 'dice', '', link, {
      theme: 'light',
      accent: 'FF8800',
      fontSize: 32,
      max: 3,
      position: 'top-left',
      hold: 4.5,
    });
    expect(page.text).toContain('<body class="overlay overlay-dice theme-light position-top-left">');
    expect(configIn(page.text).options).toEqual({
      theme: 'light',
      accent: '#ff8800',
      fontSize: 32,
      max: 3,
      position: 'top-left',
      hold: 4.5,
    });
    const card = await makeOverlayLink(harness, 'character-card', { actorUuid: 'Actor.x' });
    const sheet = configIn((await getOverlay(harness, 'character-card', '', card.link, { sheet: true })).text);
    expect(sheet.sheetUrl).toBe(`/overlays/character-card/sheet?link=${card.link}`);
  });

  it('refuse a bad option with a 400 that names it', async () => {
    const { link } = await makeOverlayLink(harness, 'dice');
    const cases: [Record<string, string>, string][] = [
      [{ theme: 'neon' }, "'theme' must be one of dark, light, none"],
      [{ accent: 'red' }, "'accent' must be a colour as #rrggbb (or rrggbb)"],
      [{ fontSize: '500' }, "'fontSize' must be between 10 and 96"],
      [{ max: '0' }, "'max' must be between 1 and 50"],
      [{ position: 'middle' }, "'position' must be one of top-left, top-right, bottom-left, bottom-right"],
      [{ hold: 'forever' }, "'hold' must be a number"],
    ];
    for (const [query, error] of cases) {
      const answer = await getOverlay(harness, 'dice', '', link, query);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body).toEqual({ error });
    }
  });

  it('keep the custom CSS and the world’s text from closing the config script', async () => {
    const customCss = '</script><script>alert(1)</script><!-- & \u2028';
    const { link } = await makeOverlayLink(harness, 'chat', { customCss });
    const page = await getOverlay(harness, 'chat', '', link);
    expect(page.text.match(/<script/g)).toHaveLength(2);
    expect(page.text).not.toContain('<!--');
    expect(configIn(page.text).customCss).toBe(customCss);
  });

  it("serve the pages' script and style sheet, and nothing else from there", async () => {
    const script = await call(harness.baseUrl, 'GET', '/overlays/assets/overlay.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('no-cache');
    expect(script.text.length).toBeGreaterThan(100);
    const style = await call(harness.baseUrl, 'GET', '/overlays/assets/overlay.css');
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const file of ['index.html', 'app.js', '..%2Findex.html', 'overlay.js.map']) {
      const other = await call(harness.baseUrl, 'GET', `/overlays/assets/${file}`);
      expect(other.status, file).toBe(404);
    }
  });
});

describe('overlay views', () => {
  it('dice: the recent public rolls, oldest first, crits called on a natural 20', async () => {
    const { link } = await makeOverlayLink(harness, 'dice');
    harness.world.simulate.playerRoll('alice', '1d20+5', 'Longsword');
    const state = await getOverlay(harness, 'dice', '/state', link);
    expect(state.status).toBe(200);
    expect(state.headers.get('cache-control')).toBe('no-store');
    const rolls = state.body as any[];
    expect(rolls.length).toBeGreaterThan(0);
    const last = rolls.at(-1);
    expect(last).toMatchObject({ who: 'Thorin Ironfoot', formula: '1d20+5', flavor: 'Longsword' });
    expect(last.dice[0].faces).toBe(20);
    expect(last.total).toBe(last.dice[0].results[0].result + 5);
    expect(last.critical).toBe(last.dice[0].results[0].result === 20);
    const times = rolls.map((roll) => roll.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('chat: public lines as plain text, rolls left to the dice feed', async () => {
    const { link } = await makeOverlayLink(harness, 'chat');
    await harness.post('/chat', { content: '<p>The <strong>door</strong> creaks &amp; opens</p><script>x()</script>' });
    const lines = (await getOverlay(harness, 'chat', '/state', link)).body as any[];
    expect(lines.at(-1)).toMatchObject({ text: 'The door creaks & opens' });
    expect(lines.every((line) => typeof line.text === 'string' && !line.text.includes('<'))).toBe(true);
  });

  it('initiative: nothing before the combat begins, then its order without hidden combatants', async () => {
    const link = await makeOverlayLink(harness, 'initiative', { hpBars: true });
    const plain = await makeOverlayLink(harness, 'initiative');
    expect((await getOverlay(harness, 'initiative', '/state', link.link)).body).toMatchObject({ active: false });
    const combat = harness.world.simulate.startCombat();
    const rows = (await harness.get('/encounters')).body.encounters.find((row: any) => row.id === combat.id).combatants;
    // The last in the order is hidden: the first one's turn stays the turn shown.
    const last = rows.reduce((low: any, row: any) => (row.initiative < low.initiative ? row : low));
    harness.world.game.updateDocument(combat.collection('Combatant').get(last.id)!, { hidden: true });
    const view = (await getOverlay(harness, 'initiative', '/state', link.link)).body;
    expect(view).toMatchObject({ active: true, round: 1, turn: 0 });
    const names = view.combatants.map((combatant: any) => combatant.name);
    expect(names).not.toContain(last.name);
    expect(names).toHaveLength(rows.length - 1);
    const initiatives = view.combatants.map((combatant: any) => combatant.initiative ?? -Infinity);
    expect(initiatives).toEqual([...initiatives].sort((a, b) => b - a));
    expect(view.combatants.find((combatant: any) => combatant.name === 'Thorin Ironfoot').hp).toEqual({
      value: 34,
      max: 34,
    });
    const withoutBars = (await getOverlay(harness, 'initiative', '/state', plain.link)).body;
    expect(withoutBars.combatants.every((combatant: any) => combatant.hp === undefined)).toBe(true);
    harness.world.simulate.endCombat();
  });

  it('now playing: the sounds playing, with their playlist', async () => {
    const { link } = await makeOverlayLink(harness, 'now-playing');
    expect((await getOverlay(harness, 'now-playing', '/state', link)).body).toEqual({ playing: [] });
    await harness.post('/playlist/play', { playlistName: 'Tavern Songs', soundName: 'Bardic Ballad' });
    expect((await getOverlay(harness, 'now-playing', '/state', link)).body).toEqual({
      playing: [{ playlist: 'Tavern Songs', track: 'Bardic Ballad' }],
    });
    await harness.post('/playlist/stop', { playlistName: 'Tavern Songs' });
  });

  it('character card: name, HP, AC and the dnd5e fields of the link’s actor', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const { link } = await makeOverlayLink(harness, 'character-card', { actorUuid: thorin });
    const card = (await getOverlay(harness, 'character-card', '/state', link)).body;
    expect(card).toEqual({
      name: 'Thorin Ironfoot',
      hp: { value: 34, max: 34 },
      ac: 18,
      fields: [
        { label: 'Class', value: 'Fighter 4' },
        { label: 'Level', value: '4' },
        { label: 'Speed', value: '25 ft' },
      ],
    });
    const gone = await makeOverlayLink(harness, 'character-card', { actorUuid: 'Actor.noSuchActor0000' });
    const refused = await getOverlay(harness, 'character-card', '/state', gone.link);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/not found/i);
  });

  it('character card: the sheet image, as GET /sheet renders it', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const { link } = await makeOverlayLink(harness, 'character-card', { actorUuid: thorin });
    const response = await fetch(`${harness.baseUrl}/overlays/character-card/sheet?link=${link}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });
});
