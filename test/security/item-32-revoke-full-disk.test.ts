// Item 32: a GM must be able to revoke a leaked secret whatever state the disk is in. On a full or read-only data
// directory a revocation takes effect at once (the secret is refused from then on), the answer says what is wrong with
// the disk, and the write is retried until it is stored, or made at stop.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { RawWorld, connectRawWorld } from '../harness/raw-world.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { openSettings } from '../ui/browser-page.ts';
import { injectedWriter } from './short-writes.ts';
import { mountTinyDisk, type TinyDisk } from './tiny-disk.ts';

// The injected failing writer of item 02 (short-writes.ts), for where no tmpfs can be mounted.
vi.mock('node:fs', async (importOriginal) =>
  (await import('./short-writes.ts')).withShortWrites(await importOriginal<typeof import('node:fs')>()),
);

const CLIENT_ID = 'fvtt_revokeworld0001';
/** The relay retries after 1 s, then 2 s…; the disk is freed at once, so the first retry or the second stores it. */
const STORED_WITHIN_MS = 5_000;

let harness: TestRelay | undefined;
let disk: TinyDisk | undefined;
let plainDir: string | undefined;
let browser: Browser | undefined;

afterEach(async () => {
  injectedWriter.shortWrites = false;
  disk?.empty();
  disk?.writable();
  await harness?.close();
  disk?.unmount();
  if (plainDir) rmSync(plainDir, { recursive: true, force: true });
  harness = disk = plainDir = undefined;
  vi.restoreAllMocks();
});

afterAll(() => browser?.close());

/** A relay on a real tmpfs when one can be mounted (root, as in CI), else on a plain directory with the injected writer. */
async function relayOnSmallDisk(): Promise<{ relay: TestRelay; dataDir: string; fill(): void; free(): void }> {
  const mounted = mountTinyDisk(512);
  if ('reason' in mounted) {
    plainDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-revoke-'));
    harness = await startTestRelay({ dataDir: plainDir, capture: false });
    return {
      relay: harness,
      dataDir: plainDir,
      fill: () => (injectedWriter.shortWrites = true),
      free: () => (injectedWriter.shortWrites = false),
    };
  }
  disk = mounted;
  harness = await startTestRelay({ dataDir: mounted.dir, capture: false });
  return { relay: harness, dataDir: mounted.dir, fill: () => mounted.fill(0), free: () => mounted.empty() };
}

async function makeKey(relay: TestRelay, name: string): Promise<{ id: string; key: string }> {
  const answer = await relay.admin('POST', '/admin/keys', { name, scopes: ['clients:read'] });
  expect(answer.status).toBe(201);
  return { id: answer.body.id, key: answer.body.key };
}

const stored = (dataDir: string, file: string) => readFileSync(join(dataDir, file), 'utf8');

