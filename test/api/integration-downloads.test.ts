// The Stream Deck plugin and the Companion module package, downloaded through the admin API from the folders the builds
// write to: attachments under their own names, the newest build when there are several, a 404 that says how to build.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import type { IntegrationPackageView } from '../../contracts/integration-packages.ts';

let folder: string;
let streamDeck: string;
let companion: string;
let relay: TestRelay;
let bare: TestRelay;

const PLUGIN = 'org.tabletoprelay.deck.streamDeckPlugin';
const pluginBytes = Buffer.from('PK\x03\x04 a packed Stream Deck plugin');

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'tabletop-relay-downloads-'));
  streamDeck = join(folder, 'streamdeck');
  companion = join(folder, 'companion');
  mkdirSync(streamDeck);
  mkdirSync(companion);
  [relay, bare] = await Promise.all([
    startTestRelay({ integrationPackages: { streamDeck, companion } }),
    startTestRelay(),
  ]);
});

afterAll(async () => {
  await Promise.all([relay?.close(), bare?.close()]);
  rmSync(folder, { recursive: true, force: true });
});

async function packages(on: TestRelay = relay): Promise<Record<string, IntegrationPackageView>> {
  const answer = await on.admin('GET', '/admin/downloads');
  expect(answer.status).toBe(200);
  const list = answer.body.packages as IntegrationPackageView[];
  return Object.fromEntries(list.map((view) => [view.name, view]));
}

describe('GET /admin/downloads', () => {
  it('says neither was built yet, and how to build each; the downloads answer 404 with the command', async () => {
    const views = await packages();
    expect(views['stream-deck']).toEqual({
      name: 'stream-deck',
      title: 'Elgato Stream Deck plugin',
      path: '/admin/downloads/stream-deck',
      buildCommand: 'npm run build:streamdeck',
    });
    expect(views.companion).toMatchObject({
      path: '/admin/downloads/companion',
      buildCommand: 'npm run build:companion',
    });
    expect(views.companion!.file).toBeUndefined();

    const plugin = await relay.admin('GET', '/admin/downloads/stream-deck');
    expect(plugin.status).toBe(404);
    expect(plugin.body.error).toContain('Build it with npm run build:streamdeck');
    const module = await relay.admin('GET', '/admin/downloads/companion');
    expect(module.status).toBe(404);
    expect(module.body.error).toContain('Build it with npm run build:companion');
  });

  it('sends the plugin as an attachment named as Elgato packs it, never the unpacked plugin folder', async () => {
    mkdirSync(join(streamDeck, 'org.tabletoprelay.deck.sdPlugin'));
    writeFileSync(join(streamDeck, 'org.tabletoprelay.deck.sdPlugin', 'manifest.json'), '{}');
    writeFileSync(join(streamDeck, PLUGIN), pluginBytes);

    expect((await packages())['stream-deck']!.file).toEqual({
      name: PLUGIN,
      bytes: pluginBytes.length,
      builtAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const answer = await fetch(`${relay.baseUrl}/admin/downloads/stream-deck`, {
      headers: { authorization: `Bearer ${relay.relay.adminToken}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${PLUGIN}"`);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(pluginBytes);
  });

  it('sends the newest Companion package under its own name, and nothing but a .tgz from that folder', async () => {
    writeFileSync(join(companion, 'tabletop-relay-0.1.0.tgz'), 'older build');
    utimesSync(join(companion, 'tabletop-relay-0.1.0.tgz'), new Date('2026-01-01'), new Date('2026-01-01'));
    writeFileSync(join(companion, 'tabletop-relay-0.2.0.tgz'), 'newer build');
    writeFileSync(join(companion, 'notes.txt'), 'not a package');

    expect((await packages()).companion!.file).toMatchObject({ name: 'tabletop-relay-0.2.0.tgz', bytes: 11 });
    const answer = await fetch(`${relay.baseUrl}/admin/downloads/companion`, {
      headers: { authorization: `Bearer ${relay.relay.adminToken}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/gzip');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="tabletop-relay-0.2.0.tgz"');
    expect(await answer.text()).toBe('newer build');
  });

  it('reads the file at each download, so a rebuild shows without a restart', async () => {
    writeFileSync(join(streamDeck, PLUGIN), 'rebuilt');
    const answer = await relay.admin('GET', '/admin/downloads/stream-deck');
    expect(answer.text).toBe('rebuilt');
  });

  it('answers 404 with the build command on a relay given no build folders', async () => {
    const views = await packages(bare);
    expect(Object.values(views).map((view) => view.file)).toEqual([undefined, undefined]);
    const answer = await bare.admin('GET', '/admin/downloads/stream-deck');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe(
      'The Elgato Stream Deck plugin was not built. Build it with npm run build:streamdeck in the project folder',
    );
  });

  it('is in the API documentation under Admin, with what each download produces', async () => {
    const openapi = (await relay.api(undefined, 'GET', '/openapi.json')).body;
    const operation = openapi.paths['/admin/downloads/stream-deck'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['application/octet-stream']);
    expect(openapi.paths['/admin/downloads/companion'].get.responses['200'].content).toHaveProperty('application/gzip');
  });
});
