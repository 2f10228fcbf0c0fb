// Events as the reference relay (foundryvtt-rest-api-relay 3.4.1) sends them, over Server-Sent Events and over /ws/api,
// and /ws/api's own frames (errors without a requestId, unsubscribe). The reference's behaviour is written below as
// data (docs/spec/reference-relay-http-api.md §1.22, §4.3, §5.8, and its server.go fan-out and client_api.go), and
// checked through real sockets against the sandbox world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSocket } from '../harness/caller-api.ts';
import type { EventStream } from '../harness/sse.ts';
import { startRelayWithWorld, uuidOf, type WorldHarness } from '../harness/world.ts';

type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
type FieldTypes = Record<string, FieldType | FieldType[]>;

interface ReferenceChannel {
  /** The /ws/api channel and the SSE path of the same stream. */
  channel: string;
  ssePath: string;
  /** The SSE `event:` name, and the /ws/api frame's type. */
  eventName: string;
  frameType: string;
  /** The frame's fields besides `type` and `data`: the reference names the hook in `hook`, the others' events in `event`. */
  frameFields: FieldTypes;
  /**
   * What `data` holds, over both transports: the module's message as the world sent it (`{type, data}`), or, on the
   * encounters stream only, the message's inner payload.
   */
  data: { moduleMessage: string } | 'inner payload';
  /** The inner payload's fields (module-protocol.md, reference-relay-http-api.md §4.2). */
  payload: FieldTypes;
}

const REFERENCE: ReferenceChannel[] = [
  {
    channel: 'roll-events',
    ssePath: '/rolls/subscribe',
    eventName: 'roll',
    frameType: 'roll-event',
    frameFields: {},
    data: { moduleMessage: 'roll-data' },
    payload: {
      id: 'string',
      messageId: 'string',
      user: 'object',
      speaker: 'object',
      flavor: 'string',
      rollTotal: 'number',
      formula: 'string',
      isCritical: 'boolean',
      isFumble: 'boolean',
      dice: 'array',
      timestamp: 'number',
    },
  },
  {
    channel: 'chat-events',
    ssePath: '/chat/subscribe',
    eventName: 'chat-create',
    frameType: 'chat-event',
    frameFields: { event: 'string' },
    data: { moduleMessage: 'chat-event' },
    payload: { eventType: 'string', data: 'object' },
  },
  {
    channel: 'hooks',
    ssePath: '/hooks/subscribe',
    eventName: 'updateActor',
    frameType: 'hook-event',
    frameFields: { hook: 'string' },
    data: { moduleMessage: 'hook-event' },
    payload: { hook: 'string', args: 'array' },
  },
  {
    channel: 'combat-events',
    ssePath: '/encounters/subscribe',
    eventName: 'combat-start',
    frameType: 'combat-event',
    frameFields: { event: 'string' },
    data: 'inner payload',
    payload: {
      eventType: 'string',
      encounterId: 'string',
      round: 'number',
      turn: ['number', 'null'],
      started: 'boolean',
      combatants: 'array',
    },
  },
  {
    channel: 'actor-events',
    ssePath: '/actor/subscribe',
    eventName: 'actor-update',
    frameType: 'actor-event',
    frameFields: { event: 'string' },
    data: { moduleMessage: 'actor-event' },
    payload: { actorUuid: 'string', eventType: 'string' },
  },
  {
    channel: 'scene-events',
    ssePath: '/scene/subscribe',
    eventName: 'scene-token-update',
    frameType: 'scene-event',
    frameFields: { event: 'string' },
    data: { moduleMessage: 'scene-event' },
    payload: { sceneId: 'string', eventType: 'string' },
  },
];

/** The chat message a chat event carries (reference-relay-http-api.md §4.2). */
const CHAT_MESSAGE: FieldTypes = {
  id: 'string',
  content: 'string',
  speaker: 'object',
  timestamp: 'number',
  whisper: 'array',
  author: 'object',
  isRoll: 'boolean',
};

let harness: WorldHarness;
let goblinId: string;
let goblinHp = 1;
let combatStarted = false;

beforeAll(async () => {
  harness = await startRelayWithWorld();
  goblinId = (await uuidOf(harness, 'Goblin')).split('.')[1]!;
});
afterAll(() => harness?.close());

function typeOf(value: unknown): FieldType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as FieldType;
}

function expectFields(value: any, fields: FieldTypes, where: string): void {
  expect(typeOf(value), where).toBe('object');
  for (const [name, expected] of Object.entries(fields)) {
    const allowed = Array.isArray(expected) ? expected : [expected];
    expect(allowed, `${where}.${name} is ${JSON.stringify(value[name])}`).toContain(typeOf(value[name]));
  }
}

/** The event's data as the reference sends it: the module's message or, for encounters, its inner payload. */
function expectReferenceData(reference: ReferenceChannel, data: any, where: string): void {
  if (reference.data === 'inner payload') {
    expect(data.type, `${where} is the inner payload, not the module's message`).toBeUndefined();
    expectFields(data, reference.payload, where);
    return;
  }
  expect(Object.keys(data).sort(), where).toEqual(['data', 'type']);
  expect(data.type, where).toBe(reference.data.moduleMessage);
  expectFields(data.data, reference.payload, `${where}.data`);
}

function tokenIdOf(name: string): string {
  for (const scene of harness.world.game.scenes.values()) {
    const token = scene.collection('Token').find((candidate) => candidate.name === name);
    if (token) return token.id;
  }
  throw new Error(`no token ${name}`);
}

