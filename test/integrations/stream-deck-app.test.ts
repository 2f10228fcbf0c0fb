// The stand-in of the Stream Deck app, proven against a tiny plugin on Elgato's own SDK: if the SDK understands what
// the stand-in sends and the stand-in keeps what the SDK sends, the stand-in speaks the published protocol.
import { cpSync, mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamDeckApp } from './stream-deck-app/stream-deck-app.ts';
import { buildTinyPlugin, TINY_PLUGIN_UUID } from './stream-deck-app/tiny-plugin.ts';

const action = (name: string) => `${TINY_PLUGIN_UUID}.${name}`;
let pluginDir: string;
let app: StreamDeckApp;

beforeAll(async () => {
  pluginDir = await buildTinyPlugin();
  app = await StreamDeckApp.start({ pluginDir, globalSettings: { presses: 40 } });
});
afterAll(() => app?.stop());

describe('the Stream Deck app stand-in', () => {
  it("registers the plugin, and the SDK reads the devices from -info and a key's place from willAppear", async () => {
    const key = app.appear(action('counter'), { count: 3 });
    await app.waitFor(() => app.title(key.context), { what: 'a title' });
    expect(app.title(key.context)).toBe(`Stream Deck ${key.coordinates.column},${key.coordinates.row} 3`);
    expect(app.crashes).toEqual([]);
  });

  it('stores the settings a press writes, answers getGlobalSettings and keeps what setGlobalSettings wrote', async () => {
    const key = app.appear(action('counter'), { count: 7 });
    app.press(key.context);
    await app.waitFor(() => app.title(key.context) === '8', { what: 'the count' });
    expect(key.settings).toEqual({ count: 8 });
    await app.waitFor(() => app.globalSettings.presses === 41, { what: 'the global settings' });
    const gets = app.commands.filter((recorded) => recorded.command.event === 'getGlobalSettings');
    expect(gets.at(-1)!.command.context).toBe(TINY_PLUGIN_UUID);
  });

  it("tells the plugin of the property inspector's changes to action and global settings", async () => {
    const key = app.appear(action('counter'));
    app.changeSettings(key.context, { count: 12 });
    await app.waitFor(() => app.title(key.context) === 'set 12', { what: 'the new settings' });
    app.changeGlobalSettings({ word: 'hello' });
    await app.waitFor(() => app.title(key.context) === 'global hello', { what: 'the new global settings' });
    expect(app.globalSettings).toEqual({ word: 'hello' });
  });

  it('moves a two-state key to its other state on release, unless the manifest disables it', async () => {
    const toggle = app.appear(action('toggle'));
    app.press(toggle.context);
    await app.waitFor(() => app.title(toggle.context), { what: "the toggle's title" });
    expect(app.title(toggle.context)).toBe('was 0');
    expect(toggle.state).toBe(1);
    const latch = app.appear(action('latch'));
    app.keyUp(latch.context);
    expect(latch.state).toBe(0);
    app.keyDown(latch.context);
    await app.waitFor(() => latch.state === 1 && app.image(latch.context), { what: 'setState and setImage' });
    expect(app.image(latch.context)).toMatch(/^data:image\/svg\+xml,/);
  });

  it('drives a dial of the Stream Deck +: rotate, press and touch, shown on the touch strip', async () => {
    const dial = app.appear(action('dial'), {}, 'Encoder');
    expect(app.devices.find((device) => device.id === dial.device)!.name).toBe('Stream Deck +');
    expect(dial.coordinates).toEqual({ column: 0, row: 0 });
    await app.waitFor(() => app.commandsFor(dial.context, 'setFeedbackLayout').length, { what: 'the layout' });
    app.rotate(dial.context, -3);
    await app.waitFor(() => dial.feedback.value === -3, { what: 'the feedback' });
    expect(dial.feedback.title).toBe('free');
    app.press(dial.context);
    await app.waitFor(() => dial.feedback.title === 'down', { what: 'dialDown' });
    app.touchTap(dial.context, [20, 40]);
    await app.waitFor(() => dial.alerts.length === 1, { what: 'showAlert' });
    expect(dial.feedback).toMatchObject({ value: -3, title: 'tap 20,40' });
    expect(() => app.appear(action('counter'), {}, 'Encoder')).toThrow(/does not support Encoder/);
  });

  it('opens the URLs the plugin asks for, and tells it the computer woke up', async () => {
    const key = app.appear(action('counter'), { url: 'http://127.0.0.1:9/admin/' });
    app.press(key.context);
    await app.waitFor(() => app.openedUrls.includes('http://127.0.0.1:9/admin/'), { what: 'openUrl' });
    app.systemDidWakeUp();
    await app.waitFor(() => app.title(key.context) === 'awake', { what: 'systemDidWakeUp' });
  });

  it("sends each event with the documented fields: a key's, and a dial's own events without state", () => {
    const sent = (event: string, controller: string) =>
      app.events.find(
        ({ message }) =>
          message.event === event && (message.payload as { controller?: string }).controller === controller,
      )!.message;
    const identity = { action: expect.any(String), context: expect.stringMatching(/^[0-9A-F]{32}$/) };
    const device = expect.stringMatching(/^[0-9A-F]{32}$/);
    const place = { coordinates: { column: expect.any(Number), row: expect.any(Number) }, resources: {} };
    expect(sent('willAppear', 'Keypad')).toEqual({
      event: 'willAppear',
      ...identity,
      device,
      payload: { controller: 'Keypad', isInMultiAction: false, settings: expect.any(Object), ...place },
    });
    const toggled = app.events.find(({ message }) => message.event === 'keyUp' && message.action === action('toggle'));
    expect(toggled!.message.payload).toMatchObject({ isInMultiAction: false, state: 0 });
    expect(sent('willAppear', 'Encoder')).toEqual({
      event: 'willAppear',
      ...identity,
      device,
      payload: { controller: 'Encoder', isInMultiAction: false, settings: {}, ...place },
    });
    expect(sent('dialRotate', 'Encoder')).toEqual({
      event: 'dialRotate',
      ...identity,
      device,
      payload: { controller: 'Encoder', settings: {}, ...place, ticks: -3, pressed: false },
    });
    expect(sent('touchTap', 'Encoder').payload).toEqual({
      controller: 'Encoder',
      settings: {},
      ...place,
      tapPos: [20, 40],
      hold: false,
    });
    const connected = app.events.filter(({ message }) => message.event === 'deviceDidConnect');
    expect(connected.map(({ message }) => message.deviceInfo)).toEqual([
      { name: 'Stream Deck', type: 0, size: { columns: 5, rows: 3 } },
      { name: 'Stream Deck +', type: 7, size: { columns: 4, rows: 2 } },
    ]);
  });

  it('found nothing undocumented in what the SDK sent', () => {
    expect(app.rejected).toEqual([]);
    expect(app.crashes).toEqual([]);
  });

  it('refuses a plugin folder the app would not load', async () => {
    const misnamed = join(mkdtempSync(join(tmpdir(), 'stream-deck-misnamed-')), 'plugin.sdPlugin');
    cpSync(pluginDir, misnamed, { recursive: true });
    await expect(StreamDeckApp.start({ pluginDir: misnamed })).rejects.toThrow(/must be named/);
    const oldNode = join(mkdtempSync(join(tmpdir(), 'stream-deck-node-')), `${TINY_PLUGIN_UUID}.sdPlugin`);
    cpSync(pluginDir, oldNode, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(oldNode, 'manifest.json'), 'utf8'));
    writeFileSync(join(oldNode, 'manifest.json'), JSON.stringify({ ...manifest, Software: { MinimumVersion: '6.5' } }));
    await expect(StreamDeckApp.start({ pluginDir: oldNode })).rejects.toThrow(/Node.js 24 needs/);
  });
});
