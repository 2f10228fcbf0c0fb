// Issue 23, item 5: any key sent 100 MiB frames on /ws/api, on as many sockets as it liked: eight 95 MiB frames with a
// player's key took the relay from 264 MB to 1.3 GB, while the same key's HTTP bodies stopped at 1 MiB. Expected:
// /ws/api frames as large as the key's HTTP bodies (an upload's size only with `file:write`), and few sockets per key.
import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PLAYER_SCOPES } from '../../relay/auth/scopes.ts';
import { MAX_SOCKETS_PER_KEY } from '../../relay/ws-api/caller-api.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const MiB = 1024 * 1024;
const TOO_BIG = 1009;

let relay: TestRelay;
let playerKey: string;
let uploadKey: string;
beforeAll(async () => {
  relay = await startTestRelay();
  playerKey = await relay.createKey({ name: 'Player', scopes: PLAYER_SCOPES });
  uploadKey = await relay.createKey({ name: 'Uploader', scopes: ['file:write'] });
});
afterAll(() => relay.close());

interface Caller {
  socket: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  /** The upgrade's HTTP answer when the relay refused it. */
  refused: Promise<{ status: number; error: string }>;
}

function openCaller(headers: Record<string, string> = {}): Caller {
  const socket = new WebSocket(`${relay.wsUrl}/ws/api`, { headers, perMessageDeflate: false });
  socket.on('error', () => {});
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const refused = new Promise<{ status: number; error: string }>((resolve) =>
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, error: JSON.parse(body).error }));
    }),
  );
  return { socket, messages, closed, refused };
}

async function connected(caller: Caller): Promise<void> {
  await waitFor(() => caller.messages.some((message) => message.type === 'connected'), 'connected');
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A ping frame padded to `bytes`: answered with a pong when the relay takes a frame that large. */
function paddedPing(requestId: string, bytes: number): string {
  return JSON.stringify({ type: 'ping', requestId, padding: 'x'.repeat(bytes) });
}

/**
 * Opens /ws/api by hand with the key in the upgrade, then starts one frame claiming `claimedBytes` and sends
 * `sentBytes` of it, as the attack did. Resolves with the close code the relay sends, or -1 when it keeps reading.
 */
function startHugeFrame(key: string, claimedBytes: number, sentBytes: number, waitMs: number): Promise<number> {
  return new Promise((resolve) => {
    const socket: Socket = connectTcp(relay.relay.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let upgraded = false;
    const finish = (code: number) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    const timer = setTimeout(() => finish(-1), waitMs);
    socket.on('error', () => {});
    socket.on('close', () => finish(0));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (!upgraded) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        upgraded = true;
        received = received.subarray(end + 4);
        const header = Buffer.alloc(14);
        header[0] = 0x81;
        header[1] = 0x80 | 127;
        header.writeBigUInt64BE(BigInt(claimedBytes), 2);
        socket.write(header);
        const piece = Buffer.alloc(MiB, 0x20);
        for (let sent = 0; sent < sentBytes && !socket.destroyed; sent += MiB) socket.write(piece);
      }
      // The relay's frames: `connected` first, then perhaps a close frame (opcode 8) with its code.
      const close = received.indexOf(0x88);
      if (close >= 0 && received.length >= close + 4) finish(received.readUInt16BE(close + 2));
    });
    socket.write(
      `GET /ws/api HTTP/1.1\r\nHost: 127.0.0.1:${relay.relay.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `x-api-key: ${key}\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

describe('item 26: /ws/api frames and sockets per key', () => {
  it("stops a player key's frames at the keyed HTTP body limit (1 MiB), as its HTTP bodies stop", async () => {
    const caller = openCaller({ 'x-api-key': playerKey });
    await connected(caller);
    caller.socket.send(paddedPing('small', 512 * 1024));
    await waitFor(() => caller.messages.some((message) => message.requestId === 'small'), 'the pong');
    caller.socket.send(paddedPing('large', 2 * MiB));
    expect((await caller.closed).code).toBe(TOO_BIG);
  });

  it('keeps memory low while eight sockets of a player key start 95 MiB frames', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const codes = await Promise.all(
      Array.from({ length: 8 }, () => startHugeFrame(playerKey, 95 * MiB, 8 * MiB, 3000)),
    );
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(codes).toEqual(codes.map(() => TOO_BIG));
    expect(grown).toBeLessThan(24 * MiB);
  });

  it('takes upload-sized frames from a key with file:write, the scope of uploads', async () => {
    const caller = openCaller({ 'x-api-key': uploadKey });
    await connected(caller);
    caller.socket.send(paddedPing('upload-sized', 4 * MiB));
    await waitFor(() => caller.messages.some((message) => message.requestId === 'upload-sized'), 'the pong');
    caller.socket.close();
  });

  it(`lets one key hold ${MAX_SOCKETS_PER_KEY} sockets and says so to the next, by header or auth frame`, async () => {
    const held = Array.from({ length: MAX_SOCKETS_PER_KEY }, () => openCaller({ 'x-api-key': playerKey }));
    await Promise.all(held.map(connected));

    const byHeader = openCaller({ 'x-api-key': playerKey });
    expect(await byHeader.refused).toEqual({
      status: 429,
      error: `At most ${MAX_SOCKETS_PER_KEY} /ws/api sockets may be open with one API key: close one, or share one socket`,
    });
    const byFrame = openCaller();
    byFrame.socket.once('open', () => byFrame.socket.send(JSON.stringify({ type: 'auth', token: playerKey })));
    expect(await byFrame.closed).toEqual({
      code: 1013,
      reason: expect.stringContaining(`At most ${MAX_SOCKETS_PER_KEY}`),
    });
    // Another key is not held to this one's count, and a closed socket frees its place.
    const other = openCaller({ 'x-api-key': uploadKey });
    await connected(other);
    held[0]!.socket.close();
    await held[0]!.closed;
    // The relay learns of the close a moment after the caller does.
    let again = openCaller({ 'x-api-key': playerKey });
    for (let tries = 0; tries < 20 && (await Promise.race([again.refused, connected(again)])) !== undefined; tries++) {
      again = openCaller({ 'x-api-key': playerKey });
    }
    await connected(again);
    for (const caller of [...held, other, again]) caller.socket.close();
  });
});
