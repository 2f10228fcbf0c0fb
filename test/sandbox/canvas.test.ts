import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox, tokenNamed } from './helpers.ts';

describe('canvas documents', () => {
  it('lists a collection of the active scene, or one document', async () => {
    const world = sandbox();
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const walls = await ask(world, 'get-canvas-documents', { documentType: 'walls', className: 'Wall' });
    expect(walls).toMatchObject({ sceneId: scene.id, documentType: 'walls' });
    expect(walls.data).toHaveLength(3);
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin Archer');
    expect((await ask(world, 'get-canvas-documents', { documentType: 'tokens', documentId: token.id })).data).toEqual([
      token.toObject(),
    ]);
    expect((await ask(world, 'get-canvas-documents', { documentType: 'tiles' })).data).toEqual([]);
  });

  it('reports unknown scenes, types and documents with data null', async () => {
    const world = sandbox();
    const missing = await ask(world, 'get-canvas-documents', { documentType: 'tokens', sceneId: 'nope' });
    expect(missing).toEqual({
      type: 'get-canvas-documents-result',
      requestId: missing.requestId,
      error: 'Scene not found: nope',
      data: null,
    });
    expect((await ask(world, 'get-canvas-documents', { documentType: 'bogus' })).error).toBe(
      'Invalid document type: bogus',
    );
    expect((await ask(world, 'get-canvas-documents', { documentType: 'tokens', documentId: 'x' })).error).toBe(
      'Document not found: x',
    );
    expect((await ask(world, 'get-canvas-documents', { documentType: 'tokens', userId: 'Alice' })).error).toBe(
      "User 'Alice' does not have permission to view this scene's documents",
    );
  });

  it('creates, updates and deletes tiles and tokens, with scene events for tokens', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('scene-events', true);
    const scene = named(world, 'scenes', 'Keep Courtyard');
    const created = await ask(world, 'create-canvas-document', {
      documentType: 'tiles',
      className: 'Tile',
      data: [{ x: 100, y: 100, texture: { src: 'tiles/crate.webp' } }],
    });
    expect(created.data).toHaveLength(1);
    const tileId = created.data[0]._id;
    expect(scene.collection('Tile').get(tileId)?.source.x).toBe(100);
    const updated = await ask(world, 'update-canvas-document', {
      documentType: 'tiles',
      className: 'Tile',
      documentId: tileId,
      data: { x: 300 },
    });
    expect(updated.data[0]).toMatchObject({ _id: tileId, x: 300 });
    expect(
      (
        await ask(world, 'update-canvas-document', {
          documentType: 'tiles',
          className: 'Tile',
          documentId: tileId,
          data: { x: 300 },
        })
      ).data,
    ).toEqual([]);
    const deleted = await ask(world, 'delete-canvas-document', {
      documentType: 'tiles',
      className: 'Tile',
      documentId: tileId,
    });
    expect(deleted).toEqual({
      type: 'delete-canvas-document-result',
      requestId: deleted.requestId,
      sceneId: scene.id,
      documentType: 'tiles',
      success: true,
    });
    expect(pushes).toEqual([]);
    const token = await ask(world, 'create-canvas-document', {
      documentType: 'tokens',
      className: 'Token',
      data: { name: 'Scout', x: 5, y: 5 },
    });
    expect(pushes[0]).toMatchObject({
      type: 'scene-event',
      data: { sceneId: scene.id, eventType: 'token-create', token: { name: 'Scout' } },
    });
    expect(
      (
        await ask(world, 'delete-canvas-document', {
          documentType: 'tokens',
          className: 'Token',
          documentId: token.data[0]._id,
        })
      ).success,
    ).toBe(true);
    expect(pushes[1]).toEqual({
      type: 'scene-event',
      data: { sceneId: scene.id, eventType: 'token-delete', tokenId: token.data[0]._id, tokenName: 'Scout' },
    });
  });

  it('refuses writes for non-owners and missing documents', async () => {
    const world = sandbox();
    expect(
      (
        await ask(world, 'create-canvas-document', {
          documentType: 'tiles',
          className: 'Tile',
          data: {},
          userId: 'Bob',
        })
      ).error,
    ).toBe("User 'Bob' does not have permission to create embedded documents on 'Keep Courtyard'");
    const failed = await ask(world, 'delete-canvas-document', {
      documentType: 'walls',
      className: 'Wall',
      documentId: 'gone',
    });
    expect(failed).toMatchObject({
      success: false,
      error: 'Wall id [gone] does not exist in the Scene embedded collection',
    });
    expect((await ask(world, 'create-canvas-document', { documentType: 'tiles', data: {} })).error).toBe(
      'undefined is not a valid embedded Document within the Scene Document',
    );
  });
});

describe('move-token and measure-distance', () => {
  it('moves a token by name through waypoints, each step a token-update event', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('scene-events', true);
    const token = tokenNamed(world, 'Keep Courtyard', 'Goblin Archer');
    const reply = await ask(world, 'move-token', {
      name: 'goblin archer',
      x: 1500,
      y: 600,
      waypoints: [{ x: 1800, y: 500 }],
    });
    expect(reply.data).toEqual({
      tokenUuid: token.uuid,
      name: 'Goblin Archer',
      x: 1500,
      y: 600,
      sceneId: named(world, 'scenes', 'Keep Courtyard').id,
    });
    expect(pushes.map((p) => (p.data as any).changes)).toEqual([
      { x: 1800, _id: token.id },
      { x: 1500, y: 600, _id: token.id },
    ]);
    expect((await ask(world, 'move-token', { name: 'Goblin Archer', x: 1 })).error).toBe(
      'x and y coordinates are required',
    );
    expect((await ask(world, 'move-token', { name: 'Nobody', x: 1, y: 1 })).error).toBe('Token not found: Nobody');
    expect((await ask(world, 'move-token', { name: 'Goblin Archer', x: 1, y: 1, userId: 'Alice' })).error).toBe(
      "User 'Alice' must be a GM to move tokens",
    );
  });

  it('measures grid distance between tokens or points', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'measure-distance', { originUuid: thorin.uuid, targetName: 'Goblin Archer' });
    expect(reply.data).toMatchObject({
      distance: 55,
      units: 'ft',
      origin: { x: 1000, y: 800 },
      target: { x: 2100, y: 500 },
    });
    expect(
      (await ask(world, 'measure-distance', { originX: 0, originY: 0, targetX: 250, targetY: 90 })).data.distance,
    ).toBe(10);
    expect((await ask(world, 'measure-distance', { targetX: 1, targetY: 1 })).error).toBe(
      'Origin must be specified as originX/originY or originUuid/originName',
    );
    expect((await ask(world, 'measure-distance', { originX: 0, originY: 0, targetName: 'Nobody' })).error).toBe(
      'Target token not found: Nobody',
    );
  });
});
