// A sandbox world imitating Foundry 14: what its documents hold and how the module's operations behave on it.
import { describe, expect, it } from 'vitest';
import { ask, named, sandbox, tokenNamed } from './helpers.ts';

const v14 = () => sandbox({ foundryVersion: '14.366' });

describe('a Foundry 14 world', () => {
  it('reports its version where pairing and /clients read it', () => {
    expect(v14().metadata.foundryVersion).toBe('14.366');
    expect(v14().game.foundryMajorVersion).toBe(14);
  });
});

describe('Foundry 14 scenes', () => {
  it('hold a level carrying the background, and no measured templates', () => {
    const world = v14();
    const scene = named(world, 'scenes', 'Keep Courtyard').toObject();
    expect(scene).not.toHaveProperty('background');
    expect(scene).not.toHaveProperty('foreground');
    expect(scene).not.toHaveProperty('templates');
    expect(scene.levels).toEqual([
      expect.objectContaining({
        name: 'Level 1',
        background: expect.objectContaining({ src: 'maps/keep-courtyard.webp' }),
      }),
    ]);
    const v13Scene = named(sandbox(), 'scenes', 'Keep Courtyard').toObject();
    expect(v13Scene).not.toHaveProperty('levels');
    expect(v13Scene.templates).toEqual([]);
  });

  it('create-scene gives a new scene one level with the background it was given', async () => {
    const world = v14();
    const reply = await ask(world, 'create-scene', { data: { name: 'Cave', background: { src: 'maps/cave.webp' } } });
    expect(reply.data.levels).toHaveLength(1);
    expect(reply.data.levels[0].background.src).toBe('maps/cave.webp');
  });

  it('update-scene sends background and foreground to the first level and the rest to the scene', async () => {
    const world = v14();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const levelId = scene.collection('Level').contents[0]!.id;
    const reply = await ask(world, 'update-scene', {
      sceneId: scene.id,
      data: { 'background.src': 'maps/dusk.webp', foreground: { src: 'maps/roofs.webp' }, navName: 'Courtyard' },
    });
    expect(reply.error).toBeUndefined();
    expect(reply.data).not.toHaveProperty('background');
    expect(reply.data.navName).toBe('Courtyard');
    expect(reply.data.levels[0]).toMatchObject({
      _id: levelId,
      background: { src: 'maps/dusk.webp' },
      foreground: { src: 'maps/roofs.webp' },
    });
  });

  it('refuse measured templates in every canvas operation, with the valid types', async () => {
    const world = v14();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const error =
      "Invalid documentType 'templates'. Must be one of: tokens, tiles, drawings, lights, sounds, notes, walls, regions";
    const get = await ask(world, 'get-canvas-documents', { sceneId: scene.id, documentType: 'templates' });
    expect(get.error).toBe(error);
    const create = await ask(world, 'create-canvas-document', {
      sceneId: scene.id,
      documentType: 'templates',
      className: 'MeasuredTemplate',
      data: { t: 'circle', distance: 10 },
    });
    expect(create.error).toBe(error);
    const regions = await ask(world, 'get-canvas-documents', { sceneId: scene.id, documentType: 'regions' });
    expect(regions.error).toBeUndefined();
  });

  it('scene-raw-image finds the background on the first level', async () => {
    const world = v14();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const reply = await ask(world, 'scene-raw-image', { sceneId: scene.id });
    expect(reply.data.src).toBe('maps/keep-courtyard.webp');
  });
});

describe('Foundry 14 effects and chat', () => {
  it('keep effect changes in system.changes as typed objects, from a v13 mode or a v14 type', () => {
    const world = v14();
    const actor = named(world, 'actors', 'Thorin Ironfoot');
    const effect = world.game.createDocument(
      'ActiveEffect',
      {
        name: 'Mixed',
        changes: [
          { key: 'system.attributes.ac.bonus', mode: 5, value: '18' },
          { key: 'system.attributes.hp.max', type: 'multiply', value: '2', priority: 5 },
        ],
      },
      { parent: actor },
    );
    expect(effect.source).not.toHaveProperty('changes');
    expect(effect.source.system).toEqual({
      changes: [
        { key: 'system.attributes.ac.bonus', type: 'override', value: '18', phase: 'initial', priority: 50 },
        { key: 'system.attributes.hp.max', type: 'multiply', value: '2', phase: 'initial', priority: 5 },
      ],
    });
    const given14 = world.game.createDocument(
      'ActiveEffect',
      { name: 'Typed', system: { changes: [{ key: 'system.attributes.hp.max', type: 'add', value: '5' }] } },
      { parent: actor },
    );
    expect(given14.source.system).toEqual({
      changes: [{ key: 'system.attributes.hp.max', type: 'add', value: '5', phase: 'initial', priority: 20 }],
    });
  });

  it('give chat messages a messageMode from their whisper and blind fields unless one is given', () => {
    const world = v14();
    const gm = world.game.moduleUserId;
    const mode = (data: Record<string, unknown>) =>
      world.game.createDocument('ChatMessage', { content: 'x', author: gm, ...data }).source.messageMode;
    expect(mode({})).toBe('public');
    expect(mode({ whisper: [gm] })).toBe('self');
    expect(mode({ whisper: ['someoneElse00000'] })).toBe('gm');
    expect(mode({ whisper: [gm], blind: true })).toBe('blind');
    expect(mode({ messageMode: 'gm' })).toBe('gm');
    expect(sandbox().game.createDocument('ChatMessage', { content: 'x' }).source).not.toHaveProperty('messageMode');
  });

  it('kill zeroes hit points and defeats, but applies no dead status (toggleActiveEffect is gone)', async () => {
    const world = v14();
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin');
    const reply = await ask(world, 'kill', { uuid: token.uuid });
    expect(reply.error).toBeUndefined();
    const actor = world.game.tokenActor(token)!;
    expect((actor.system.attributes as { hp: { value: number } }).hp.value).toBe(0);
    expect(actor.collection('ActiveEffect').contents.flatMap((effect) => effect.source.statuses)).not.toContain('dead');
  });
});
