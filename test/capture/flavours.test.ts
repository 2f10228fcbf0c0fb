import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetBoxOf } from '../../sandbox/images/sheet-painter.ts';
import { SHEET_SWATCH } from '../../sandbox/web/flavour.ts';
import { uuidOf } from '../harness/world.ts';
import { startCaptureHarness, swatchCentre, type CaptureHarness } from './harness.ts';
import { decodePng } from './png.ts';

// The v13 flavour is covered throughout sheet-capture.test.ts; this file runs the same capture against v12's
// jQuery `element[0]` and synchronous `render(true)`.
let harness: CaptureHarness;
beforeAll(async () => {
  harness = await startCaptureHarness('v12');
}, 60_000);
afterAll(() => harness?.close());

describe('Foundry v12 sheets', () => {
  it.each(['Thorin Ironfoot', 'Lyra Moonwhisper'])(
    'captures %s at the CSS box × scale with the v12 stylesheet',
    async (name) => {
      const uuid = await uuidOf(harness, name);
      const box = sheetBoxOf(harness.world.find(uuid)!);
      for (const scale of [1, 2]) {
        const { response, bytes } = await harness.sheet({ uuid, scale });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-sheet-source')).toBe('capture');
        const image = decodePng(bytes);
        expect({ width: image.width, height: image.height }).toEqual({
          width: box.width * scale,
          height: box.height * scale,
        });
        const centre = swatchCentre(box);
        expect(image.pixel(centre.x * scale, centre.y * scale)).toEqual(SHEET_SWATCH.colour.v12);
      }
    },
  );

  it('closes each sheet after capturing it, so the next capture sees only its own', async () => {
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const first = await harness.sheet({ uuid: thorin });
    const second = await harness.sheet({ uuid: thorin });
    expect(first.bytes.equals(second.bytes)).toBe(true);
  });
});
