// Issue 9, item 14: every world that connected was remembered, so 2,000 made-up client ids grew worlds.json to 6.8 MB,
// rewritten on every connection, and the GM could not forget a world. Now only paired worlds are remembered, the file
// is written only when what it holds changes, and DELETE /admin/worlds/{clientId} forgets a world.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRawWorld, RawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';

const FAKE_CONNECTIONS = 2000;
/** Below the relay's cap on sockets waiting to authenticate. */
const AT_ONCE = 16;

let harness: TestRelay;
let worldsFile: string;

beforeEach(async () => {
  harness = await startTestRelay({ capture: false });
  worldsFile = join(harness.dataDir, 'worlds.json');
});
afterEach(() => harness.close());

/** Pairs a world as the module's "Enter Code" box does, and returns its client id and connection token. */
async function pairWorld(): Promise<{ clientId: string; token: string }> {
  const { code } = (await harness.admin('POST', '/admin/pairing-codes', {})).body;
  const paired = await harness.api(undefined, 'POST', '/auth/pair', {
    body: { code, worldId: 'keep', worldTitle: 'The Keep' },
  });
  expect(paired.status).toBe(200);
  return paired.body;
}

/** worlds.json as it is now: its bytes, and its inode, which a rewrite (a new file renamed over it) changes. */
function worldsFileNow(): { text: string; inode: number } {
  return { text: readFileSync(worldsFile, 'utf8'), inode: statSync(worldsFile).ino };
}

/** A world with a made-up client id that authenticates with a token nobody issued. */
async function fakeWorld(index: number): Promise<void> {
  const world = new RawWorld(harness.wsUrl, {
    id: `fvtt_fake${index}`,
    worldId: `fake-${index}`,
    worldTitle: 'x'.repeat(1000),
  });
  await world.opened;
  world.send({ type: 'auth', token: randomBytes(32).toString('hex') });
  await world.closed;
}

async function knownWorldIds(): Promise<string[]> {
  return (await harness.admin('GET', '/admin/worlds')).body.worlds.map((world: { clientId: string }) => world.clientId);
}

