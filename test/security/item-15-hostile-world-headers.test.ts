// Item 15: a world's answer is not trusted to be well formed. A value the relay would put in a response header
// (mimeType, width, height, filename) that could break or split the headers is a 502 naming the world, never a
// 500 or an injected header, and the relay keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRawWorld, type RawWorld } from '../harness/raw-world.ts';
import { EventStream } from '../harness/sse.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const CLIENT_ID = 'fvtt_hostile0000world';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
let relay: TestRelay;
let world: RawWorld;
let key: string;
/** What the raw world answers to the next request: fields merged into its `<type>-result`. */
let nextAnswer: Record<string, unknown> = {};

beforeAll(async () => {
  relay = await startTestRelay({ capture: false, settings: { requestsPerMinute: 0 } });
  const { token } = relay.relay.services.connectionTokens.issue(CLIENT_ID, 'Hostile world', 'demo');
  world = await connectRawWorld(relay.wsUrl, CLIENT_ID, token);
  world.socket.on('message', (frame) => {
    const request = JSON.parse(frame.toString());
    if (typeof request.requestId !== 'string') return;
    world.send({ type: `${request.type}-result`, requestId: request.requestId, success: true, ...nextAnswer });
  });
  key = await relay.createKey({ scopes: ['file:read', 'sheet:read', 'clients:read', 'events:subscribe'] });
});
afterAll(async () => {
  world.close();
  await relay.close();
});

async function fetchAnswered(path: string, answer: Record<string, unknown>): Promise<Response> {
  nextAnswer = answer;
  return fetch(new URL(path, relay.baseUrl), { headers: { 'x-api-key': key } });
}

const HOSTILE_ANSWERS: Array<{ path: string; answer: Record<string, unknown>; field: string }> = [
  {
    path: '/download?path=a.png',
    answer: { fileData: PNG, filename: 'a.png', mimeType: 'text/html\r\nSet-Cookie: stolen=1' },
    field: 'mimeType',
  },
  {
    path: '/download?path=a.png',
    answer: { fileData: PNG, filename: 'a.png\r\nSet-Cookie: stolen=1', mimeType: 'image/png' },
    field: 'filename',
  },
  { path: '/download?path=a.png', answer: { fileData: PNG, filename: 'a\u0000.png' }, field: 'filename' },
  { path: '/download?path=a.png', answer: { fileData: PNG, filename: 'a\ud800.png' }, field: 'filename' },
  {
    path: '/download?path=a.png',
    answer: { fileData: 'data:text/html\r\nX-Evil: 1;base64,AAAA', filename: 'a.png' },
    field: 'mimeType',
  },
  {
    path: '/download?path=a.png',
    answer: { data: { fileData: PNG, filename: 'a.png', mimeType: ['image/png'] } },
    field: 'mimeType',
  },
  {
    path: '/sheet?uuid=Actor.x',
    answer: { imageData: PNG, width: '10\r\nSet-Cookie: stolen=1', height: 10 },
    field: 'width',
  },
  { path: '/sheet?uuid=Actor.x', answer: { imageData: PNG, width: 10, height: { toString: 'x' } }, field: 'height' },
  { path: '/sheet?uuid=Actor.x', answer: { imageData: PNG, width: -1, height: 10 }, field: 'width' },
];

describe('item 15: a hostile world cannot break or inject response headers', () => {
  it('answers 502 naming the world for each header value that cannot be sent as it is', async () => {
    for (const { path, answer, field } of HOSTILE_ANSWERS) {
      const response = await fetchAnswered(path, answer);
      const body = await response.json();
      expect(response.status, JSON.stringify(answer)).toBe(502);
      expect(body.error).toMatch(
        new RegExp(
          `^The world "Raw World" \\(${CLIENT_ID}\\) answered with a ${field} that cannot be sent as an HTTP header: .*; its module is faulty or hostile$`,
        ),
      );
      expect(body.clientId).toBe(CLIENT_ID);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('keeps serving, and sends well-formed names and types as they are, other scripts in filename*', async () => {
    const plain = await fetchAnswered('/download?path=a.png', {
      fileData: PNG,
      filename: 'map "one".png',
      mimeType: 'image/png; charset="x"',
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('image/png; charset="x"');
    expect(plain.headers.get('content-disposition')).toBe('attachment; filename="map _one_.png"');
    const unicode = await fetchAnswered('/download?path=a.png', { fileData: PNG, filename: "地図 (ö's).png" });
    expect(unicode.status).toBe(200);
    expect(unicode.headers.get('content-type')).toBe('image/png');
    expect(unicode.headers.get('content-disposition')).toBe(
      `attachment; filename="__ (_'s).png"; filename*=UTF-8''%E5%9C%B0%E5%9B%B3%20%28%C3%B6%27s%29.png`,
    );
    const sheet = await fetchAnswered('/sheet?uuid=Actor.x', { imageData: PNG, width: 640, height: '480' });
    expect(sheet.status).toBe(200);
    expect([sheet.headers.get('x-image-width'), sheet.headers.get('x-image-height')]).toEqual(['640', '480']);
    const clients = await fetch(new URL('/clients', relay.baseUrl), { headers: { 'x-api-key': key } });
    expect(clients.status).toBe(200);
  });

  it('cannot forge event stream frames with line breaks in the names it gives its events', async () => {
    const stream = new EventStream(`${relay.baseUrl}/hooks/subscribe`, key);
    await stream.ready;
    const forged = 'updateActor\n\nevent: roll\ndata: {"forged":true}';
    world.send({ type: 'hook-event', data: { hook: forged, args: [] } });
    world.send({ type: 'hook-event', data: { hook: 'combat\rTurn', args: [] } });
    world.send({ type: 'hook-event', data: { hook: 'updateActor', args: ['after'] } });
    await stream.next('updateActor');
    stream.close();
    expect(stream.events.map((event) => event.name)).toEqual(['connected', 'updateActor']);
    expect(stream.events[1]!.data.data.args).toEqual(['after']);
  });
});
