// Item 10: a parameter key naming __proto__, constructor or prototype (alone, nested, or as a segment of a dotted
// path) is refused by the relay over HTTP and /ws/api, and the sandbox world's setters ignore such keys on their own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSandboxWorld } from '../../sandbox/index.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let uuid: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { requestsPerMinute: 0 } } });
  uuid = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(() => harness.close());

const MARKER = 'pollutedByItem10';
function prototypeIsClean(): boolean {
  return !(MARKER in {});
}
afterEach(() => {
  Reflect.deleteProperty(Object.prototype, MARKER);
});

/** Each `data` as JSON text, since a `__proto__` key in an object literal would set its prototype, not a key. */
const ATTACKS: Array<{ data: string; field: string }> = [
  { data: `{"__proto__.${MARKER}": true}`, field: `data.__proto__.${MARKER}` },
  { data: `{"__proto__": {"${MARKER}": true}}`, field: 'data.__proto__' },
  { data: `{"constructor.prototype.${MARKER}": true}`, field: `data.constructor.prototype.${MARKER}` },
  {
    data: `{"system": {"notes": [{"constructor": {"prototype": {"${MARKER}": true}}}]}}`,
    field: 'data.system.notes.0.constructor',
  },
  { data: `{"name": "Thorin", "system.prototype.x": 1}`, field: 'data.system.prototype.x' },
];

describe('item 10: prototype keys cannot reach a world', () => {
  it('refuses them over HTTP with a 400 naming the field, and the world is left as it was', async () => {
    for (const { data, field } of ATTACKS) {
      const answer = await harness.api(harness.key, 'PUT', '/update', { body: `{"uuid": "${uuid}", "data": ${data}}` });
      expect(answer.status, data).toBe(400);
      expect(answer.body.error).toBe(
        `'${field}' is not allowed: no key, or part of a dotted key, may be __proto__, constructor or prototype`,
      );
      expect(prototypeIsClean()).toBe(true);
    }
    const query = await harness.api(harness.key, 'GET', '/rolls', { query: { [`__proto__.${MARKER}`]: 'x' } });
    expect(query.status).toBe(400);
    const actor = await harness.api(harness.key, 'GET', '/get', { query: { uuid } });
    expect(actor.body.data.name).toBe('Thorin Ironfoot');
  });

  it('refuses them over /ws/api, and keys still reach their world afterwards', async () => {
    const socket = new WebSocket(`${harness.wsUrl}/ws/api`, { headers: { 'x-api-key': harness.key } });
    const received: any[] = [];
    socket.on('message', (frame) => received.push(JSON.parse(frame.toString())));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    try {
      for (const [index, { data, field }] of ATTACKS.entries()) {
        socket.send(`{"type": "update", "requestId": "attack-${index}", "uuid": "${uuid}", "data": ${data}}`);
        await expect
          .poll(() => received.find((message) => message.requestId === `attack-${index}`))
          .toMatchObject({
            type: 'update-result',
            status: 400,
            error: `'${field}' is not allowed: no key, or part of a dotted key, may be __proto__, constructor or prototype`,
          });
      }
    } finally {
      socket.close();
    }
    expect(prototypeIsClean()).toBe(true);
    const rolls = await harness.api(await harness.keyWith(['roll:read']), 'GET', '/rolls');
    expect(rolls.status).toBe(200);
  });

  it('lets ordinary dotted keys through, including ones that merely contain the words', async () => {
    const answer = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid, data: { 'prototypeToken.name': 'Thorin', 'flags.constructors': 1 } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entity[0].prototypeToken.name).toBe('Thorin');
  });

  it('the sandbox world ignores such keys in an update on its own, and applies the rest', () => {
    const world = createSandboxWorld({ seed: 3 });
    const actor = world.game.collections.actors.getName('Thorin Ironfoot')!;
    const changes = JSON.parse(`{
      "__proto__.${MARKER}": true,
      "__proto__": {"${MARKER}": true},
      "constructor.prototype.${MARKER}": true,
      "system": {"constructor": {"prototype": {"${MARKER}": true}}, "__proto__": {"${MARKER}": true}},
      "name": "Thorin Stonefist"
    }`);
    world.game.updateDocument(actor, changes);
    expect(prototypeIsClean()).toBe(true);
    expect(actor.source.name).toBe('Thorin Stonefist');
    expect(Object.keys(actor.source.system as object)).not.toContain('constructor');
  });
});
