import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetBoxOf } from '../../sandbox/images/sheet-painter.ts';
import { SHEET_SWATCH } from '../../sandbox/web/flavour.ts';
import { uuidOf } from '../harness/world.ts';
import { isAlive, processTree, startCaptureHarness, swatchCentre, type CaptureHarness } from './harness.ts';
import { decodePng } from './png.ts';

let harness: CaptureHarness;
let thorin: string;
let lyra: string;
beforeAll(async () => {
  harness = await startCaptureHarness('v13');
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
  lyra = await uuidOf(harness, 'Lyra Moonwhisper');
}, 60_000);
afterAll(() => harness?.close());

const boxOf = (uuid: string) => sheetBoxOf(harness.world.find(uuid)!);

describe('GET /sheet from the capture session', () => {
  it.each([1, 2])('returns a PNG of the CSS box × scale %i, from the capture session', async (scale) => {
    const { response, bytes } = await harness.sheet({ uuid: thorin, scale });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-sheet-source')).toBe('capture');
    const image = decodePng(bytes);
    const box = boxOf(thorin);
    expect({ width: image.width, height: image.height }).toEqual({
      width: box.width * scale,
      height: box.height * scale,
    });
    expect(response.headers.get('x-image-width')).toBe(String(box.width * scale));
    expect(response.headers.get('x-image-height')).toBe(String(box.height * scale));
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
  });

  it('paints the stylesheet: the swatch has its known colour, at scale 1 and 2', async () => {
    for (const scale of [1, 2]) {
      const image = decodePng((await harness.sheet({ uuid: thorin, scale })).bytes);
      const centre = swatchCentre(boxOf(thorin));
      expect(image.pixel(centre.x * scale, centre.y * scale)).toEqual(SHEET_SWATCH.colour.v13);
    }
  });

  it('format=jpeg returns a JPEG, and quality 0.3 is smaller than 0.95', async () => {
    const high = await harness.sheet({ uuid: thorin, format: 'jpeg', quality: 0.95 });
    const low = await harness.sheet({ uuid: thorin, format: 'jpeg', quality: 0.3 });
    expect(high.response.headers.get('content-type')).toBe('image/jpeg');
    expect(high.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(high.response.headers.get('x-image-width')).toBe(String(boxOf(thorin).width));
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
  });

  it("selected=true captures the GM's selected token, and actor=true its actor", async () => {
    const selected = await harness.post('/select', { name: 'Lyra Moonwhisper', overwrite: true });
    const tokenUuid = selected.body.selected[0] as string;
    const token = await harness.sheet({ selected: true });
    const actor = await harness.sheet({ selected: true, actor: true });
    const byToken = await harness.sheet({ uuid: tokenUuid });
    const byActor = await harness.sheet({ uuid: lyra });
    expect([token.response.status, actor.response.status]).toEqual([200, 200]);
    const tokenBox = sheetBoxOf(harness.world.find(tokenUuid)!);
    expect(decodePng(token.bytes)).toMatchObject({ width: tokenBox.width, height: tokenBox.height });
    expect(decodePng(actor.bytes)).toMatchObject({ width: boxOf(lyra).width, height: boxOf(lyra).height });
    expect(token.bytes.equals(byToken.bytes)).toBe(true);
    expect(actor.bytes.equals(byActor.bytes)).toBe(true);
  });

  it("answers 400 with the module's message to a user who may not observe the sheet", async () => {
    const bobKey = await harness.keyWith(['sheet:read'], { userId: 'Bob' });
    const { response, bytes } = await harness.sheet({ uuid: thorin }, bobKey);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(bytes.toString())).toEqual({ error: "User 'Bob' does not have permission to view this sheet" });
    expect((await harness.sheet({ uuid: lyra }, bobKey)).response.status).toBe(200);
  });

  it('answers 400 "Entity not found" to an unknown uuid', async () => {
    const { response, bytes } = await harness.sheet({ uuid: 'Actor.doesNotExist0' });
    expect(response.status).toBe(400);
    expect(JSON.parse(bytes.toString())).toEqual({ error: 'Entity not found' });
  });

  it('serves 10 concurrent calls, each with its own correct image', async () => {
    const calls = Array.from({ length: 10 }, (_, i) => ({ uuid: i % 2 ? thorin : lyra, scale: 1 + (i % 3) * 0.5 }));
    const answers = await Promise.all(calls.map((call) => harness.sheet(call)));
    answers.forEach(({ response, bytes }, i) => {
      const { uuid, scale } = calls[i]!;
      expect(response.status).toBe(200);
      const image = decodePng(bytes);
      expect({ width: image.width, height: image.height }).toEqual({
        width: boxOf(uuid).width * scale,
        height: boxOf(uuid).height * scale,
      });
      const centre = swatchCentre(boxOf(uuid));
      expect(image.pixel(centre.x * scale, centre.y * scale)).toEqual(SHEET_SWATCH.colour.v13);
    });
  });

  it('POST /admin/capture/test captures a sheet; GET /admin/capture never shows the password', async () => {
    const settings = await harness.admin('GET', '/admin/capture');
    expect(settings.body).toEqual({ foundryUrl: harness.web.url, username: 'Assistant GM', passwordSet: true });
    const response = await fetch(`${harness.baseUrl}/admin/capture/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.relay.adminToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(decodePng(Buffer.from(await response.arrayBuffer())).width).toBeGreaterThan(0);
  });

  it('relaunches the browser after its process is killed: the next call succeeds', async () => {
    const pid = (await harness.relay.services.capture!.host.pid())!;
    expect(isAlive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    const { response } = await harness.sheet({ uuid: thorin });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-sheet-source')).toBe('capture');
    const relaunched = await harness.relay.services.capture!.host.pid();
    expect(relaunched).not.toBe(pid);
  }, 30_000);

  it('leaves no Chromium process once the relay stops', async () => {
    expect((await harness.sheet({ uuid: thorin })).response.status).toBe(200);
    const pid = (await harness.relay.services.capture!.host.pid())!;
    const tree = processTree(pid);
    expect(tree.length).toBeGreaterThan(1);
    await harness.relay.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tree.filter(isAlive)).toEqual([]);
  });
});
