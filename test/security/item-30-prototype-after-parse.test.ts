// Item 30: a parameter sent as JSON text (`"data": "{\"__proto__.x\": 1}"`) becomes an object only when its schema
// parses it, after the look for prototype keys; the look now reads such text as the schema will parse it, so the key
// is refused with a 400 over HTTP (body or query) and /ws/api alike, and no request reaches the world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import { requestsSeenDuring, startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
let uuid: string;
beforeAll(async () => {
  harness = await startRelayWithWorld({ relay: { settings: { requestsPerMinute: 0 } } });
  uuid = await uuidOf(harness, 'Thorin Ironfoot');
});
afterAll(() => harness.close());

const REFUSAL = (field: string) =>
  `'${field}' is not allowed: no key, or part of a dotted key, may be __proto__, constructor or prototype`;

/** Object parameters written as JSON text, with the field the refusal must name. */
const AS_TEXT: Array<{ data: string; field: string }> = [
  { data: '{"__proto__.polluted": 1}', field: 'data.__proto__.polluted' },
  { data: '{"__proto__": {"polluted": 1}}', field: 'data.__proto__' },
  { data: '{"system": {"constructor.prototype.polluted": 1}}', field: 'data.system.constructor.prototype.polluted' },
];

describe('item 30: prototype keys inside JSON text are refused once parsed', () => {
  it('over HTTP, in a JSON body and in the query string, before the world hears of it', async () => {
    const seen = await requestsSeenDuring(harness, async () => {
      for (const { data, field } of AS_TEXT) {
        const inBody = await harness.api(harness.key, 'PUT', '/update', { body: { uuid, data } });
        expect(inBody.status, data).toBe(400);
        expect(inBody.body.error).toBe(REFUSAL(field));
        const inQuery = await harness.api(harness.key, 'PUT', '/update', { query: { uuid, data } });
        expect(inQuery.status, data).toBe(400);
        expect(inQuery.body.error).toBe(REFUSAL(field));
      }
    });
    expect(seen.map((request) => request.type)).not.toContain('update');
  });

  it('over /ws/api, before the world hears of it', async () => {
    const caller = await ApiSocket.open(harness.wsUrl, harness.key);
    try {
      const seen = await requestsSeenDuring(harness, async () => {
        for (const [index, { data, field }] of AS_TEXT.entries()) {
          caller.send({ type: 'update', requestId: `text-${index}`, uuid, data });
          const answer = await caller.next((message) => message.requestId === `text-${index}`);
          expect(answer).toMatchObject({ type: 'update-result', status: 400, error: REFUSAL(field) });
        }
      });
      expect(seen.map((request) => request.type)).not.toContain('update');
    } finally {
      caller.close();
    }
  });

  it('still takes ordinary JSON text for an object parameter', async () => {
    const answer = await harness.api(harness.key, 'PUT', '/update', {
      body: { uuid, data: '{"flags.constructors": 1, "name": "Thorin Ironfoot"}' },
    });
    expect(answer.status, answer.text).toBe(200);
  });
});
