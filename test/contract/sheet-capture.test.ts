// GET /sheet through browser capture (real Chromium) over both transports: when the capture session serves the world,
// the relay renders the sheet itself and never asks the world, whether the call came over HTTP or /ws/api.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sheetBoxOf } from '../../sandbox/images/sheet-painter.ts';
import { startCaptureHarness, type CaptureHarness } from '../capture/harness.ts';
import { decodePng } from '../capture/png.ts';
import { requestsSeenDuring, uuidOf } from '../harness/world.ts';
import { transports, type Transport, type TransportName } from './transports.ts';

let harness: CaptureHarness;
let over: Record<TransportName, Transport>;
let thorin: string;
beforeAll(async () => {
  harness = await startCaptureHarness('v13');
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
  thorin = await uuidOf(harness, 'Thorin Ironfoot');
}, 60_000);
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

describe.each(['http', 'ws'] as const)('GET /sheet from the capture session over %s', (name) => {
  it('answers the captured image without asking the world', async () => {
    let answer: Awaited<ReturnType<Transport['call']>> | undefined;
    const seen = await requestsSeenDuring(
      harness,
      async () => (answer = await over[name].call('GET /sheet', { uuid: thorin, scale: 2 })),
    );
    expect(seen.map((request) => request.type)).not.toContain('sheet-screenshot');
    expect(answer!.status).toBe(200);
    const image = answer!.image!;
    const box = sheetBoxOf(harness.world.find(thorin)!);
    expect(image).toMatchObject({ mimeType: 'image/png', width: box.width * 2, height: box.height * 2 });
    expect(decodePng(image.bytes)).toMatchObject({ width: box.width * 2, height: box.height * 2 });
    if (name === 'http') expect(answer!.headers!.get('x-sheet-source')).toBe('capture');
  });

  it("answers 400 with the module's message to a user who may not observe the sheet", async () => {
    const bobKey = await harness.keyWith(['sheet:read'], { userId: 'Bob' });
    const answer = await over[name].call('GET /sheet', { uuid: thorin }, bobKey);
    expect(answer).toMatchObject({
      status: 400,
      body: { error: "User 'Bob' does not have permission to view this sheet" },
    });
  });
});
