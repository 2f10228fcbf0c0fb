import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { RawWorld, connectRawWorld } from '../harness/raw-world.ts';

const CLIENT_ID = 'fvtt_0123456789abcdef';
const metadata = {
  id: CLIENT_ID,
  worldId: 'keep',
  worldTitle: 'The Keep',
  foundryVersion: '13.348',
  systemId: 'dnd5e',
  systemTitle: 'D&D 5e',
  systemVersion: '5.1.10',
};

let harness: TestRelay;
let token: string;

beforeEach(async () => {
  harness = await startTestRelay({ authTimeoutMs: 300, heartbeatIntervalMs: 200, timeoutOverrideMs: 400 });
  token = harness.relay.services.connectionTokens.issue(CLIENT_ID, 'test browser', 'pairing').token;
});
afterEach(() => harness.close());

function openWorld(query: Record<string, string> = metadata, options: { localAddress?: string } = {}): RawWorld {
  return new RawWorld(harness.wsUrl, query, options);
}

describe('module-protocol §2: the 3.x handshake', () => {
  it('refuses an upgrade without ?id= with HTTP 400 before any WebSocket opens', async () => {
    const socket = new WebSocket(`${harness.wsUrl}/relay?worldId=keep`);
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)),
    );
    expect(status).toBe(400);
  });

  it('answers a valid auth frame with auth-success', async () => {
    const world = openWorld();
    await world.opened;
    world.send({ type: 'auth', token });
    expect(await world.next((m) => m.type === 'auth-success')).toEqual({ type: 'auth-success' });
    world.close();
  });

  it('accepts the world on /relay/ and / as well', async () => {
    for (const path of ['/relay/', '/']) {
      const world = new RawWorld(harness.wsUrl, metadata, { path });
      await world.opened;
      world.send({ type: 'auth', token });
      await world.next((m) => m.type === 'auth-success');
      world.close();
      await world.closed;
    }
  });

  it('closes with 4002 when the first frame is not an auth message', async () => {
    const world = openWorld();
    await world.opened;
    world.send({ type: 'ping' });
    expect((await world.closed).code).toBe(4002);
    expect(world.received).toEqual([]);
  });

  it('closes with 4002 when the first frame is not JSON', async () => {
    const world = openWorld();
    await world.opened;
    world.send('not json');
    expect((await world.closed).code).toBe(4002);
  });

  it('closes with 4002 when no auth frame arrives in time', async () => {
    const world = openWorld();
    await world.opened;
    expect(await world.closed).toEqual({ code: 4002, reason: 'Authentication timeout' });
  });

  it('closes with 1008 for an unknown token', async () => {
    const world = openWorld();
    await world.opened;
    world.send({ type: 'auth', token: 'f'.repeat(64) });
    expect(await world.closed).toEqual({ code: 1008, reason: 'Authentication failed' });
    expect(world.received).toEqual([]);
  });

  it('closes with 1008 for a token issued to another world', async () => {
    const world = openWorld({ ...metadata, id: 'fvtt_other' });
    await world.opened;
    world.send({ type: 'auth', token });
    expect((await world.closed).code).toBe(1008);
  });

  it('answers the application ping with pong', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    world.send({ type: 'ping' });
    expect(await world.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    world.close();
  });

  it('records the metadata query parameters of the world', async () => {
    const world = openWorld();
    await world.opened;
    world.send({ type: 'auth', token });
    await world.next((m) => m.type === 'auth-success');
    const connected = harness.relay.services.tabletop.world(CLIENT_ID);
    expect(connected?.metadata).toEqual({
      worldId: 'keep',
      worldTitle: 'The Keep',
      foundryVersion: '13.348',
      systemId: 'dnd5e',
      systemTitle: 'D&D 5e',
      systemVersion: '5.1.10',
    });
    world.close();
  });
});

