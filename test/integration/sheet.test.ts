import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsSeenDuring, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let thorin: string;
beforeAll(async () => {
  harness = await startRelayWithWorld();
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(() => harness.close());

async function sheet(query: Record<string, string | number | boolean>) {
  const url = new URL('/sheet', harness.baseUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: { 'x-api-key': harness.key } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function pngSize(bytes: Buffer): { width: number; height: number } {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('Sheet', () => {
  it('GET /sheet returns PNG bytes with Content-Type and X-Image-Width/Height', async () => {
    const { response, bytes } = await sheet({ uuid: thorin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const size = pngSize(bytes);
    expect(response.headers.get('x-image-width')).toBe(String(size.width));
    expect(response.headers.get('x-image-height')).toBe(String(size.height));
    expect(response.headers.get('x-sheet-source')).toBe('world');
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
  });

  it('scale 2 doubles both sides of the image', async () => {
    const one = pngSize((await sheet({ uuid: thorin })).bytes);
    const two = pngSize((await sheet({ uuid: thorin, scale: 2 })).bytes);
    expect(two).toEqual({ width: one.width * 2, height: one.height * 2 });
  });

  it('format=jpeg returns a JPEG, and a lower quality makes a smaller file', async () => {
    const high = await sheet({ uuid: thorin, format: 'jpeg', quality: 0.95 });
    const low = await sheet({ uuid: thorin, format: 'jpeg', quality: 0.3 });
    expect(high.response.headers.get('content-type')).toBe('image/jpeg');
    expect(high.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
  });

  it('sends the defaults format png, quality 0.9 and scale 1 to the world', async () => {
    const [sent] = await requestsSeenDuring(harness, () => sheet({ uuid: thorin }));
    expect(sent).toMatchObject({ type: 'sheet-screenshot', uuid: thorin, format: 'png', quality: 0.9, scale: 1 });
  });

  it('selected=true captures the selected token, and actor=true its actor', async () => {
    const selected = await harness.post('/select', { name: 'Lyra Moonwhisper', overwrite: true });
    expect(selected.body.selected).toHaveLength(1);
    const token = await sheet({ selected: true });
    const actor = await sheet({ selected: true, actor: true });
    expect(token.response.status).toBe(200);
    expect(actor.response.status).toBe(200);
    expect(token.bytes.equals(actor.bytes)).toBe(false);
  });

  it.each([
    [{}, "Either 'uuid' or 'selected' is required"],
    [{ uuid: 'Actor.x', format: 'gif' }, "'format' must be one of png, jpeg"],
    [{ uuid: 'Actor.x', quality: 2 }, "'quality' must be between 0 and 1"],
    [{ uuid: 'Actor.x', scale: 0 }, "'scale' must be between 0.1 and 4"],
  ])('GET /sheet with %j is a 400: %s', async (query, error) => {
    const { response, bytes } = await sheet(query);
    expect(response.status).toBe(400);
    expect(JSON.parse(bytes.toString())).toEqual({ error });
  });

  it('an unknown uuid and a user without permission get JSON errors', async () => {
    const unknown = await sheet({ uuid: 'Actor.nosuchactor000' });
    expect(unknown.response.status).toBe(400);
    expect(JSON.parse(unknown.bytes.toString()).error).toBe('Entity not found');
    const stranger = await sheet({ uuid: thorin, userId: 'Bob' });
    expect(stranger.response.status).toBe(400);
    expect(JSON.parse(stranger.bytes.toString()).error).toMatch(/does not have permission to view this sheet/);
  });
});
