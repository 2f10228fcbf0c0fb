import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('get-scene', () => {
  it('finds a scene by id, name, active or viewed flag, or lists all', async () => {
    const world = sandbox();
    const crypt = named(world, 'scenes', 'Crypt of Whispers');
    expect((await ask(world, 'get-scene', { sceneId: crypt.id })).data).toMatchObject({
      _id: crypt.id,
      name: 'Crypt of Whispers',
    });
    expect((await ask(world, 'get-scene', { name: 'Tavern Interior' })).data.name).toBe('Tavern Interior');
    expect((await ask(world, 'get-scene', { active: true })).data.name).toBe('Keep Courtyard');
    expect((await ask(world, 'get-scene', { viewed: true })).data.tokens).toHaveLength(7);
    expect((await ask(world, 'get-scene', { all: true })).data).toHaveLength(3);
    const missing = await ask(world, 'get-scene', { name: 'Moon' });
    expect(missing).toEqual({
      type: 'get-scene-result',
      requestId: missing.requestId,
      error: 'Scene not found',
      data: null,
    });
  });

  it('filters by permission for a user', async () => {
    const world = sandbox();
    expect((await ask(world, 'get-scene', { all: true, userId: 'Alice' })).data).toEqual([]);
    expect((await ask(world, 'get-scene', { active: true, userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have permission to view this scene",
    );
  });
});

describe('create, update, delete and switch scenes', () => {
  it('creates and updates a scene, GM-only for creation', async () => {
    const world = sandbox();
    expect((await ask(world, 'create-scene', { data: { name: 'Cave' }, userId: 'Dana' })).error).toBe(
      "User 'Dana' does not have permission to create scenes",
    );
    const created = await ask(world, 'create-scene', { data: { name: 'Cave', width: 1200 } });
    expect(created.data).toMatchObject({ name: 'Cave', width: 1200, height: 3000, active: false, tokens: [] });
    expect((await ask(world, 'create-scene', { data: {} })).error).toBe(
      'Scene validation errors:\n  name: may not be undefined',
    );
    const updated = await ask(world, 'update-scene', { sceneId: created.data._id, data: { 'grid.distance': 10 } });
    expect(updated.data.grid).toMatchObject({ size: 100, type: 1, distance: 10, units: 'ft' });
    expect((await ask(world, 'update-scene', { name: 'Cave', data: {}, userId: 'Bob' })).error).toBe(
      "User 'Bob' does not have permission to update 'Cave'",
    );
    expect((await ask(world, 'update-scene', { data: {} })).error).toBe('Scene not found');
  });

  it('deletes a scene, and switching activates another and redraws the canvas', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('scene-events', true);
    const crypt = named(world, 'scenes', 'Crypt of Whispers');
    expect((await ask(world, 'switch-scene', { name: 'Crypt of Whispers', userId: 'Bob' })).error).toBe(
      "User 'Bob' must be a GM to switch scenes",
    );
    const switched = await ask(world, 'switch-scene', { name: 'Crypt of Whispers' });
    expect(switched).toMatchObject({ success: true, data: { _id: crypt.id, active: true } });
    expect(world.game.activeScene()?.id).toBe(crypt.id);
    expect(world.game.canvas.viewedSceneId).toBe(crypt.id);
    expect(pushes).toEqual([
      { type: 'scene-event', data: { sceneId: crypt.id, eventType: 'scene-activate', name: 'Crypt of Whispers' } },
    ]);
    const tavern = named(world, 'scenes', 'Tavern Interior');
    expect(await ask(world, 'delete-scene', { sceneId: tavern.id })).toMatchObject({ success: true });
    expect(world.game.scenes.get(tavern.id)).toBeUndefined();
    expect(await ask(world, 'delete-scene', { sceneId: tavern.id })).toMatchObject({
      success: false,
      error: 'Scene not found',
    });
  });
});

describe('scene images', () => {
  it('renders the viewed scene, cropped from its centre, as PNG or JPEG', async () => {
    const world = sandbox();
    const png = await ask(world, 'scene-screenshot', { width: 400, height: 300 });
    expect(png).toMatchObject({ mimeType: 'image/png', width: 400, height: 300 });
    expect(pngSize(png.imageData)).toEqual({ width: 400, height: 300 });
    const jpeg = await ask(world, 'scene-screenshot', { viewport: true, format: 'jpeg', quality: 0.5 });
    expect(jpeg).toMatchObject({ mimeType: 'image/jpeg', width: 1280, height: 720 });
    expect(jpeg.imageData.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
    const crypt = named(world, 'scenes', 'Crypt of Whispers');
    expect((await ask(world, 'scene-screenshot', { sceneId: crypt.id })).error).toBe(
      "Scene 'Crypt of Whispers' is not the currently viewed scene. Switch to it first.",
    );
    expect((await ask(world, 'scene-screenshot', { sceneId: 'nope' })).error).toBe('Scene not found: nope');
  });

  it('returns the background: the stored file when the data folder has it, otherwise a generated picture', async () => {
    const world = sandbox();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const generated = await ask(world, 'scene-raw-image', { active: true });
    expect(generated.data).toMatchObject({
      sceneId: scene.id,
      sceneName: 'Keep Courtyard',
      src: 'maps/keep-courtyard.webp',
      mimeType: 'image/png',
    });
    expect(pngSize(generated.data.imageData)).toEqual({ width: 3000, height: 2000 });
    await ask(world, 'upload-file', { path: 'maps', filename: 'keep-courtyard.webp', binaryData: [82, 73, 70, 70] });
    const stored = await ask(world, 'scene-raw-image', { sceneId: scene.id });
    expect(stored.data).toMatchObject({ imageData: 'data:image/webp;base64,UklGRg==', mimeType: 'image/webp' });
    world.game.updateDocument(scene, { background: { src: null } });
    expect((await ask(world, 'scene-raw-image', {})).error).toBe("Scene 'Keep Courtyard' has no background image");
  });
});
