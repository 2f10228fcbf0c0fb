// Issue 9, item 6: revoking, rotating, re-scoping or re-binding a key left its open SSE streams and /ws/api
// subscriptions running. They must end at once; other keys' streams carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket, within } from '../harness/caller-api.ts';
import type { EventStream } from '../harness/sse.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

const AT_ONCE_MS = 1000;

let harness: WorldHarness;
let bystander: { stream: EventStream; socket: ApiSocket };

async function createKey(name: string): Promise<{ id: string; key: string }> {
  const created = await harness.admin('POST', '/admin/keys', { name, scopes: ['events:subscribe', 'search'] });
  expect(created.status).toBe(201);
  return created.body;
}

/** An SSE roll stream and a /ws/api socket subscribed to roll events, both held by one key. */
async function openStreams(key: string): Promise<{ stream: EventStream; socket: ApiSocket }> {
  const stream = await harness.stream('/rolls/subscribe', {}, key);
  const socket = await ApiSocket.open(harness.wsUrl, key);
  socket.send({ type: 'subscribe', channel: 'roll-events', requestId: 'sub' });
  await socket.next((message) => message.type === 'subscribed');
  return { stream, socket };
}

/** A roll made in the world reaches the bystander's stream and socket: they are still open and subscribed. */
async function expectBystanderStillStreams(formula: string): Promise<void> {
  harness.world.simulate.playerRoll('Alice', formula);
  await bystander.stream.next('roll', { where: ({ data: roll }) => roll.formula === formula });
  await bystander.socket.next((message) => message.type === 'roll-event' && message.data.data.formula === formula);
}

beforeAll(async () => {
  harness = await startRelayWithWorld();
  bystander = await openStreams((await createKey('bystander')).key);
});
afterAll(async () => {
  bystander.socket.close();
  await harness.close();
});

const CHANGES: [string, (id: string) => Promise<unknown>, string, string][] = [
  ['revoked', (id) => harness.admin('DELETE', `/admin/keys/${id}`), 'API key revoked', '1d4'],
  ['rotated', (id) => harness.admin('POST', `/admin/keys/${id}/rotate`), 'API key rotated: use the new key', '1d6'],
  [
    're-scoped',
    (id) => harness.admin('PATCH', `/admin/keys/${id}`, { scopes: ['events:subscribe'] }),
    'API key changed: connect again to use its new scopes and bindings',
    '1d8',
  ],
  [
    're-bound',
    (id) => harness.admin('PATCH', `/admin/keys/${id}`, { worldIds: [harness.clientId, 'fvtt_anotherworld00'] }),
    'API key changed: connect again to use its new scopes and bindings',
    '1d10',
  ],
];

describe('item 06: a key that changes ends its open streams at once', () => {
  it.each(CHANGES)(
    'a key %s ends its SSE stream and its /ws/api socket (told why), other keys stream on',
    async (_change, change, reason, formula) => {
      const { id, key } = await createKey('changing');
      const held = await openStreams(key);

      await change(id);

      await within(held.stream.ended, AT_ONCE_MS, 'the SSE stream of the changed key ending');
      expect(await within(held.socket.closed, AT_ONCE_MS, 'the /ws/api socket of the changed key closing')).toEqual({
        code: 4002,
        reason,
      });
      expect(held.socket.received.at(-1)).toEqual({ type: 'error', status: 401, error: reason });
      await expectBystanderStillStreams(formula);
      expect(held.stream.named('roll')).toEqual([]);
    },
  );

  it('counts no subscriber of a changed key any more, so the world is told to stop only when nobody listens', async () => {
    const { id, key } = await createKey('counted');
    const before = harness.relay.services.events.countOwnedBy(id);
    await openStreams(key);
    expect(harness.relay.services.events.countOwnedBy(id)).toBe(before + 2);
    await harness.admin('DELETE', `/admin/keys/${id}`);
    expect(harness.relay.services.events.countOwnedBy(id)).toBe(0);
    expect(harness.world.enabledChannels()).toContain('roll-events');
  });
});
