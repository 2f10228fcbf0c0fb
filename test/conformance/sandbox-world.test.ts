// Issue 13, items 9–14: the sandbox world answers where clients look as a Foundry 13.348 world with the dnd5e system and
// the module 3.4.1 do. What Foundry and the module answer is written below as data; the checks go through the relay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoWorld } from '../../cli/demo.ts';
import { readModuleSettings } from '../../cli/module-settings.ts';
import { startTestRelay } from '../harness/relay.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

/** The compendium packs a dnd5e world has (a small copy of each), as `structure` lists them under `compendiumPacks`. */
const DND5E_PACKS = [
  { title: 'Monsters (SRD)', id: 'dnd5e.monsters', type: 'Actor', example: 'Kobold', subType: 'npc' },
  { title: 'Items (SRD)', id: 'dnd5e.items', type: 'Item', example: 'Longbow', subType: 'weapon' },
  { title: 'Spells (SRD)', id: 'dnd5e.spells', type: 'Item', example: 'Fireball', subType: 'spell' },
];

/** Foundry 13 source fields of a new document that clients read, with their default values. */
const CORE_FIELDS: Record<string, Record<string, unknown>> = {
  tokens: {
    elevation: 0,
    hidden: false,
    width: 1,
    height: 1,
    locked: false,
    rotation: 0,
    alpha: 1,
    disposition: -1,
    sight: { enabled: false, range: 0, angle: 360, visionMode: 'basic' },
    texture: { src: 'icons/svg/mystery-man.svg', scaleX: 1, scaleY: 1 },
  },
  tiles: {
    elevation: 0,
    hidden: false,
    locked: false,
    rotation: 0,
    alpha: 1,
    texture: { src: null, scaleX: 1, scaleY: 1 },
    occlusion: { modes: [], alpha: 0 },
  },
  drawings: { elevation: 0, hidden: false, locked: false, rotation: 0, fillType: 0, strokeWidth: 8, text: '' },
  walls: { move: 20, sight: 20, light: 20, sound: 20, dir: 0, door: 0, ds: 0 },
  lights: {
    elevation: 0,
    hidden: false,
    rotation: 0,
    walls: true,
    vision: false,
    config: { bright: 0, dim: 0, angle: 360, color: null },
  },
  sounds: { elevation: 0, hidden: false, radius: 0, volume: 0.5, repeat: false, walls: true, easing: true },
  notes: { elevation: 0, iconSize: 40, text: '', global: false, texture: { src: 'icons/svg/book.svg' } },
  templates: { elevation: 0, hidden: false, t: 'circle', direction: 0, angle: 0, width: 0 },
  regions: { shapes: [], elevation: { bottom: null, top: null }, visibility: 0, locked: false, behaviors: [] },
};

/** A dnd5e world's new scene (grid from the system: 5 ft) and new playlist. */
const SCENE_FIELDS = {
  active: false,
  navigation: true,
  navOrder: 0,
  navName: '',
  padding: 0.25,
  tokenVision: true,
  grid: { type: 1, size: 100, distance: 5, units: 'ft' },
  background: { src: null },
  regions: [],
  tokens: [],
};
const PLAYLIST_FIELDS = {
  mode: 0,
  channel: 'music',
  playing: false,
  fade: null,
  sorting: 'a',
  description: '',
  sounds: [],
};