/** Makes the world push one event of the channel. */
async function trigger(channel: string): Promise<void> {
  switch (channel) {
    case 'roll-events':
      expect(
        (await harness.post('/roll', { formula: '1d20', flavor: 'conformance', createChatMessage: true })).status,
      ).toBe(200);
      return;
    case 'chat-events':
      expect((await harness.post('/chat', { content: 'conformance' })).status).toBe(200);
      return;
    case 'hooks':
    case 'actor-events':
      harness.world.simulate.updateActor(goblinId, { 'system.attributes.hp.value': (goblinHp += 1) });
      return;
    case 'combat-events':
      if (combatStarted) harness.world.simulate.endCombat();
      harness.world.simulate.startCombat();
      combatStarted = true;
      return;
    case 'scene-events':
      harness.world.simulate.moveToken(tokenIdOf('Thorin Ironfoot'), 1000 + Math.round(Math.random() * 100), 800);
      return;
  }
}

async function subscribed(socket: ApiSocket, channel: string, requestId: string): Promise<void> {
  socket.send({ type: 'subscribe', channel, requestId });
  const answer = await socket.next((message) => message.requestId === requestId);
  expect(answer).toMatchObject({ type: 'subscribed', channel, requestId });
  await expect.poll(() => harness.world.enabledChannels()).toContain(channel);
}

/** Whether a frame is the reference channel's event, told apart by the fields the reference sends. */
function isEventFrame(reference: ReferenceChannel, frame: any): boolean {
  if (frame.type !== reference.frameType) return false;
  if (reference.frameFields.hook) return frame.hook === reference.eventName;
  if (reference.frameFields.event) return frame.event === reference.eventName;
  return true;
}

describe.each(REFERENCE)('the $channel channel', (reference) => {
  it(`over SSE (${reference.ssePath}) names the event ${reference.eventName} and sends the reference's data`, async () => {
    const stream: EventStream = await harness.stream(reference.ssePath);
    expect(stream.status).toBe(200);
    await expect.poll(() => harness.world.enabledChannels()).toContain(reference.channel);
    await trigger(reference.channel);
    const event = await stream.next(reference.eventName);
    expectReferenceData(reference, event.data, `SSE ${reference.eventName}`);
    stream.close();
  });

  it(`over /ws/api sends ${reference.frameType} frames with the reference's fields and data`, async () => {
    const socket = await ApiSocket.open(harness.wsUrl, harness.key);
    try {
      await subscribed(socket, reference.channel, `sub-${reference.channel}`);
      await trigger(reference.channel);
      const frame = await socket.next((message) => isEventFrame(reference, message));
      expectFields(frame, { type: 'string', data: 'object', ...reference.frameFields }, reference.frameType);
      expectReferenceData(reference, frame.data, `${reference.frameType}.data`);
    } finally {
      socket.close();
    }
  });
});

describe('the chat message inside a chat event', () => {
  it("is the module message's data.data, over SSE and /ws/api alike", async () => {
    const stream = await harness.stream('/chat/subscribe');
    const socket = await ApiSocket.open(harness.wsUrl, harness.key);
    try {
      await subscribed(socket, 'chat-events', 'chat');
      expect((await harness.post('/chat', { content: 'nested' })).status).toBe(200);
      const sse = await stream.next('chat-create', { where: (data) => data.data?.data?.content === 'nested' });
      const frame = await socket.next(
        (message) => message.type === 'chat-event' && message.data?.data?.data?.content === 'nested',
      );
      for (const [where, data] of [
        ['SSE', sse.data],
        ['/ws/api', frame.data],
      ] as const) {
        expect(data.data.eventType, where).toBe('create');
        expectFields(data.data.data, CHAT_MESSAGE, `${where} chat message`);
      }
    } finally {
      stream.close();
      socket.close();
    }
  });
});

describe('/ws/api frames that call no operation', () => {
  let socket: ApiSocket;
  beforeAll(async () => {
    socket = await ApiSocket.open(harness.wsUrl, harness.key);
  });
  afterAll(() => socket?.close());

  it('an operation without a requestId is answered {type:"error", error} naming requestId, not with a result', async () => {
    const before = socket.received.length;
    socket.send({ type: 'search', query: 'goblin' });
    const answer = await socket.next((message) => socket.received.indexOf(message) >= before);
    expect(answer.type).toBe('error');
    expect(answer.error).toMatch(/^Missing "requestId" field/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(socket.received.slice(before).filter((message) => message.type === 'search-result')).toEqual([]);
  });

  it('unsubscribe answers {type:"unsubscribed", channel, removed:N, requestId}', async () => {
    await subscribed(socket, 'roll-events', 'u-sub');
    socket.send({ type: 'unsubscribe', channel: 'roll-events', requestId: 'u-1' });
    expect(await socket.next((message) => message.requestId === 'u-1')).toEqual({
      type: 'unsubscribed',
      channel: 'roll-events',
      removed: 1,
      requestId: 'u-1',
    });
  });

  it('unsubscribing from a channel not subscribed to removes 0 and is no error', async () => {
    socket.send({ type: 'unsubscribe', channel: 'scene-events', requestId: 'u-2' });
    expect(await socket.next((message) => message.requestId === 'u-2')).toEqual({
      type: 'unsubscribed',
      channel: 'scene-events',
      removed: 0,
      requestId: 'u-2',
    });
  });

  it('unsubscribe without a channel ends every subscription, as channel "all"', async () => {
    await subscribed(socket, 'roll-events', 'a-1');
    await subscribed(socket, 'chat-events', 'a-2');
    socket.send({ type: 'unsubscribe', requestId: 'a-3' });
    expect(await socket.next((message) => message.requestId === 'a-3')).toEqual({
      type: 'unsubscribed',
      channel: 'all',
      removed: 2,
      requestId: 'a-3',
    });
    await expect.poll(() => harness.world.enabledChannels()).not.toContain('chat-events');
  });
});
