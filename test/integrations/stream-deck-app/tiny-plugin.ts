// A tiny plugin on Elgato's SDK (@elgato/streamdeck), built as the SDK's own template builds one (an ES module bundle in
// `<UUID>.sdPlugin/bin/plugin.js` beside a `{"type":"module"}` package.json): it exercises each part of the protocol
// the stand-in of the Stream Deck app must get right, so the stand-in is proven before it judges the real plugin.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export const TINY_PLUGIN_UUID = 'org.tabletoprelay.tiny';
const ROOT = join(import.meta.dirname, '..', '..', '..');

const MANIFEST = {
  $schema: 'https://schemas.elgato.com/streamdeck/plugins/manifest.json',
  UUID: TINY_PLUGIN_UUID,
  Name: 'Tiny',
  Author: 'Tabletop Relay',
  Description: 'Exercises the Stream Deck protocol in tests',
  Icon: 'imgs/plugin',
  Version: '0.1.0.0',
  SDKVersion: 2,
  CodePath: 'bin/plugin.js',
  Nodejs: { Version: '24' },
  OS: [
    { Platform: 'mac', MinimumVersion: '13' },
    { Platform: 'windows', MinimumVersion: '10' },
  ],
  Software: { MinimumVersion: '7.1' },
  Actions: [
    { UUID: `${TINY_PLUGIN_UUID}.counter`, Name: 'Counter', Icon: 'imgs/a', States: [{ Image: 'imgs/a' }] },
    {
      UUID: `${TINY_PLUGIN_UUID}.toggle`,
      Name: 'Toggle',
      Icon: 'imgs/a',
      States: [{ Image: 'imgs/off' }, { Image: 'imgs/on' }],
    },
    {
      UUID: `${TINY_PLUGIN_UUID}.latch`,
      Name: 'Latch',
      Icon: 'imgs/a',
      DisableAutomaticStates: true,
      States: [{ Image: 'imgs/off' }, { Image: 'imgs/on' }],
    },
    {
      UUID: `${TINY_PLUGIN_UUID}.dial`,
      Name: 'Dial',
      Icon: 'imgs/a',
      Controllers: ['Encoder'],
      Encoder: { layout: '$B1' },
      States: [{ Image: 'imgs/a' }],
    },
  ],
};

/** Each action does one visible thing per event, so a test can tell the stand-in delivered the event as documented. */
const SOURCE = `
import streamDeck, { SingletonAction } from '@elgato/streamdeck';

class Counter extends SingletonAction {
  manifestId = '${TINY_PLUGIN_UUID}.counter';
  async onWillAppear(ev) {
    const { column, row } = ev.payload.coordinates;
    await ev.action.setTitle(\`\${ev.action.device.name} \${column},\${row} \${ev.payload.settings.count ?? 0}\`);
  }
  async onKeyDown(ev) {
    const count = (ev.payload.settings.count ?? 0) + 1;
    await ev.action.setSettings({ ...ev.payload.settings, count });
    await ev.action.setTitle(String(count));
    const global = await streamDeck.settings.getGlobalSettings();
    await streamDeck.settings.setGlobalSettings({ ...global, presses: (global.presses ?? 0) + 1 });
    if (ev.payload.settings.url) await streamDeck.system.openUrl(ev.payload.settings.url);
  }
  async onDidReceiveSettings(ev) {
    await ev.action.setTitle(\`set \${ev.payload.settings.count}\`);
  }
}

class Toggle extends SingletonAction {
  manifestId = '${TINY_PLUGIN_UUID}.toggle';
  async onKeyUp(ev) {
    await ev.action.setTitle(\`was \${ev.payload.state}\`);
  }
}

class Latch extends SingletonAction {
  manifestId = '${TINY_PLUGIN_UUID}.latch';
  async onKeyDown(ev) {
    await ev.action.setState(1);
    await ev.action.setImage('data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>');
  }
}

class Dial extends SingletonAction {
  manifestId = '${TINY_PLUGIN_UUID}.dial';
  async onWillAppear(ev) {
    await ev.action.setFeedbackLayout('$B1');
  }
  async onDialRotate(ev) {
    await ev.action.setFeedback({ value: ev.payload.ticks, title: ev.payload.pressed ? 'pressed' : 'free' });
  }
  async onDialDown(ev) {
    await ev.action.setFeedback({ title: 'down' });
  }
  async onTouchTap(ev) {
    await ev.action.setFeedback({ title: \`tap \${ev.payload.tapPos.join(',')}\` });
    await ev.action.showAlert();
  }
}

streamDeck.settings.onDidReceiveGlobalSettings((ev) => {
  if (ev.settings.word === undefined) return;
  for (const action of streamDeck.actions) if (action.isKey()) action.setTitle(\`global \${ev.settings.word}\`);
});
streamDeck.system.onSystemDidWakeUp(async () => {
  for (const action of streamDeck.actions) if (action.isKey()) await action.setTitle('awake');
});

for (const action of [new Counter(), new Toggle(), new Latch(), new Dial()]) streamDeck.actions.registerAction(action);
streamDeck.connect();
`;

/** Builds the tiny plugin into a fresh temporary folder and returns its `.sdPlugin` path. */
export async function buildTinyPlugin(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'stream-deck-tiny-')), `${TINY_PLUGIN_UUID}.sdPlugin`);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(MANIFEST, null, 2));
  writeFileSync(join(dir, 'bin', 'package.json'), '{ "type": "module" }\n');
  await build({
    stdin: { contents: SOURCE, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // ws, which the SDK imports, is CommonJS and requires Node's modules: an ES module bundle needs a require of its own.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile: join(dir, 'bin', 'plugin.js'),
    logLevel: 'silent',
  });
  return dir;
}