/** A new dnd5e character: the prototype token core gives it and dnd5e's `Actor5e#_preCreate` adjusts, and dnd5e's data. */
const CHARACTER_FIELDS = {
  prototypeToken: {
    name: 'Scout',
    width: 1,
    height: 1,
    actorLink: true,
    disposition: 1,
    sight: { enabled: true },
    texture: { src: 'icons/svg/mystery-man.svg' },
    bar1: { attribute: 'attributes.hp' },
  },
  system: {
    abilities: { str: { value: 10, proficient: 0 }, cha: { value: 10 } },
    attributes: {
      hp: { value: null, max: null },
      ac: { calc: 'default' },
      movement: { walk: 30 },
      death: { success: 0, failure: 0 },
    },
    details: { xp: { value: 0 } },
    currency: { pp: 0, gp: 0, ep: 0, sp: 0, cp: 0 },
    skills: { ste: { value: 0, ability: 'dex' } },
  },
};

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('item 9: dnd5e compendium packs', () => {
  it('structure lists monsters, items and spells packs with their entries under Compendium uuids', async () => {
    const packs = (await harness.get('/structure')).body.data.compendiumPacks;
    for (const pack of DND5E_PACKS) {
      expect(packs[pack.title]).toMatchObject({
        id: pack.id,
        name: pack.title,
        type: pack.type,
        uuid: `Compendium.${pack.id}`,
      });
      const entry = packs[pack.title].entities.find((candidate: { name: string }) => candidate.name === pack.example);
      expect(entry).toMatchObject({
        type: pack.subType,
        uuid: expect.stringMatching(new RegExp(`^Compendium\\.${pack.id}\\.${pack.type}\\.[a-zA-Z0-9]{16}$`)),
      });
    }
    const spells = (await harness.get('/structure', { path: 'Compendium.dnd5e.spells' })).body.data.compendium;
    expect(spells).toMatchObject({ name: 'Spells (SRD)', type: 'Item' });
    expect(spells.entities.map((entry: { name: string }) => entry.name)).toContain('Fireball');
  });

  it('search finds pack documents, and GET /get returns them with their dnd5e data', async () => {
    const hit = (await harness.get('/search', { query: 'Kobold' })).body.results[0];
    expect(hit).toMatchObject({
      name: 'Kobold',
      documentType: 'Actor',
      package: 'dnd5e.monsters',
      packageName: 'Monsters (SRD)',
      subType: 'npc',
      resultType: 'CompendiumEntity',
    });
    const kobold = await harness.get('/get', { uuid: hit.uuid });
    expect(kobold.status).toBe(200);
    expect(kobold.body).toMatchObject({
      uuid: hit.uuid,
      data: {
        name: 'Kobold',
        type: 'npc',
        system: { details: { cr: 0.125 }, attributes: { hp: { max: 5 } } },
        prototypeToken: { width: 1 },
      },
    });
    const fireball = (await harness.get('/search', { query: 'Fireball', filter: 'package:dnd5e.spells' })).body
      .results[0];
    expect((await harness.get('/get', { uuid: fireball.uuid })).body.data.system).toMatchObject({
      level: 3,
      school: 'evo',
      preparation: { mode: 'prepared' },
    });
  });
});

