import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { connectSandbox, connectSandboxLegacy, relaySocketUrl, RelayConnectionError } from '../../sandbox/index.ts';
import { sandbox } from './helpers.ts';

interface FakeRelay {
  url: string;
  frames: any[];
  requests: URL[];
  sockets: WebSocket[];
  next(type: string): Promise<any>;
  close(): Promise<void>;
}

/** A tiny relay following module-protocol.md §2: token "good" is accepted, anything else closed with 1008. */
async function fakeRelay(options: { legacy?: boolean } = {}): Promise<FakeRelay> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const frames: any[] = [];
  const requests: URL[] = [];
  const sockets: WebSocket[] = [];
  const waiters: { type: string; resolve: (frame: any) => void }[] = [];
  server.on('connection', (socket, request) => {
    sockets.push(socket);
    requests.push(new URL(request.url!, 'ws://relay'));
    if (options.legacy) socket.send(JSON.stringify({ type: 'pong' }));
    socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw));
      frames.push(frame);
      if (frame.type === 'auth') {
        if (frame.token === 'good') socket.send(JSON.stringify({ type: 'auth-success' }));
        else socket.close(frame.token === 'busy' ? 4004 : 1008, 'Authentication failed');
      }
      for (const waiter of waiters.filter((w) => w.type === frame.type)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    });
  });
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    frames,
    requests,
    sockets,
    next: (type) => new Promise((resolve) => waiters.push({ type, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.terminate();
        server.close(() => resolve());
      }),
  };
}

let relay: FakeRelay | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

describe('connectSandbox', () => {
  it('normalises the relay url like the module', () => {
    expect(relaySocketUrl('ws://h:3010')).toBe('ws://h:3010/relay');
    expect(relaySocketUrl('ws://h:3010/relay/')).toBe('ws://h:3010/relay');
    expect(relaySocketUrl('wss://h/base/')).toBe('wss://h/base/relay');
  });

  it('authenticates with the first frame, then pings and sends the player list', async () => {
    relay = await fakeRelay();
    const world = sandbox();
    const link = await connectSandbox(world, {
      relayUrl: `${relay.url}/relay`,
      clientId: 'fvtt_0123456789abcdef',
      token: 'good',
    });
    expect(link.connected).toBe(true);
    const url = relay.requests[0]!;
    expect(url.pathname).toBe('/relay');
    expect([...url.searchParams.keys()]).toEqual([
      'id',
      'worldId',
      'worldTitle',
      'foundryVersion',
      'systemId',
      'systemTitle',
      'systemVersion',
    ]);
    expect(url.searchParams.get('id')).toBe('fvtt_0123456789abcdef');
    expect(url.searchParams.get('systemTitle')).toBe('Dungeons & Dragons Fifth Edition');
    await relay.next('player-list');
    expect(relay.frames.slice(0, 3)).toEqual([
      { type: 'auth', token: 'good' },
      { type: 'ping' },
      { type: 'player-list', users: world.playerList() },
    ]);
    await link.close();
    expect(await link.closed).toEqual({ code: 1000, reason: 'Disconnecting' });
    expect(link.connected).toBe(false);
  });

  it('answers requests concurrently, ignores unknown types and forwards pushes of enabled channels', async () => {
    relay = await fakeRelay();
    const world = sandbox();
    const link = await connectSandbox(world, { relayUrl: relay.url, clientId: 'c', token: 'good' });
    const socket = relay.sockets[0]!;
    socket.send(JSON.stringify({ type: 'nonsense', requestId: 'n1' }));
    socket.send(
      JSON.stringify({
        type: 'sheet-screenshot',
        requestId: 's1',
        uuid: world.game.actors.contents[0]!.uuid,
        scale: 2,
      }),
    );
    socket.send(JSON.stringify({ type: 'players', requestId: 'p1' }));
    const players = await relay.next('players-result');
    expect(players.users).toHaveLength(6);
    const sheet = await relay.next('sheet-screenshot-result');
    expect(relay.frames.findIndex((f) => f.requestId === 'p1')).toBeLessThan(
      relay.frames.findIndex((f) => f.requestId === 's1'),
    );
    expect(sheet.success).toBe(true);
    socket.send(JSON.stringify({ type: 'event-subscription-update', channel: 'chat-events', count: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(world.enabledChannels()).toEqual(['chat-events']);
    const pushed = relay.next('chat-event');
    world.simulate.chat('Alice', 'over the wire');
    expect((await pushed).data.data.content).toBe('over the wire');
    expect(relay.frames.some((f) => f.requestId === 'n1')).toBe(false);
    await link.close();
  });

  it('rejects with the close code when the relay refuses the token', async () => {
    relay = await fakeRelay();
    const error = await connectSandbox(sandbox(), { relayUrl: relay.url, clientId: 'c', token: 'bad' }).catch((e) => e);
    expect(error).toBeInstanceOf(RelayConnectionError);
    expect(error.code).toBe(1008);
    const busy = await connectSandbox(sandbox(), { relayUrl: relay.url, clientId: 'c', token: 'busy' }).catch((e) => e);
    expect(busy.code).toBe(4004);
  });

  it('reconnects after a transient close when asked to', async () => {
    relay = await fakeRelay();
    const link = await connectSandbox(sandbox(), {
      relayUrl: relay.url,
      clientId: 'c',
      token: 'good',
      reconnect: true,
      reconnectBaseDelayMs: 10,
    });
    relay.sockets[0]!.close(4000, 'restart');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(relay.requests).toHaveLength(2);
    expect(link.connected).toBe(true);
    relay.sockets[1]!.close(4002, 'Unpaired by owner');
    expect(await link.closed).toEqual({ code: 4002, reason: 'Unpaired by owner' });
  });
});

describe('connectSandboxLegacy', () => {
  it('puts the API key in the query and is usable on open', async () => {
    relay = await fakeRelay({ legacy: true });
    const world = sandbox();
    const link = await connectSandboxLegacy(world, { relayUrl: relay.url, apiKey: 'key-123' });
    expect(link.clientId).toBe(`foundry-${world.game.moduleUserId}`);
    const url = relay.requests[0]!;
    expect(url.pathname).toBe('/');
    expect(url.searchParams.get('token')).toBe('key-123');
    expect(url.searchParams.get('id')).toBe(link.clientId);
    relay.sockets[0]!.send(JSON.stringify({ type: 'world-info', requestId: 'w' }));
    expect((await relay.next('world-info-result')).data.world.id).toBe('sandbox-world');
    expect(relay.frames[0]).toEqual({ type: 'ping' });
    await link.close();
  });
});
