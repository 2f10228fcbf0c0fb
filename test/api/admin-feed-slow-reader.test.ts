import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import type { PairRequest } from '../../relay/auth/pairing.ts';

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

const MiB = 1024 * 1024;

/** Opens the admin feed over a raw socket that never reads what the relay sends. */
function openUnreadFeed(): Socket {
  const url = new URL(harness.baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  socket.pause();
  socket.write(
    `GET /admin/events HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${harness.relay.adminToken}\r\n\r\n`,
  );
  return socket;
}

/** A pair request whose world title makes one feed event of about `bytes`. */
function bulkyPairRequest(index: number, bytes: number): PairRequest {
  const now = Date.now();
  return {
    code: `BULK${index}`,
    status: 'pending',
    world: { worldId: `world-${index}`, worldTitle: 'x'.repeat(bytes) },
    upgradeOnly: false,
    source: '127.0.0.1',
    createdAt: now,
    expiresAt: now + 60_000,
  };
}

describe('the admin feed and a reader that never reads', () => {
  it('drops the reader once more than 8 MiB wait unread, and stops following the relay for it', async () => {
    const { pairing } = harness.relay.services;
    const listenersBefore = pairing.listenerCount('changed');
    const socket = openUnreadFeed();
    await expect.poll(() => pairing.listenerCount('changed')).toBe(listenersBefore + 1);
    let sent = 0;
    while (pairing.listenerCount('changed') > listenersBefore && sent < 256 * MiB) {
      pairing.emit('changed', bulkyPairRequest(sent, MiB));
      sent += MiB;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(pairing.listenerCount('changed')).toBe(listenersBefore);
    expect(sent).toBeGreaterThan(8 * MiB);
    socket.destroy();
  });
});