describe('item 10: Foundry 13 core defaults and dnd5e data', () => {
  it('a new character has a prototype token and dnd5e data, so /increase on prototypeToken.height and experience work', async () => {
    const created = await harness.post('/create', { entityType: 'Actor', data: { name: 'Scout', type: 'character' } });
    expect(created.status).toBe(200);
    expect(created.body.entity).toMatchObject(CHARACTER_FIELDS);
    const taller = await harness.post('/increase', {
      uuid: created.body.uuid,
      attribute: 'prototypeToken.height',
      amount: 1,
    });
    expect(taller.status).toBe(200);
    expect(taller.body.results[0]).toMatchObject({ attribute: 'prototypeToken.height', oldValue: 1, newValue: 2 });
    const experience = await harness.post('/dnd5e/modify-experience', { actorUuid: created.body.uuid, amount: 300 });
    expect(experience.status).toBe(200);
    expect(experience.body.data).toMatchObject({ oldXp: 0, newXp: 300 });
  });

  it('seeded actors and items carry the same shapes', async () => {
    const goblin = (await harness.get('/get', { uuid: await uuidOf(harness, 'Goblin') })).body.data;
    expect(goblin.prototypeToken).toMatchObject({
      name: 'Goblin',
      width: 1,
      height: 1,
      sight: { enabled: false },
      texture: { src: 'icons/creatures/goblin.webp' },
    });
    expect(goblin.system).toMatchObject({
      details: { cr: 0.25, type: { value: 'humanoid' } },
      traits: { size: 'med' },
      attributes: { hp: { max: 7 } },
    });
    const longsword = (await harness.get('/get', { uuid: await uuidOf(harness, 'Longsword', 'Item') })).body.data
      .system;
    expect(longsword).toMatchObject({
      quantity: 1,
      weight: { value: 3, units: 'lb' },
      price: { value: 15, denomination: 'gp' },
      damage: { base: { number: 1, denomination: 8 } },
      equipped: false,
    });
  });

  it.each(Object.entries(CORE_FIELDS))('a new %s document gets its core fields', async (documentType, fields) => {
    const created = await harness.post(`/canvas/${documentType}`, { data: { x: 100, y: 100 } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data[0]).toMatchObject(fields);
    await harness.del(`/canvas/${documentType}`, undefined, { documentId: created.body.data[0]._id });
  });

  it('a new scene and a new playlist get their core fields', async () => {
    const scene = await harness.post('/scene', { data: { name: 'Cellar' } });
    expect(scene.status, scene.text).toBe(200);
    expect(scene.body.data).toMatchObject(SCENE_FIELDS);
    const playlist = await harness.post('/create', { entityType: 'Playlist', data: { name: 'Cellar Drips' } });
    expect(playlist.body.entity).toMatchObject(PLAYLIST_FIELDS);
  });
});

describe('item 11: Region documents', () => {
  it('are listed, created, updated and deleted like the other canvas documents', async () => {
    const listed = await harness.get('/canvas/regions');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        name: 'Gatehouse',
        shapes: [expect.objectContaining({ type: 'rectangle' })],
        behaviors: [expect.objectContaining({ type: 'displayScrollingText' })],
      }),
    ]);
    const shape = { type: 'ellipse', x: 500, y: 500, radiusX: 100, radiusY: 50, rotation: 0, hole: false };
    const created = await harness.post('/canvas/regions', { data: { name: 'Well', shapes: [shape] } });
    expect(created.body.data[0]).toMatchObject({ ...CORE_FIELDS.regions, name: 'Well', shapes: [shape] });
    const id = created.body.data[0]._id;
    const updated = await harness.api(harness.key, 'PUT', '/canvas/regions', {
      body: { documentId: id, data: { name: 'Old Well' } },
    });
    expect(updated.body.data[0]).toMatchObject({ _id: id, name: 'Old Well' });
    const region = await harness.get('/get', { uuid: `Scene.${created.body.sceneId}.Region.${id}` });
    expect(region.body.data.name).toBe('Old Well');
    expect((await harness.del('/canvas/regions', undefined, { documentId: id })).body).toMatchObject({
      documentType: 'regions',
      success: true,
    });
    expect((await harness.get('/canvas/regions')).body.data).toHaveLength(1);
  });
});

describe('item 12: deleting a document that is not there', () => {
  it('answers 200 {uuid, success: true}, as the module does (its delete is a no-op on a missing document)', async () => {
    const created = await harness.post('/create', { entityType: 'Item', data: { name: 'Spare Rope', type: 'loot' } });
    const uuid = created.body.uuid;
    expect((await harness.del('/delete', undefined, { uuid })).status).toBe(200);
    for (const missing of [uuid, 'Actor.nothing000000000']) {
      const again = await harness.del('/delete', undefined, { uuid: missing });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({
        type: 'delete-result',
        requestId: expect.any(String),
        uuid: missing,
        success: true,
      });
    }
  });
});

