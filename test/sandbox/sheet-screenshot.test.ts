import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { inflateSync } from 'node:zlib';
import { crc32 } from '../../sandbox/images/png.ts';
import { ask, named, sandbox, tokenNamed } from './helpers.ts';

function bytesOf(dataUrl: string, mimeType: string): Buffer {
  expect(dataUrl.startsWith(`data:${mimeType};base64,`)).toBe(true);
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

describe('sheet-screenshot', () => {
  it('renders a PNG whose IHDR matches the sheet box times scale, with valid chunks', async () => {
    const world = sandbox();
    const thorin = named(world, 'actors', 'Thorin Ironfoot');
    const reply = await ask(world, 'sheet-screenshot', { uuid: thorin.uuid, scale: 0.5 });
    expect(reply).toMatchObject({ success: true, mimeType: 'image/png', width: 360, height: 400 });
    const png = bytesOf(reply.imageData, 'image/png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(360);
    expect(png.readUInt32BE(20)).toBe(400);
    expect(png.readUInt32BE(29)).toBe(crc32(png.subarray(12, 29)));
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('ascii', 37, 41)).toBe('IDAT');
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe(400 * (360 * 4 + 1));
    expect(png.toString('ascii', png.length - 8, png.length - 4)).toBe('IEND');
  });

  it('renders JPEG when asked, smaller at lower quality, and PNG for anything else', async () => {
    const world = sandbox();
    const goblin = named(world, 'actors', 'Goblin');
    const low = await ask(world, 'sheet-screenshot', { uuid: goblin.uuid, format: 'jpeg', quality: 0.3 });
    const high = await ask(world, 'sheet-screenshot', { uuid: goblin.uuid, format: 'jpeg', quality: 0.95 });
    expect(low).toMatchObject({ success: true, mimeType: 'image/jpeg', width: 600, height: 700 });
    const lowBytes = bytesOf(low.imageData, 'image/jpeg');
    expect([...lowBytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(lowBytes.length).toBeLessThan(bytesOf(high.imageData, 'image/jpeg').length);
    const decoded = jpeg.decode(lowBytes);
    expect([decoded.width, decoded.height]).toEqual([600, 700]);
    expect((await ask(world, 'sheet-screenshot', { uuid: goblin.uuid, format: 'jpg' })).mimeType).toBe('image/png');
    const doubled = await ask(world, 'sheet-screenshot', { uuid: goblin.uuid, scale: 2, format: 'jpeg' });
    expect([doubled.width, doubled.height]).toEqual([1200, 1400]);
  });

  it('uses the first controlled token, or its actor', async () => {
    const world = sandbox();
    expect(await ask(world, 'sheet-screenshot', { selected: true })).toMatchObject({
      success: false,
      error: 'Entity not found',
    });
    await ask(world, 'select', { name: 'Lyra Moonwhisper' });
    expect((await ask(world, 'sheet-screenshot', { selected: true })).width).toBe(560);
    expect((await ask(world, 'sheet-screenshot', { selected: true, actor: true })).width).toBe(720);
  });

  it('checks OBSERVER permission and reports missing targets', async () => {
    const world = sandbox();
    const goblin = tokenNamed(world, 'Keep Courtyard', 'Hobgoblin');
    const refused = await ask(world, 'sheet-screenshot', { uuid: goblin.uuid, userId: 'Alice' });
    expect(refused).toEqual({
      type: 'sheet-screenshot-result',
      requestId: refused.requestId,
      success: false,
      error: "User 'Alice' does not have permission to view this sheet",
    });
    expect(
      (await ask(world, 'sheet-screenshot', { uuid: named(world, 'actors', 'Captain Goodwin').uuid, userId: 'Alice' }))
        .success,
    ).toBe(true);
    expect((await ask(world, 'sheet-screenshot', { uuid: 'Actor.nope' })).error).toBe('Entity not found');
    const message = world.game.messages.contents[0]!;
    expect((await ask(world, 'sheet-screenshot', { uuid: message.uuid })).error).toBe('Actor has no sheet');
    const unknown = await ask(world, 'sheet-screenshot', { uuid: message.uuid, userId: 'ghost' });
    expect(unknown).toEqual({
      type: 'sheet-screenshot-result',
      requestId: unknown.requestId,
      error: 'User not found: ghost',
      data: null,
    });
  });
});
