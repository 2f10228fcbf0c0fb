// POST /play-sound and /stop-sound as the reference relay answers them (reference-relay-http-api.md §1.14 and its
// recorded answers): the module's `play-sound-result` / `stop-sound-result` passed through, over HTTP and /ws/api.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { transports, type Transport, type TransportName } from '../contract/transports.ts';

/** The reference's recorded answers: `{type, requestId, data:{src, volume, loop}}` and `{…, data:{stopped, src}}`. */
const REFERENCE_PLAY = { type: 'play-sound-result', data: { src: 'string', volume: 'number', loop: 'boolean' } };
const REFERENCE_STOP_ALL = { type: 'stop-sound-result', data: { stopped: 'number', src: null } };

let harness: WorldHarness;
let over: Record<TransportName, Transport>;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  over = transports(harness.baseUrl, harness.wsUrl, harness.key);
});
afterAll(async () => {
  for (const transport of Object.values(over ?? {})) transport.close();
  await harness?.close();
});

const typesOf = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).map(([field, value]) => [field, value === null ? null : typeof value]));

describe.each(['http', 'ws'] as const)('over %s', (name) => {
  it('POST /play-sound answers the module play-sound-result with src, volume and loop, defaults applied', async () => {
    const answer = await over[name].call('POST /play-sound', { src: 'sounds/door.ogg' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe(REFERENCE_PLAY.type);
    expect(typesOf(answer.body.data)).toEqual(REFERENCE_PLAY.data);
    expect(answer.body.data).toEqual({ src: 'sounds/door.ogg', volume: 0.5, loop: false });
  });

  it('POST /stop-sound without src stops every sound and says src null', async () => {
    await over[name].call('POST /play-sound', { src: 'sounds/drums.ogg', loop: true });
    const answer = await over[name].call('POST /stop-sound', {});
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe(REFERENCE_STOP_ALL.type);
    expect(typesOf(answer.body.data)).toEqual(REFERENCE_STOP_ALL.data);
    expect(answer.body.data.stopped).toBeGreaterThanOrEqual(1);
  });

  it('POST /play-sound without src is a 400 naming src', async () => {
    const answer = await over[name].call('POST /play-sound', { volume: 0.3 });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain("'src'");
  });
});
