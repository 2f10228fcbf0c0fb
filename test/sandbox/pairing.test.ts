import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangePairingCode, pairSandbox, PairingError } from '../../sandbox/index.ts';
import { sandbox } from './helpers.ts';

interface Call {
  method: string;
  path: string;
  body: any;
}

/** A relay's pairing endpoints (module-protocol.md §3.3–3.4), answering from a script of statuses. */
async function pairingRelay(
  statuses: { status: number; body: unknown }[],
): Promise<{ base: string; calls: Call[]; server: Server }> {
  const calls: Call[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const call = { method: request.method!, path: request.url!, body: text ? JSON.parse(text) : null };
    calls.push(call);
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (call.path === '/auth/pair-request')
      return send(201, { code: 'ABCD2345', pairUrl: 'http://relay/pair/ABCD2345', expiresIn: 600 });
    if (call.path.endsWith('/status')) {
      const next = statuses.shift()!;
      return send(next.status, next.body);
    }
    if (call.path === '/auth/pair') {
      return call.body.code === 'XYZ789'
        ? send(200, { token: 'f'.repeat(64), clientId: 'fvtt_00112233aabbccdd', relayUrl: 'ws://relay/relay' })
        : send(404, { error: 'Invalid pairing code' });
    }
    return send(404, { error: 'nope' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, calls, server };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

describe('pairing', () => {
  it('requests, polls until approved, then exchanges the pairing code (flow A)', async () => {
    const relay = await pairingRelay([
      { status: 200, body: { status: 'pending' } },
      { status: 200, body: { status: 'approved', pairingCode: 'XYZ789' } },
    ]);
    server = relay.server;
    const world = sandbox();
    const codes: string[] = [];
    const result = await pairSandbox(world, {
      httpBase: `${relay.base}/`,
      pollIntervalMs: 5,
      onCode: (code, url) => codes.push(code, url),
    });
    expect(result).toEqual({ token: 'f'.repeat(64), clientId: 'fvtt_00112233aabbccdd', relayUrl: 'ws://relay/relay' });
    expect(codes).toEqual(['ABCD2345', 'http://relay/pair/ABCD2345']);
    const fingerprint = world.game.relaySettings.serverFingerprint;
    expect(fingerprint).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(relay.calls[0]).toEqual({
      method: 'POST',
      path: '/auth/pair-request',
      body: {
        worldId: 'sandbox-world',
        worldTitle: 'The Sandbox Keep',
        systemId: 'dnd5e',
        systemTitle: 'Dungeons & Dragons Fifth Edition',
        systemVersion: '5.1.10',
        foundryVersion: '13.348',
        serverFingerprint: fingerprint,
      },
    });
    expect(relay.calls.filter((c) => c.path === '/auth/pair-request/ABCD2345/status')).toHaveLength(2);
    expect(relay.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/auth/pair',
      body: {
        code: 'XYZ789',
        worldId: 'sandbox-world',
        worldTitle: 'The Sandbox Keep',
        serverFingerprint: fingerprint,
        existingClientId: '',
        serverOrigin: 'http://localhost:30000',
      },
    });
    expect(world.game.relaySettings.clientId).toBe('fvtt_00112233aabbccdd');
  });

  it('stops on denial, expiry and relay errors with their text', async () => {
    const relay = await pairingRelay([
      { status: 200, body: { status: 'denied' } },
      { status: 410, body: { error: 'Pairing request expired' } },
    ]);
    server = relay.server;
    await expect(pairSandbox(sandbox(), { httpBase: relay.base, pollIntervalMs: 5 })).rejects.toThrow(
      'Pairing request was denied',
    );
    await expect(pairSandbox(sandbox(), { httpBase: relay.base, pollIntervalMs: 5 })).rejects.toThrow(
      'Pairing request expired',
    );
    const error = await exchangePairingCode(sandbox(), { httpBase: relay.base, code: 'nope00' }).catch((e) => e);
    expect(error).toBeInstanceOf(PairingError);
    expect(error.message).toBe('Invalid pairing code');
  });

  it('gives up after timeoutMs while pending', async () => {
    const relay = await pairingRelay(Array.from({ length: 50 }, () => ({ status: 200, body: { status: 'pending' } })));
    server = relay.server;
    await expect(pairSandbox(sandbox(), { httpBase: relay.base, pollIntervalMs: 5, timeoutMs: 40 })).rejects.toThrow(
      'Timed out waiting for pairing approval',
    );
  });

  it('exchanges a typed code upper-cased and sends the stored clientId afterwards (flow B)', async () => {
    const relay = await pairingRelay([]);
    server = relay.server;
    const world = sandbox();
    await exchangePairingCode(world, { httpBase: relay.base, code: 'xyz789' });
    await exchangePairingCode(world, { httpBase: relay.base, code: 'XYZ789' });
    expect(relay.calls.map((c) => c.body.existingClientId)).toEqual(['', 'fvtt_00112233aabbccdd']);
  });
});