describe('module-protocol §2.4: one connection per world', () => {
  it('closes a duplicate from another address with 4004 before any auth-success', async () => {
    const first = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const second = openWorld(metadata, { localAddress: '127.0.0.2' });
    await second.opened;
    second.send({ type: 'auth', token });
    expect(await second.closed).toEqual({ code: 4004, reason: 'Client ID already connected' });
    expect(second.received).toEqual([]);
    expect(first.socket.readyState).toBe(WebSocket.OPEN);
    first.close();
  });

  it('keeps a live connection and closes a duplicate from the same address with 4004, never the first with 1000', async () => {
    const first = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const second = openWorld();
    await second.opened;
    second.send({ type: 'auth', token });
    expect(await second.closed).toEqual({ code: 4004, reason: 'Client ID already connected' });
    expect(second.received).toEqual([]);
    expect(first.socket.readyState).toBe(WebSocket.OPEN);
    expect(harness.relay.services.tabletop.worlds()).toHaveLength(1);
    first.close();
  });
});

describe('module-protocol §2.5: keepalive', () => {
  it('drops a peer that stops answering protocol pings', async () => {
    const socket = new WebSocket(`${harness.wsUrl}/relay?id=${CLIENT_ID}`, { autoPong: false });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'auth', token }));
    const closed = await new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    expect(closed).toBe(1006);
    await expect.poll(() => harness.relay.services.tabletop.worlds()).toHaveLength(0);
  });

  it('keeps a peer that answers protocol pings', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(world.socket.readyState).toBe(WebSocket.OPEN);
    world.close();
  });
});

describe('module-protocol §2.7: unsolicited messages from the world', () => {
  it('keeps the player list per world', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    world.send({
      type: 'player-list',
      users: [
        { id: 'u1', name: 'Gamemaster', role: 4, active: true },
        { id: 'u2', name: 'Alice', role: 1, active: false },
      ],
    });
    await expect.poll(() => harness.relay.services.tabletop.world(CLIENT_ID)?.players.length).toBe(2);
    const status = await harness.admin('GET', '/admin/status');
    expect(status.body.worlds[0].players).toEqual([
      { id: 'u1', name: 'Gamemaster', role: 4, active: true },
      { id: 'u2', name: 'Alice', role: 1, active: false },
    ]);
    world.close();
  });

  it('ignores malformed frames, unknown types and replies to unknown requests, and stays connected', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    for (const frame of [
      '{',
      '[]',
      'null',
      '42',
      JSON.stringify({ type: 'mystery' }),
      JSON.stringify({ type: 'rolls-result', requestId: 'rolls_1', data: [] }),
    ]) {
      world.send(frame);
    }
    world.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    world.send({ type: 'ping' });
    await world.next((m) => m.type === 'pong');
    expect(world.socket.readyState).toBe(WebSocket.OPEN);
    world.close();
  });
});

describe('module-protocol §3.7: the 2.x handshake', () => {
  it('accepts a world that puts its "Connect a 2.x module" key in the URL, without an auth frame', async () => {
    const key = (
      await harness.admin('POST', '/admin/world-links', {
        clientId: 'foundry-gm0001',
        foundryUrl: 'http://localhost:30000',
      })
    ).body.key;
    const world = openWorld({ ...metadata, id: 'foundry-gm0001', token: key });
    await world.opened;
    await world.next((m) => m.type === 'auth-success');
    expect(harness.relay.services.tabletop.world('foundry-gm0001')).toBeDefined();
    const tool = await harness.createKey({ scopes: ['roll:read'] });
    const pending = harness.api(tool, 'GET', '/rolls');
    const request = await world.next((m) => m.type === 'rolls');
    world.send({ type: 'rolls-result', requestId: request.requestId, data: [] });
    expect((await pending).body).toEqual({ type: 'rolls-result', requestId: request.requestId, data: [] });
    world.close();
  });

  it('closes with 1008 when the API key in the URL is invalid', async () => {
    const world = openWorld({ ...metadata, id: 'foundry-gm0001', token: 'ttr_nope' });
    expect(await world.closed).toEqual({ code: 1008, reason: 'Invalid API key' });
  });

  it('refuses a world:link key bound to a tabletop user, which belongs to a player rather than a world', async () => {
    const key = await harness.createKey({ scopes: ['world:link'], userId: 'Alice', worldIds: ['foundry-gm0001'] });
    const world = openWorld({ ...metadata, id: 'foundry-gm0001', token: key });
    expect((await world.closed).code).toBe(1008);
  });
});