describe('item 13: module settings in the demo, and the game scripts see', () => {
  it('execute-js scripts read game.settings, game.user, game.users, the collections, world, system and i18n', async () => {
    harness.world.game.settings.allowExecuteJs = true;
    const script = `return {
      allowed: game.settings.get('foundry-rest-api', 'allowExecuteJs'), macros: game.settings.get('foundry-rest-api', 'allowMacroExecute'),
      user: game.user.name, isGM: game.user.isGM, users: game.users.size, goblin: game.actors.getName('Goblin').system.attributes.hp.max,
      scene: game.scenes.active.name, world: game.world.id, system: game.system.id, poisoned: game.i18n.localize('DND5E.ConPoisoned'),
      module: game.modules.get('foundry-rest-api').version,
    }`;
    const answer = await harness.post('/execute-js', { script });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      result: {
        allowed: true,
        macros: false,
        user: 'Gamemaster',
        isGM: true,
        users: 6,
        goblin: 7,
        scene: 'Keep Courtyard',
        world: 'sandbox-world',
        system: 'dnd5e',
        poisoned: 'Poisoned',
        module: '3.4.1',
      },
    });
    const unknown = await harness.post('/execute-js', { script: "return game.settings.get('core', 'nothing')" });
    expect(unknown.body.error).toBe('Error executing script: "core.nothing" is not a registered game setting');
    const change = await harness.post('/execute-js', { script: "game.settings.set('core', 'time', 0)" });
    expect(change.body.error).toBe('Error executing script: Scripts cannot change world settings in the sandbox world');
  });

  it('scripts read documents through game but cannot change the world with them', async () => {
    harness.world.game.settings.allowExecuteJs = true;
    const script =
      "const goblin = game.actors.getName('Goblin'); try { goblin.system.attributes.hp.max = 99; } catch {} return game.actors.getName('Goblin').system.attributes.hp.max";
    expect((await harness.post('/execute-js', { script })).body).toMatchObject({ success: true, result: 7 });
    expect(
      (await harness.get('/get', { uuid: await uuidOf(harness, 'Goblin') })).body.data.system.attributes.hp.max,
    ).toBe(7);
  });

  it('the demo turns on the named module settings, and gives its key execute-js only with allow-execute-js', async () => {
    expect(readModuleSettings('allow-macro-write, allow-execute-js')).toEqual({
      settings: ['allow-macro-write', 'allow-execute-js'],
    });
    expect(readModuleSettings('allow-macro-write,allow-everything')).toEqual({ unknown: 'allow-everything' });
    const relay = await startTestRelay({ capture: false });
    const demo = await startDemoWorld(relay.relay, {
      seed: 42,
      moduleSettings: ['allow-macro-write', 'allow-macro-execute', 'allow-execute-js'],
    });
    try {
      const ran = await relay.api(demo.apiKey, 'POST', '/execute-js', {
        body: { script: 'return game.settings.get("foundry-rest-api", "allowMacroWrite")' },
      });
      expect(ran.body, ran.text).toMatchObject({ success: true, result: true });
      const macro = await relay.api(demo.apiKey, 'POST', '/create', {
        body: { entityType: 'Macro', data: { name: 'Count', type: 'script', command: 'return game.actors.size' } },
      });
      expect(macro.status, macro.text).toBe(200);
      const executed = await relay.api(demo.apiKey, 'POST', `/macro/${macro.body.uuid}/execute`, { body: {} });
      expect(executed.body, executed.text).toMatchObject({ success: true, result: { value: 12 } });
    } finally {
      await demo.stop();
      await relay.close();
    }
  });

  it('the demo ships with the settings off, as the module does', async () => {
    const relay = await startTestRelay({ capture: false });
    const demo = await startDemoWorld(relay.relay, { seed: 42 });
    try {
      expect((await relay.api(demo.apiKey, 'POST', '/execute-js', { body: { script: 'return 1' } })).status).toBe(403);
      const macro = await relay.api(demo.apiKey, 'POST', '/create', {
        body: { entityType: 'Macro', data: { name: 'Count', type: 'script' } },
      });
      expect(macro.body.error).toContain('Macro writes are disabled');
    } finally {
      await demo.stop();
      await relay.close();
    }
  });
});

describe('item 14: combatant names', () => {
  it('a combatant made from a new, unnamed token is named after its actor; a named token gives its own name', async () => {
    const goblinId = (await uuidOf(harness, 'Goblin')).split('.')[1];
    const tokens = await harness.post('/canvas/tokens', {
      data: [
        { actorId: goblinId, x: 300, y: 300 },
        { actorId: goblinId, name: 'Sneaky Gob', x: 400, y: 300 },
      ],
    });
    const uuids = tokens.body.data.map((token: { _id: string }) => `Scene.${tokens.body.sceneId}.Token.${token._id}`);
    const started = await harness.post('/start-encounter', { tokenUuids: uuids, name: 'Ambush' });
    expect(started.status, started.text).toBe(200);
    expect(started.body.encounter.combatants.map((combatant: { name: string }) => combatant.name)).toEqual([
      'Goblin',
      'Sneaky Gob',
    ]);
    const listed = (await harness.get('/encounters')).body.encounters.find(
      (encounter: { id: string }) => encounter.id === started.body.encounterId,
    );
    expect(listed.combatants.map((combatant: { name: string }) => combatant.name)).toEqual(['Goblin', 'Sneaky Gob']);
  });
});
