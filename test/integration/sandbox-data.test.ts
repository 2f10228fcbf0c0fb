// Issue 27, item 3: the sandbox answers where tools look as a Foundry world with dnd5e does. A content tool's tests
// failed on Hold Monster and Wall of Fire (the spell pack held 4 spells), an actor created with an armour class in
// `system.attributes.ac.value` lost it, an icon cache could not list Foundry's public folder, short compendium uuids
// did not resolve, and scripts could not read the module's own settings. Each through the relay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

/** The pack entry a search finds for an exact spell name, searched as content tools search: by name among spells. */
async function spellHit(name: string, filter: string): Promise<{ uuid: string; name: string; package: string }> {
  const answer = await harness.get('/search', { query: name.toLowerCase(), filter });
  expect(answer.status).toBe(200);
  const hit = answer.body.results.find((result: { name: string }) => result.name === name);
  expect(hit, `${name} among ${answer.text.slice(0, 300)}`).toBeDefined();
  return hit;
}

describe('the SRD 5.1 spells in dnd5e.spells', () => {
  it('holds the SRD spells, over 300, each once', async () => {
    const pack = (await harness.get('/structure', { path: 'Compendium.dnd5e.spells' })).body.data.compendium;
    expect(pack.entities.length).toBeGreaterThanOrEqual(300);
    expect(new Set(pack.entities.map((entry: { name: string }) => entry.name)).size).toBe(pack.entities.length);
  });

  it('finds Hold Monster and Wall of Fire by name among spells, and GET /get gives their facts', async () => {
    const holdMonster = await spellHit('Hold Monster', 'package:dnd5e.spells');
    expect(holdMonster.package).toBe('dnd5e.spells');
    const wallOfFire = await spellHit('Wall of Fire', 'documentType:Item,subType:spell');
    expect((await harness.get('/get', { uuid: holdMonster.uuid })).body.data).toMatchObject({
      name: 'Hold Monster',
      type: 'spell',
      system: {
        level: 5,
        school: 'enc',
        properties: ['vocal', 'somatic', 'material', 'concentration'],
        activation: { type: 'action', value: 1 },
        range: { value: 90, units: 'ft' },
        duration: { value: '1', units: 'minute' },
        description: { value: expect.stringMatching(/^<p>.+<\/p>$/) },
        source: { book: 'SRD 5.1', license: 'CC-BY-4.0' },
      },
    });
    expect((await harness.get('/get', { uuid: wallOfFire.uuid })).body.data.system).toMatchObject({
      level: 4,
      school: 'evo',
      range: { value: 120, units: 'ft' },
      duration: { value: '1', units: 'minute' },
    });
  });

  it('knows rituals, cantrips, reactions and areas', async () => {
    const facts = async (name: string) =>
      (await harness.get('/get', { uuid: (await spellHit(name, 'package:dnd5e.spells')).uuid })).body.data.system;
    expect(await facts('Detect Magic')).toMatchObject({
      level: 1,
      properties: ['vocal', 'somatic', 'ritual', 'concentration'],
      range: { units: 'self' },
    });
    expect(await facts('Fire Bolt')).toMatchObject({ level: 0, school: 'evo', duration: { units: 'inst' } });
    expect(await facts('Counterspell')).toMatchObject({ properties: ['somatic'], activation: { type: 'reaction' } });
    expect(await facts('Cone of Cold')).toMatchObject({ range: { units: 'self', special: '60-foot cone' } });
  });
});

describe('dnd5e data a tool writes', () => {
  it('an armour class created in system.attributes.ac.value moves to ac.flat, as dnd5e migrates it', async () => {
    const created = await harness.post('/create', {
      entityType: 'Actor',
      data: { name: 'Iron Sentinel', type: 'npc', system: { attributes: { ac: { value: 17 } } } },
    });
    expect(created.status).toBe(200);
    expect(created.body.entity.system.attributes.ac).toMatchObject({ flat: 17, calc: 'natural' });
    const hero = await harness.post('/create', {
      entityType: 'Actor',
      data: { name: 'Shield Bearer', type: 'character', system: { attributes: { ac: { value: '15' } } } },
    });
    expect(hero.body.entity.system.attributes.ac).toMatchObject({ flat: 15, calc: 'flat' });
    const details = await harness.get('/dnd5e/get-actor-details', { actorUuid: created.body.uuid, details: 'stats' });
    expect(details.body.data.stats.ac).toBe(17);
  });
});

describe("Foundry's public folder", () => {
  it('GET /file-system?source=public lists its icons, sounds and ui folders, and the icons the documents use', async () => {
    const top = await harness.get('/file-system', { source: 'public' });
    expect(top.status).toBe(200);
    expect(top.body).toMatchObject({ success: true, source: 'public' });
    const folders = top.body.results.filter((entry: { type: string }) => entry.type === 'directory');
    expect(folders.map((entry: { name: string }) => entry.name)).toEqual(
      expect.arrayContaining(['icons', 'sounds', 'ui']),
    );
    const svg = await harness.get('/file-system', { source: 'public', path: 'icons/svg' });
    expect(svg.body.results).toContainEqual({
      name: 'mystery-man.svg',
      path: 'icons/svg/mystery-man.svg',
      type: 'file',
    });
    const creatures = await harness.get('/file-system', { source: 'public', path: 'icons/creatures' });
    expect(creatures.body.results.map((entry: { name: string }) => entry.name)).toContain('goblin.webp');
  });

  it('downloads a public icon, and refuses an upload into the public folder', async () => {
    const icon = await harness.get('/download', { path: 'icons/svg/mystery-man.svg' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.text).toMatch(/^<svg /);
    const upload = await harness.post('/upload', {
      path: 'icons/svg',
      filename: 'mine.svg',
      source: 'public',
      fileData: 'data:image/svg+xml;base64,PHN2Zy8+',
    });
    expect(upload.status).toBe(400);
    expect(upload.body.error).toMatch(/takes uploads into "data" only/);
  });
});

describe('compendium uuids and scripts', () => {
  it('resolves a short compendium uuid, Compendium.<pack>.<id>, to the document of the full one', async () => {
    const hit = await spellHit('Fireball', 'package:dnd5e.spells');
    const id = hit.uuid.split('.').pop();
    const short = await harness.get('/get', { uuid: `Compendium.dnd5e.spells.${id}` });
    expect(short.status).toBe(200);
    expect(short.body.data).toMatchObject({ _id: id, name: 'Fireball' });
    const wrongType = await harness.get('/get', { uuid: `Compendium.dnd5e.spells.Actor.${id}` });
    expect(wrongType.status).toBe(400);
  });

  it("lets execute-js scripts read the module's own settings", async () => {
    harness.world.game.settings.allowExecuteJs = true;
    const script = `return ['wsRelayUrl', 'clientId', 'pingInterval', 'allowExecuteJs', 'customName']
      .map((key) => game.settings.get('foundry-rest-api', key));`;
    const answer = await harness.post('/execute-js', { script });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual([`${harness.wsUrl}/relay`, harness.clientId, 30, true, '']);
  });
});