describe('requests in flight', () => {
  it('fails every pending request at once when the world disconnects', async () => {
    const key = await harness.createKey({ scopes: ['roll:read', 'search'] });
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const started = Date.now();
    const calls = [harness.api(key, 'GET', '/rolls'), harness.api(key, 'GET', '/search', { query: { query: 'a' } })];
    await world.next((m) => m.type === 'search');
    world.socket.terminate();
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.status)).toEqual([503, 503]);
    expect(answers[0]!.body.error).toMatch(/disconnected/);
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('answers 408 when the world stays silent, and drops its late reply', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const answer = await harness.api(key, 'GET', '/rolls');
    expect(answer.status).toBe(408);
    expect(answer.body.error).toBe('Request timed out');
    const request = world.received.find((m) => m.type === 'rolls');
    world.send({ type: 'rolls-result', requestId: request.requestId, data: [] });
    world.send({ type: 'ping' });
    await world.next((m) => m.type === 'pong');
    expect(harness.relay.services.tabletop.pending.size).toBe(0);
    world.close();
  });

  it('gives concurrent calls of one operation distinct request ids of the form <operation>_<epoch ms>', async () => {
    const key = await harness.createKey({ scopes: ['roll:read'] });
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    world.socket.on('message', (data) => {
      const request = JSON.parse(data.toString());
      if (request.type === 'rolls')
        world.send({ type: 'rolls-result', requestId: request.requestId, data: [request.requestId] });
    });
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => harness.api(key, 'GET', '/rolls')));
    const ids = answers.map((answer) => answer.body.requestId as string);
    expect(new Set(ids).size).toBe(20);
    for (const [index, id] of ids.entries()) {
      expect(id).toMatch(/^rolls_\d{13}$/);
      expect(Number(id.slice(6))).toBeGreaterThanOrEqual(before);
      expect(answers[index]!.body.data).toEqual([id]);
    }
    world.close();
  });

  it('passes a 64 MiB frame from the world through to the caller', async () => {
    const key = await harness.createKey({ scopes: ['sheet:read'] });
    await harness.relay.stop();
    const big = await startTestRelay({ timeoutOverrideMs: 20_000 });
    try {
      const bigToken = big.relay.services.connectionTokens.issue(CLIENT_ID, 'test', 'pairing').token;
      const bigKey = await big.createKey({ scopes: ['sheet:read'] });
      const world = await connectRawWorld(big.wsUrl, CLIENT_ID, bigToken);
      const bytes = Buffer.alloc(48 * 1024 * 1024, 7);
      world.socket.on('message', (data) => {
        const request = JSON.parse(data.toString());
        if (request.type !== 'sheet-screenshot') return;
        const imageData = `data:image/png;base64,${bytes.toString('base64')}`;
        expect(imageData.length).toBeGreaterThan(64 * 1024 * 1024);
        world.send({
          type: 'sheet-screenshot-result',
          requestId: request.requestId,
          success: true,
          imageData,
          mimeType: 'image/png',
          width: 10,
          height: 10,
        });
      });
      const response = await fetch(`${big.baseUrl}/sheet?uuid=Actor.x`, { headers: { 'x-api-key': bigKey } });
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(200);
      expect(body.length).toBe(bytes.length);
      expect(body.equals(bytes)).toBe(true);
      world.close();
    } finally {
      await big.close();
    }
    expect(key).toBeTruthy();
  }, 60_000);
});

describe('connection tokens', () => {
  it('closes the world with 4002 when its token is revoked through the admin API', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const listed = await harness.admin('GET', '/admin/connection-tokens');
    const id = listed.body.connectionTokens[0].id;
    expect(listed.text).not.toContain(token);
    expect((await harness.admin('DELETE', `/admin/connection-tokens/${id}`)).status).toBe(200);
    expect(await world.closed).toEqual({ code: 4002, reason: 'Connection token revoked' });
  });

  it('closes the world with 4002 when the module unpairs itself', async () => {
    const world = await connectRawWorld(harness.wsUrl, CLIENT_ID, token);
    const answer = await harness.api(undefined, 'POST', '/api/self-unpair', { body: { token } });
    expect(answer.body).toEqual({ success: true });
    expect(await world.closed).toEqual({ code: 4002, reason: 'Unpaired by owner' });
    const again = openWorld();
    await again.opened;
    again.send({ type: 'auth', token });
    expect((await again.closed).code).toBe(1008);
  });
});