describe('item 14: only paired worlds are remembered, and the GM can forget one', () => {
  it('2,000 connections with made-up ids and unpaired tokens, and a linked 2.x world, leave worlds.json as it was', async () => {
    const paired = await pairWorld();
    const before = worldsFileNow();

    for (let start = 0; start < FAKE_CONNECTIONS; start += AT_ONCE) {
      await Promise.all(Array.from({ length: AT_ONCE }, (_, offset) => fakeWorld(start + offset)));
    }
    // A 2.x world the GM linked with a key is admitted, but linking is not pairing: it is not remembered either.
    const link = await harness.admin('POST', '/admin/world-links', {
      clientId: 'foundry-linked2x',
      foundryUrl: 'http://localhost:30000',
    });
    expect(link.status).toBe(201);
    const linked = new RawWorld(
      harness.wsUrl,
      { id: 'foundry-linked2x', token: link.body.key, worldId: 'linked' },
      { path: '/' },
    );
    await linked.next((message) => message.type === 'auth-success');
    linked.close();
    await linked.closed;

    expect(worldsFileNow()).toEqual(before);
    expect(await knownWorldIds()).toEqual([paired.clientId]);
  });

  it('a paired world is remembered with what it says on connecting; reconnecting does not rewrite worlds.json', async () => {
    const paired = await pairWorld();
    const first = await connectRawWorld(harness.wsUrl, paired.clientId, paired.token);
    first.close();
    await first.closed;
    const afterFirst = worldsFileNow();
    expect(JSON.parse(afterFirst.text)).toEqual([
      expect.objectContaining({ clientId: paired.clientId, worldTitle: 'Raw World', systemId: 'dnd5e' }),
    ]);

    for (let again = 0; again < 5; again += 1) {
      const world = await connectRawWorld(harness.wsUrl, paired.clientId, paired.token);
      world.close();
      await world.closed;
    }

    expect(worldsFileNow()).toEqual(afterFirst);
    const [listed] = (await harness.admin('GET', '/admin/worlds')).body.worlds;
    expect(listed).toMatchObject({ clientId: paired.clientId, connected: false, lastSeen: expect.any(String) });
    // The last-seen time is stored when the relay stops.
    await harness.restart();
    expect(JSON.parse(readFileSync(worldsFile, 'utf8'))[0].lastSeen).toBe(listed.lastSeen);
  });

  it('the GM sets a world’s Foundry address, only as an http(s) URL, and tools do not see it', async () => {
    const paired = await pairWorld();
    const set = await harness.admin('PATCH', `/admin/worlds/${paired.clientId}`, {
      foundryUrl: 'http://localhost:30000',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      clientId: paired.clientId,
      foundryUrl: 'http://localhost:30000',
      connected: false,
    });
    expect(
      (await harness.admin('PATCH', `/admin/worlds/${paired.clientId}`, { foundryUrl: 'file:///etc/passwd' })).status,
    ).toBe(400);
    expect(
      (await harness.admin('PATCH', '/admin/worlds/fvtt_unknown', { foundryUrl: 'http://localhost:30000' })).status,
    ).toBe(404);
    // It is the GM's setting, not something tools with a key read.
    const tool = await harness.createKey({ scopes: ['clients:read'] });
    expect((await harness.api(tool, 'GET', '/clients')).body.clients[0]).not.toHaveProperty('foundryUrl');
    await harness.restart();
    expect((await harness.admin('GET', '/admin/worlds')).body.worlds[0].foundryUrl).toBe('http://localhost:30000');
  });

  it('the GM clears a world’s Foundry address with "" or null, and it stays cleared after a restart', async () => {
    const paired = await pairWorld();
    const path = `/admin/worlds/${paired.clientId}`;
    for (const cleared of ['', null]) {
      expect((await harness.admin('PATCH', path, { foundryUrl: 'http://localhost:30000' })).body.foundryUrl).toBe(
        'http://localhost:30000',
      );
      const clear = await harness.admin('PATCH', path, { foundryUrl: cleared });
      expect(clear.status, JSON.stringify(cleared)).toBe(200);
      expect(clear.body, JSON.stringify(cleared)).not.toHaveProperty('foundryUrl');
    }
    await harness.restart();
    expect((await harness.admin('GET', '/admin/worlds')).body.worlds[0]).not.toHaveProperty('foundryUrl');
    expect(JSON.parse(readFileSync(worldsFile, 'utf8'))[0]).not.toHaveProperty('foundryUrl');
  });

  it('DELETE /admin/worlds/{clientId} forgets the world, revokes its token and closes its socket', async () => {
    const paired = await pairWorld();
    const world = await connectRawWorld(harness.wsUrl, paired.clientId, paired.token);
    expect((await harness.admin('GET', '/admin/worlds')).body.worlds[0].connected).toBe(true);

    const forgotten = await harness.admin('DELETE', `/admin/worlds/${paired.clientId}`);

    expect(forgotten.status).toBe(200);
    expect((await world.closed).code).toBe(4002);
    expect(await knownWorldIds()).toEqual([]);
    expect(JSON.parse(readFileSync(worldsFile, 'utf8'))).toEqual([]);
    const tokens = (await harness.admin('GET', '/admin/connection-tokens')).body.connectionTokens;
    expect(tokens.filter((token: { clientId: string }) => token.clientId === paired.clientId)).toEqual([]);
    const returning = new RawWorld(harness.wsUrl, { id: paired.clientId });
    await returning.opened;
    returning.send({ type: 'auth', token: paired.token });
    expect((await returning.closed).code).toBe(1008);
    expect((await harness.admin('DELETE', `/admin/worlds/${paired.clientId}`)).status).toBe(404);
  });
});
