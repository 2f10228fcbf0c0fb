// Issue 23, item 7: 7 LAN addresses × 3 requests filled every pair-request and every key-request place, so the GM's own
// Stream Deck plugin on this computer got 429 for as long as the strangers kept asking. Here: the strangers are
// addresses of a network namespace, the plugin and the GM's Foundry tab ask from 127.0.0.1, a paired world's browser
// holds its socket from another address of the namespace.
import { once } from 'node:events';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { fromLan, lanBaseUrl, setLanAccess, type LanCall } from '../harness/lan.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer, type PeerAnswer } from '../ui/lan-peer.ts';

// Seven strangers and the machine a paired world runs on; without namespaces (outside CI only) these are skipped.
const peer = await createLanPeer({ machines: 8 });
const strangers = peer?.peerAddresses.slice(0, 7) ?? [];
const worldMachine = peer?.peerAddresses[7] ?? '';

let relay: TestRelay;
let world: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  relay = await startTestRelay();
  await setLanAccess(relay, true);
});

afterAll(async () => {
  world?.kill();
  await relay?.close();
  await peer?.close();
});

const DECK_ASK = { appName: 'Stream Deck', scopes: ['roll:execute', 'playlist:control'] };

const pairRequest = (from: string, worldId: string): LanCall => ({
  method: 'POST',
  path: '/auth/pair-request',
  from,
  body: { worldId, worldTitle: `World ${worldId}` },
});

const keyRequest = (from: string, appName: string): LanCall => ({
  method: 'POST',
  path: '/auth/key-request',
  from,
  body: { appName, scopes: ['roll:read'] },
});

const statuses = (answers: PeerAnswer[]) => answers.map((answer) => answer.status);

/** A paired world's Foundry tab on `from`: its socket on /relay with its connection token, held open. */
async function connectWorldFrom(from: string): Promise<ChildProcessWithoutNullStreams> {
  const { token } = relay.relay.services.connectionTokens.issue('fvtt_lanworld000001', 'Browser', 'pairing');
  const url = `${lanBaseUrl(relay, peer!).replace(/^http/, 'ws')}/relay?id=fvtt_lanworld000001&worldTitle=Far+Keep`;
  const socket = peer!.node([
    '-e',
    `const WebSocket = require('ws');
     const socket = new WebSocket(process.argv[1], { localAddress: process.argv[3] });
     socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: process.argv[2] })));
     socket.on('message', (data) => {
       const message = JSON.parse(String(data));
       if (message.type === 'auth-success') console.log('connected');
       if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
     });`,
    url,
    token,
    from,
  ]);
  socket.stdout.setEncoding('utf8');
  const [line] = (await once(socket.stdout, 'data')) as [string];
  expect(line.trim()).toBe('connected');
  return socket;
}

describe.skipIf(!peer)("item 28: strangers' requests never crowd out the GM's own", () => {
  it('7 addresses × 3 fill the places for strangers; this computer and a paired world still ask', async () => {
    const flood = await fromLan(
      relay,
      peer!,
      strangers.flatMap((from) =>
        [0, 1, 2].flatMap((index) => [pairRequest(from, `${from}-${index}`), keyRequest(from, `Bot ${index}`)]),
      ),
    );
    const pairAnswers = flood.filter((_, index) => index % 2 === 0);
    const keyAnswers = flood.filter((_, index) => index % 2 === 1);
    expect(statuses(pairAnswers)).toEqual([...Array(20).fill(201), 429]);
    expect(statuses(keyAnswers)).toEqual([...Array(20).fill(201), 429]);

    // The GM's own tools and Foundry tab on this computer are not strangers.
    const deck = await call(relay.baseUrl, 'POST', '/auth/key-request', { body: DECK_ASK });
    expect(deck.status, deck.text).toBe(201);
    const foundryTab = await call(relay.baseUrl, 'POST', '/auth/pair-request', {
      body: { worldId: 'home', worldTitle: 'Home' },
      headers: { origin: 'http://localhost:30000' },
    });
    expect(foundryTab.status, foundryTab.text).toBe(201);
    expect(keyAnswers.at(-1)!.json.error).toMatch(/20 key requests from other computers are already waiting/);

    // Nor is the machine a paired world is connected from, once it is.
    const [before] = await fromLan(relay, peer!, [keyRequest(worldMachine, 'Companion')]);
    expect(before!.status).toBe(429);
    world = await connectWorldFrom(worldMachine);
    const fromWorldMachine = await fromLan(relay, peer!, [
      keyRequest(worldMachine, 'Companion'),
      pairRequest(worldMachine, 'far-keep'),
    ]);
    expect(statuses(fromWorldMachine)).toEqual([201, 201]);
    expect((await relay.admin('GET', '/admin/key-requests')).body.keyRequests).toHaveLength(22);
  });

  it('"deny every request from this address" is one admin call: its requests go, new ones get 403, others stay', async () => {
    const denied = strangers[0]!;
    const answer = await relay.admin('POST', '/admin/denied-addresses', { address: denied });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ address: denied, pairRequestsDenied: 3, keyRequestsDenied: 3 });
    const status = (await relay.admin('GET', '/admin/status')).body;
    expect(status.deniedAddresses).toEqual([denied]);
    for (const request of [...status.pairRequests, ...status.keyRequests]) expect(request.source).not.toBe(denied);

    // The denied address is refused before its body is read; the places it held are free for others.
    const [again, pairAgain, freed] = await fromLan(relay, peer!, [
      keyRequest(denied, 'Bot again'),
      pairRequest(denied, 'again'),
      keyRequest(strangers[6]!, 'Bot 2'),
    ]);
    expect(again!.status).toBe(403);
    expect(again!.json.error).toMatch(/The GM denied every request from this address/);
    expect(pairAgain!.status).toBe(403);
    expect(freed!.status).toBe(201);

    // This computer cannot be denied as a whole: its requests are the GM's own.
    const loopback = await relay.admin('POST', '/admin/denied-addresses', { address: '127.0.0.1' });
    expect(loopback.status).toBe(400);
    expect(loopback.body.error).toMatch(/deny them one by one/);
    expect((await relay.admin('POST', '/admin/denied-addresses', { address: 'not-an-address' })).status).toBe(400);

    // Allowed again, the address may ask again.
    expect((await relay.admin('DELETE', `/admin/denied-addresses/${denied}`)).status).toBe(200);
    expect((await relay.admin('GET', '/admin/denied-addresses')).body.addresses).toEqual([]);
    const [allowed] = await fromLan(relay, peer!, [keyRequest(denied, 'Bot again')]);
    expect(allowed!.status).toBe(201);
  });
});
