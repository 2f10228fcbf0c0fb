// Item 21: the Stream Deck plugin and Companion package downloads are the GM's, on this computer, from the relay's own
// page; they are read-only and send only the two build files, never another file of the build folders or the data
// directory, whatever path or planted link a caller tries.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { lanCallContext } from '../harness/from-address.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer, type LanPeer } from '../ui/lan-peer.ts';
import { checkAdmin } from '../../relay/routing/access.ts';

const PLUGIN_BYTES = 'PK the packed plugin';

let folder: string;
let relay: TestRelay;
let lanPeer: LanPeer | undefined;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tabletop-relay-downloads-'));
  const streamDeck = join(folder, 'streamdeck');
  const companion = join(folder, 'companion');
  mkdirSync(streamDeck);
  mkdirSync(companion);
  writeFileSync(join(streamDeck, 'org.tabletoprelay.deck.streamDeckPlugin'), PLUGIN_BYTES);
  [relay, lanPeer] = await Promise.all([
    startTestRelay({ integrationPackages: { streamDeck, companion } }),
    createLanPeer(),
  ]);
  // A link planted in the build folder under a package's name, pointing at the relay's admin token.
  symlinkSync(join(relay.dataDir, 'admin-token'), join(companion, 'tabletop-relay-9.9.9.tgz'));
}, 30_000);

afterAll(async () => {
  await relay?.close();
  await lanPeer?.close();
  rmSync(folder, { recursive: true, force: true });
});

const PATHS = ['/admin/downloads', '/admin/downloads/stream-deck', '/admin/downloads/companion'];

describe('item 21: the integration downloads', () => {
  it('answer nobody without the admin token or a session, nor with a wrong token', async () => {
    for (const path of PATHS) {
      const bare = await call(relay.baseUrl, 'GET', path);
      expect(bare.status, path).toBe(401);
      expect(bare.text).not.toContain(PLUGIN_BYTES);
      const guessed = await call(relay.baseUrl, 'GET', path, { headers: { authorization: 'Bearer guessed' } });
      expect(guessed.status, path).toBe(401);
    }
  });

  it('answer no other web page, even one that holds the token or rides the session cookie', async () => {
    const session = await fetch(relay.relay.createAdminLoginUrl(), { redirect: 'manual' });
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const pages: Record<string, string>[] = [
      { cookie, origin: 'http://127.0.0.1:8080' },
      { cookie, 'sec-fetch-site': 'same-site' },
      { authorization: `Bearer ${relay.relay.adminToken}`, origin: 'https://evil.example' },
    ];
    for (const headers of pages) {
      const answer = await call(relay.baseUrl, 'GET', '/admin/downloads/stream-deck', { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.text).not.toContain(PLUGIN_BYTES);
    }
    const ownPage = await call(relay.baseUrl, 'GET', '/admin/downloads/stream-deck', {
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(ownPage.text).toBe(PLUGIN_BYTES);
  });

  it('answer no other machine on the LAN, even with LAN access on and the admin token', async () => {
    if (lanPeer) {
      await relay.admin('PATCH', '/admin/settings', { lanAccess: true });
      await expect.poll(async () => (await relay.admin('GET', '/admin/status')).body.lan.enabled).toBe(true);
      for (const path of PATHS) {
        const fromLan = await lanPeer.get(`http://${lanPeer.hostAddress}:${relay.relay.port}${path}`, {
          authorization: `Bearer ${relay.relay.adminToken}`,
        });
        expect(fromLan.status, path).toBe(403);
        expect(fromLan.body).not.toContain(PLUGIN_BYTES);
      }
      await relay.admin('PATCH', '/admin/settings', { lanAccess: false });
    } else {
      // No network namespace could be made here: the admin check is asked with another machine's socket address.
      const lanCall = lanCallContext(relay.baseUrl, `Bearer ${relay.relay.adminToken}`);
      expect(() => checkAdmin({ method: 'GET', call: lanCall, hasQuery: false }, relay.relay.services)).toThrow(
        /only on this computer/,
      );
    }
  });

  it('send the two package files only: no path reaches another file, and a planted link is not followed', async () => {
    const token = relay.relay.adminToken;
    for (const path of [
      '/admin/downloads/..%2F..%2Fadmin-token',
      '/admin/downloads/%2e%2e%2fadmin-token',
      '/admin/downloads/stream-deck/..%2Fcompanion',
      '/admin/downloads/stream-deck%00',
      '/admin/downloads/org.tabletoprelay.deck.streamDeckPlugin',
      '/admin/downloads/tabletop-relay-9.9.9.tgz',
    ]) {
      const answer = await relay.admin('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain(token);
    }
    const planted = await relay.admin('GET', '/admin/downloads/companion');
    expect(planted.status).toBe(404);
    expect(planted.text).not.toContain(token);
    const listed = await relay.admin('GET', '/admin/downloads');
    expect(listed.body.packages.find((view: { name: string }) => view.name === 'companion').file).toBeUndefined();
  });

  it('change nothing: the downloads take no other method', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await relay.admin(method, '/admin/downloads/stream-deck', {});
      expect(answer.status, method).toBe(405);
    }
  });
});
