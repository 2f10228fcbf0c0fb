import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, type SandboxLink } from '../../sandbox/index.ts';
import { diskFileStore } from '../../sandbox/files/disk-store.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { uuidOf, type WorldHarness } from '../harness/world.ts';

const TWENTY_MB = 20 * 1024 * 1024;
let relay: TestRelay;
let link: SandboxLink;
let key: string;
let rootDir: string;
let filesDir: string;

beforeAll(async () => {
  relay = await startTestRelay({ settings: { requestsPerMinute: 0 } });
  rootDir = mkdtempSync(join(tmpdir(), 'tabletop-relay-files-'));
  filesDir = join(rootDir, 'world-data');
  mkdirSync(filesDir);
  const world = createSandboxWorld({ seed: 5, files: diskFileStore(filesDir) });
  const { token } = relay.relay.services.connectionTokens.issue('fvtt_files', 'files', 'demo');
  link = await connectSandbox(world, { relayUrl: relay.wsUrl, clientId: 'fvtt_files', token });
  key = await relay.createKey();
});
afterAll(async () => {
  await link.close();
  await relay.close();
  rmSync(rootDir, { recursive: true, force: true });
});

function randomBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 12345;
  for (let index = 0; index < length; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

async function download(path: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${relay.baseUrl}/download?path=${encodeURIComponent(path)}`, {
    headers: { 'x-api-key': key },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

describe('File System', () => {
  it('uploads 20 MB as a raw body and downloads identical bytes', async () => {
    const bytes = randomBytes(TWENTY_MB);
    const upload = await fetch(`${relay.baseUrl}/upload?path=maps&filename=big.webp`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'image/webp' },
      body: new Uint8Array(bytes),
    });
    expect(upload.status).toBe(200);
    expect(await upload.json()).toMatchObject({ success: true });
    const { status, bytes: back, headers } = await download('maps/big.webp');
    expect(status).toBe(200);
    expect(headers.get('content-disposition')).toBe('attachment; filename="big.webp"');
    expect(back.length).toBe(bytes.length);
    expect(back.equals(bytes)).toBe(true);
  }, 60_000);

  it('uploads 20 MB as a base64 data URL and downloads it back as base64 JSON', async () => {
    const bytes = randomBytes(TWENTY_MB).reverse();
    const fileData = `data:image/png;base64,${bytes.toString('base64')}`;
    const upload = await relay.api(key, 'POST', '/upload', {
      body: { path: 'tokens', filename: 'hero.png', fileData },
    });
    expect(upload.status).toBe(200);
    const answer = await relay.api(key, 'GET', '/download', { query: { path: 'tokens/hero.png', format: 'base64' } });
    expect(answer.status).toBe(200);
    expect(answer.body.fileData).toBe(fileData);
  }, 60_000);

  it('uploads bytes sent as binaryData, and lists the folder', async () => {
    const upload = await relay.api(key, 'POST', '/upload', {
      body: { path: 'icons', filename: 'dot.png', binaryData: [137, 80, 78, 71] },
    });
    expect(upload.status).toBe(200);
    expect((await download('icons/dot.png')).bytes).toEqual(Buffer.from([137, 80, 78, 71]));
    const listing = await relay.api(key, 'GET', '/file-system', { query: { path: 'icons' } });
    expect(listing.body.results.map((entry: { name: string }) => entry.name)).toEqual(['dot.png']);
  });

  it.each([
    '../escape.png',
    '/etc/passwd',
    '..%2f..%2fescape.png',
    '%252e%252e/escape.png',
    'maps\\..\\..\\escape.png',
    'maps/%00.png',
  ])('refuses the path %s with a 400 and touches nothing', async (path) => {
    const before = readdirSync(filesDir, { recursive: true });
    const upload = await relay.api(key, 'POST', '/upload', { body: { path, filename: 'escape.png', binaryData: [1] } });
    expect(upload.status).toBe(400);
    expect(upload.body.error).toMatch(/Refused path/);
    const fetched = await relay.api(key, 'GET', '/download', { query: { path: `${path}/x.png` } });
    expect(fetched.status).toBe(400);
    expect(readdirSync(rootDir)).toEqual(['world-data']);
    expect(readdirSync(filesDir, { recursive: true })).toEqual(before);
  });

  it('needs exactly one way of sending the file', async () => {
    const none = await relay.api(key, 'POST', '/upload', { body: { path: 'a', filename: 'b.png' } });
    expect(none.body).toEqual({
      error: "Send the file as exactly one of 'fileData', 'binaryData' or the raw request body",
    });
    const notDataUrl = await relay.api(key, 'POST', '/upload', {
      body: { path: 'a', filename: 'b.png', fileData: 'hello' },
    });
    expect(notDataUrl.body).toEqual({ error: "'fileData' must be a base64 data URL (data:<type>;base64,…)" });
  });
});

describe('D&D 5e', () => {
  it('answers in a dnd5e world: actor details, a skill check, a short rest', async () => {
    const harness = {
      get: (path: string, query?: Record<string, string>) => relay.api(key, 'GET', path, { query }),
    } as unknown as WorldHarness;
    const thorin = await uuidOf(harness, 'Thorin Ironfoot');
    const details = await relay.api(key, 'GET', '/dnd5e/get-actor-details', {
      query: { actorUuid: thorin, details: 'abilities,skills' },
    });
    expect(details.status).toBe(200);
    expect(details.body.type).toBe('get-actor-details-result');
    expect(details.body.data.abilities).toBeDefined();
    const check = await relay.api(key, 'POST', '/dnd5e/skill-check', { body: { actorUuid: thorin, skill: 'ath' } });
    expect(check.body.data).toMatchObject({ actorUuid: thorin, skill: 'ath' });
    expect(typeof check.body.data.total).toBe('number');
    expect(
      (await relay.api(key, 'POST', '/dnd5e/ability-save', { body: { actorUuid: thorin, ability: 'luck' } })).body
        .error,
    ).toBe("Invalid ability 'luck'. Valid abilities: str, dex, con, int, wis, cha");
    expect((await relay.api(key, 'POST', '/dnd5e/short-rest', { body: {} })).body).toEqual({
      error: "Either 'actorUuid' or 'selected' is required",
    });
    expect((await relay.api(key, 'POST', '/dnd5e/skill-check', { body: { skill: 'ath' } })).body).toEqual({
      error: "Either 'actorUuid' or 'actorName' is required",
    });
  });

  it('answers at once, with a clear error, in a world of another system', async () => {
    const other = createSandboxWorld({
      seed: 6,
      worldId: 'pf2e-world',
      system: { id: 'pf2e', title: 'Pathfinder Second Edition', version: '6.0.0' },
    });
    const { token } = relay.relay.services.connectionTokens.issue('fvtt_pf2e', 'pf2e', 'demo');
    const otherLink = await connectSandbox(other, { relayUrl: relay.wsUrl, clientId: 'fvtt_pf2e', token });
    try {
      const started = Date.now();
      const answer = await relay.api(key, 'POST', '/dnd5e/long-rest', {
        body: { selected: true },
        query: { clientId: 'fvtt_pf2e' },
      });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(
        'The dnd5e routes are available only in D&D 5e worlds; this world runs Pathfinder Second Edition',
      );
    } finally {
      await otherLink.close();
    }
  });
});