async function eventually(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe('item 32: revoking works on a full or read-only disk', () => {
  it('on a full disk a revoked key is refused at once, the answer says the disk is full, and it is stored once there is room', async () => {
    const { relay, dataDir, fill, free } = await relayOnSmallDisk();
    const leaked = await makeKey(relay, 'leaked');
    const kept = await makeKey(relay, 'kept');
    vi.spyOn(console, 'error').mockImplementation(() => {});

    fill();
    const revoke = await relay.admin('DELETE', `/admin/keys/${leaked.id}`);
    expect(revoke.status).toBe(202);
    expect(revoke.body).toMatchObject({ revoked: true, stored: false });
    expect(revoke.body.warning).toMatch(/^This took effect at once, but the disk is full, so it is not stored yet/);
    expect(revoke.body.warning).toMatch(/restarting the relay before then would undo this/);

    expect((await relay.api(leaked.key, 'GET', '/clients')).status).toBe(401);
    expect((await relay.api(kept.key, 'GET', '/clients')).status).toBe(200);
    const listed = (await relay.admin('GET', '/admin/keys')).body.keys.map((key: { id: string }) => key.id);
    expect(listed).toEqual([kept.id]);
    expect(stored(dataDir, 'api-keys.json')).toContain(leaked.id);
    // Anything else that needs the disk is still refused, and nothing else changed.
    expect((await relay.admin('POST', '/admin/keys', { name: 'new', scopes: ['clients:read'] })).status).toBe(507);

    free();
    expect(await eventually(() => !stored(dataDir, 'api-keys.json').includes(leaked.id), STORED_WITHIN_MS)).toBe(true);
    expect(stored(dataDir, 'api-keys.json')).toContain(kept.id);
    await relay.restart();
    expect((await relay.api(leaked.key, 'GET', '/clients')).status).toBe(401);
    expect((await relay.api(kept.key, 'GET', '/clients')).status).toBe(200);
  });

  it('on a read-only disk the answer says so, and stopping stores the revocation once the disk is writable', async (context) => {
    const mounted = mountTinyDisk(512);
    if ('reason' in mounted) return context.skip(mounted.reason);
    disk = mounted;
    const relay = (harness = await startTestRelay({ dataDir: mounted.dir, capture: false }));
    const leaked = await makeKey(relay, 'leaked');
    vi.spyOn(console, 'error').mockImplementation(() => {});

    mounted.readOnly();
    const revoke = await relay.admin('DELETE', `/admin/keys/${leaked.id}`);
    expect(revoke.status).toBe(202);
    expect(revoke.body.warning).toMatch(/could not write its data directory \(EROFS\), so it is not stored yet/);
    expect(revoke.body.warning).toMatch(/make the directory writable again/);
    expect((await relay.api(leaked.key, 'GET', '/clients')).status).toBe(401);

    mounted.writable();
    expect(stored(mounted.dir, 'api-keys.json')).toContain(leaked.id);
    await relay.restart();
    expect(stored(mounted.dir, 'api-keys.json')).not.toContain(leaked.id);
    expect((await relay.api(leaked.key, 'GET', '/clients')).status).toBe(401);
  });

  it('overlay links, invitations and a forgotten world (its connection tokens) are revoked the same way', async () => {
    const { relay, dataDir, fill, free } = await relayOnSmallDisk();
    const services = relay.relay.services;
    services.knownWorlds.remember({ clientId: CLIENT_ID, worldTitle: 'The Leaky Keep' });
    const { token } = services.connectionTokens.issue(CLIENT_ID, 'The Leaky Keep', 'pairing');
    const made = await relay.admin('POST', '/admin/overlay-links', { overlay: 'dice', clientId: CLIENT_ID });
    expect(made.status).toBe(201);
    const { link, record } = made.body as { link: string; record: { id: string } };
    const invitation = services.invitations.create({ clientId: CLIENT_ID, userId: 'u1', userName: 'Bob', name: 'Bob' });
    const overlayState = () => relay.api(undefined, 'GET', '/overlays/dice/state', { query: { link } });
    // Let in, and told that its world is offline (a connected one would be asked for its dice).
    expect((await overlayState()).status).toBe(503);
    const world = await connectRawWorld(relay.wsUrl, CLIENT_ID, token);
    vi.spyOn(console, 'error').mockImplementation(() => {});

    fill();
    const answers = [
      await relay.admin('DELETE', `/admin/overlay-links/${record.id}`),
      await relay.admin('DELETE', `/admin/invitations/${invitation.record.id}`),
      await relay.admin('DELETE', `/admin/worlds/${CLIENT_ID}`),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body.warning).toMatch(/^This took effect at once, but the disk is full/);
    }
    expect((await overlayState()).status).toBe(401);
    const exchange = await relay.api(undefined, 'POST', '/auth/invitation', { body: { secret: invitation.secret } });
    expect(exchange.status).toBe(404);
    expect((await world.closed).code).toBe(4002);
    expect(await worldAdmitted(relay, token)).toBe(false);
    expect((await relay.admin('GET', '/admin/worlds')).body.worlds).toEqual([]);

    free();
    await relay.restart();
    for (const file of ['overlay-links.json', 'invitations.json', 'connection-tokens.json', 'worlds.json'])
      expect(JSON.parse(stored(dataDir, file)), file).toEqual([]);
    expect((await overlayState()).status).toBe(401);
    expect(await worldAdmitted(relay, token)).toBe(false);
  });

  it('the settings UI says that the key no longer works and what to do about the disk', async () => {
    await buildRenderer();
    browser = await launchChromium();
    const { relay, fill } = await relayOnSmallDisk();
    const leaked = await makeKey(relay, 'leaked');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const page = await openSettings(browser, relay.relay.createAdminLoginUrl());
    await page.evaluate(() => (location.hash = '#keys'));
    await page.waitForSelector('button[aria-label="Revoke leaked"]');

    fill();
    await page.click('button[aria-label="Revoke leaked"]');
    await page.waitForSelector('dialog[open] button[value="confirm"]');
    await page.click('dialog[open] button[value="confirm"]');
    const warning = await page.waitForSelector('.toast-warning');
    const shown = await warning!.evaluate((toast) => toast.textContent);
    expect(shown).toMatch(/^Key "leaked" revoked\. This took effect at once, but the disk is full/);
    expect(shown).toMatch(/free some space on the disk/);
    expect((await relay.api(leaked.key, 'GET', '/clients')).status).toBe(401);
  }, 30_000);
});

/** Whether /relay lets a 3.x world in with this token. */
async function worldAdmitted(relay: TestRelay, token: string): Promise<boolean> {
  const world = new RawWorld(relay.wsUrl, {
    id: CLIENT_ID,
    worldId: 'leaky',
    worldTitle: 'The Leaky Keep',
    foundryVersion: '13.348',
    systemId: 'dnd5e',
  });
  await world.opened;
  world.send({ type: 'auth', token });
  const outcome = await Promise.race([
    world
      .next((message) => message.type === 'auth-success')
      .then(
        () => true,
        () => false,
      ),
    world.closed.then(() => false),
  ]);
  world.close();
  return outcome;
}
