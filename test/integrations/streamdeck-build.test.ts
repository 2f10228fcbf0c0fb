import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { PLUGIN_UUID, validatePlugin } from '../../scripts/build-streamdeck.ts';
import { ACTION_NAMES } from '../../integrations/streamdeck/actions.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'streamdeck-build-'));
const pluginDir = join(out, `${PLUGIN_UUID}.sdPlugin`);
const pluginFile = join(out, `${PLUGIN_UUID}.streamDeckPlugin`);

interface ManifestAction {
  UUID: string;
  Icon: string;
  Controllers: string[];
  States: { Image: string }[];
  Encoder?: { layout: string; Icon: string };
  PropertyInspectorPath: string;
}

function manifest(): { UUID: string; CodePath: string; SDKVersion: number; Actions: ManifestAction[] } {
  return JSON.parse(readFileSync(join(pluginDir, 'manifest.json'), 'utf8'));
}

/** The entries of a zip file, by name, read from its central directory; each entry's bytes inflated on demand. */
function zipEntries(file: string): Map<string, () => Buffer> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let index = 0; index < count; index += 1) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const method = zip.readUInt16LE(offset + 10);
    const size = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const bytes = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(bytes) : Buffer.from(bytes);
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

beforeAll(async () => {
  // As CI runs it: the npm script, into a folder of its own so that other suites' plugin stays as it is.
  await promisify(execFile)('npm', ['run', '--silent', 'build:streamdeck', '--', '--out', out], { cwd: ROOT });
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run build:streamdeck', () => {
  it('builds the plugin folder: an SDK 2 manifest naming every action, each image it names, the bundle and the settings page', () => {
    const built = manifest();
    expect(built).toMatchObject({ UUID: 'org.tabletoprelay.deck', CodePath: 'bin/plugin.js', SDKVersion: 2 });
    expect(built.Actions.map((action) => action.UUID)).toEqual(ACTION_NAMES.map((name) => `${PLUGIN_UUID}.${name}`));
    const images = built.Actions.flatMap((action) => [
      action.Icon,
      ...action.States.map((state) => state.Image),
      ...(action.Encoder ? [action.Encoder.Icon] : []),
    ]);
    for (const image of images)
      expect(existsSync(join(pluginDir, `${image}.svg`)) || existsSync(join(pluginDir, `${image}.png`)), image).toBe(
        true,
      );
    const dials = built.Actions.filter((action) => action.Controllers.includes('Encoder')).map((action) => action.UUID);
    expect(dials).toEqual(['next-turn', 'previous-turn', 'playlist-volume'].map((name) => `${PLUGIN_UUID}.${name}`));
    expect(readFileSync(join(pluginDir, 'bin', 'package.json'), 'utf8')).toContain('"module"');
    const page = readFileSync(join(pluginDir, 'ui', 'settings.html'), 'utf8');
    expect(page).not.toMatch(/(src|href)="https?:/);
    expect(readFileSync(join(pluginDir, 'ui', 'settings.js'), 'utf8')).toContain('connectElgatoStreamDeckSocket');
  });

  it('packs the .streamDeckPlugin: a zip holding the same manifest and the bundle under the plugin folder', () => {
    const entries = zipEntries(pluginFile);
    const prefix = `${PLUGIN_UUID}.sdPlugin/`;
    expect(entries.get(`${prefix}manifest.json`)?.().toString('utf8')).toBe(
      readFileSync(join(pluginDir, 'manifest.json'), 'utf8'),
    );
    expect(
      entries
        .get(`${prefix}bin/plugin.js`)?.()
        .equals(readFileSync(join(pluginDir, 'bin', 'plugin.js'))),
    ).toBe(true);
    expect(entries.has(`${prefix}ui/settings.html`)).toBe(true);
  });

  it('the bundle starts under Node as the Stream Deck app starts it, and registers with the arguments it was given', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    const registered = new Promise<unknown>((resolve) =>
      server.on('connection', (socket) => socket.once('message', (data) => resolve(JSON.parse(String(data))))),
    );
    const info = {
      application: { font: '', language: 'en', platform: 'mac', platformVersion: '14.0', version: '6.5.0' },
      plugin: { uuid: PLUGIN_UUID, version: '0.1.0.0' },
      devicePixelRatio: 2,
      colors: {},
      devices: [],
    };
    const plugin = spawn(
      process.execPath,
      [
        'bin/plugin.js',
        '-port',
        String(port),
        '-pluginUUID',
        PLUGIN_UUID,
        '-registerEvent',
        'registerPlugin',
        '-info',
        JSON.stringify(info),
      ],
      { cwd: pluginDir, stdio: 'ignore' },
    );
    try {
      expect(await registered).toEqual({ event: 'registerPlugin', uuid: PLUGIN_UUID });
    } finally {
      plugin.kill();
      server.close();
    }
  });

  it('a broken manifest fails validation, offline, with what is wrong', async () => {
    const broken = join(mkdtempSync(join(tmpdir(), 'streamdeck-broken-')), `${PLUGIN_UUID}.sdPlugin`);
    try {
      cpSync(pluginDir, broken, { recursive: true });
      await expect(validatePlugin(broken)).resolves.toContain('Validation successful');
      const wrong = manifest();
      wrong.CodePath = 'bin/missing.js';
      wrong.Actions[0].Controllers = ['Joystick'];
      writeFileSync(join(broken, 'manifest.json'), JSON.stringify(wrong));
      await expect(validatePlugin(broken)).rejects.toThrow(/not valid[\s\S]*(missing\.js|Controllers)/);
    } finally {
      rmSync(join(broken, '..'), { recursive: true, force: true });
    }
  });
});
