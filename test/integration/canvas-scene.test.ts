import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsSeenDuring, startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

describe('Canvas', () => {
  it('lists the tokens of the active scene, with className sent for the module', async () => {
    let answer: any;
    const [sent] = await requestsSeenDuring(harness, async () => {
      answer = await harness.get('/canvas/tokens');
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 'get-canvas-documents-result', documentType: 'tokens' });
    expect(answer.body.data.length).toBe(7);
    expect(sent).toMatchObject({ type: 'get-canvas-documents', documentType: 'tokens', className: 'Token' });
  });

  it('creates, updates and deletes a drawing', async () => {
    const created = await harness.post('/canvas/drawings', {
      data: { x: 100, y: 100, shape: { type: 'r', width: 50, height: 50 } },
    });
    expect(created.status).toBe(200);
    const id = created.body.data[0]._id ?? created.body.data[0].id;
    const updated = await harness.api(harness.key, 'PUT', '/canvas/drawings', {
      body: { documentId: id, data: { x: 200 } },
    });
    expect(updated.status).toBe(200);
    const deleted = await harness.del('/canvas/drawings', undefined, { documentId: id });
    expect(deleted.body).toMatchObject({ type: 'delete-canvas-document-result', success: true });
  });

  it('refuses an unknown document type naming the valid ones', async () => {
    const answer = await harness.get('/canvas/dragons');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error:
        "Invalid documentType 'dragons'. Must be one of: tokens, tiles, drawings, lights, sounds, notes, templates, walls, regions",
      validTypes: ['tokens', 'tiles', 'drawings', 'lights', 'sounds', 'notes', 'templates', 'walls', 'regions'],
    });
  });

  it('moves a token and measures a distance', async () => {
    const moved = await harness.post('/move-token', { name: 'Thorin Ironfoot', x: 1100, y: 900 });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ name: 'Thorin Ironfoot', x: 1100, y: 900 });
    expect((await harness.post('/move-token', { x: 1, y: 2 })).body).toEqual({
      error: "Either 'uuid' or 'name' is required",
    });
    const distance = await harness.get('/measure-distance', { originX: 0, originY: 0, targetX: 300, targetY: 400 });
    expect(distance.status).toBe(200);
    expect(distance.body.data.distance).toBeGreaterThan(0);
    expect((await harness.get('/measure-distance', { originX: 0 })).status).toBe(400);
  });
});

describe('Scene', () => {
  it('gets the active scene, creates, updates, switches to and deletes a scene', async () => {
    const active = await harness.get('/scene', { active: true });
    expect(active.status).toBe(200);
    expect(JSON.stringify(active.body.data)).toContain('Keep Courtyard');
    const created = await harness.post('/scene', { data: { name: 'Dragon Lair', width: 2000, height: 2000 } });
    expect(created.status).toBe(200);
    const sceneId = created.body.data._id ?? created.body.data.id;
    expect(
      (await harness.api(harness.key, 'PUT', '/scene', { body: { sceneId, data: { name: 'Dragon Lair (flooded)' } } }))
        .status,
    ).toBe(200);
    expect((await harness.post('/switch-scene', { sceneId })).status).toBe(200);
    expect(JSON.stringify((await harness.get('/scene', { active: true })).body.data)).toContain(
      'Dragon Lair (flooded)',
    );
    await harness.post('/switch-scene', { name: 'Keep Courtyard' });
    expect((await harness.del('/scene', undefined, { sceneId })).body).toMatchObject({
      type: 'delete-scene-result',
      success: true,
    });
  });

  it('needs a way to pick the scene', async () => {
    expect((await harness.get('/scene')).body).toEqual({
      error: "At least one of 'sceneId', 'name', 'active', 'viewed', or 'all' is required",
    });
    expect((await harness.post('/switch-scene', {})).body).toEqual({ error: "Either 'sceneId' or 'name' is required" });
    expect((await harness.get('/scene', { sceneId: 'noscene000000000' })).status).toBe(400);
  });

  it("renders the scene as image bytes, and answers its background file as the world's JSON", async () => {
    const response = await fetch(`${harness.baseUrl}/scene/image?active=true&format=jpeg&width=640&height=360`, {
      headers: { 'x-api-key': harness.key },
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const raw = await harness.get('/scene/image/raw', { active: true });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({
      type: 'scene-raw-image-result',
      data: { imageData: expect.stringMatching(/^data:image\//) },
    });
  });
});
