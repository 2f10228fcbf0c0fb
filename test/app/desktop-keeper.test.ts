// "Keep online" in the desktop app, end to end on the Electron stand-in: the tray's switch turns a world's keeper on,
// the keeper logs in through an offscreen window of the app's own Chromium (muted, painting once a second, confined to
// the world's Foundry), the tray says the world is online through it, and the GM's browser takes the world back.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, createSandboxWorld, exchangePairingCode, type SandboxLink } from '../../sandbox/index.ts';
import { startSandboxWebClient, type SandboxWebClient } from '../../sandbox/web/server.ts';
import {
  adminApi,
  buildPrivateApp,
  freePort,
  freshHome,
  launch,
  presetPort,
  removeHome,
  type Home,
} from './boot-support.ts';
import type { LaunchedApp } from './electron-stand-in/client.ts';
import type { StandInState } from './electron-stand-in/control.ts';

const SEED = 7;
const KEEPER_USER = 'Gamemaster';
const KEEPER_PASSWORD = 'desktop-keeper-secret';

let appFolder: string;
let home: Home;
let app: LaunchedApp;
let web: SandboxWebClient;
let relayUrl: string;
let clientId: string;
let gmToken: string;
let gm: SandboxLink | undefined;
let switchLabel: string;

const admin = (method: string, path: string, body?: unknown) => adminApi(home, relayUrl)(method, path, body);

const trayMenu = (state: StandInState) => state.trays[0]?.menu ?? [];
const keeperWindows = (state: StandInState) =>
  state.windows.filter((window) => window.url.startsWith(`${web.url}/game`));

async function gmJoins(): Promise<void> {
  gm = await connectSandbox(createSandboxWorld({ seed: SEED }), {
    relayUrl: relayUrl.replace(/^http/, 'ws'),
    clientId,
    token: gmToken,
  });
}

beforeAll(async () => {
  appFolder = await buildPrivateApp();
  home = freshHome();
  const port = await freePort();
  presetPort(home, port);
  relayUrl = `http://127.0.0.1:${port}`;
  app = launch(appFolder, home);
  await app.waitFor('the tray', (state) => state.trays.length === 1, 5000);
  const world = createSandboxWorld({ seed: SEED });
  const { code } = await admin('POST', '/admin/pairing-codes', {});
  const paired = await exchangePairingCode(world, { httpBase: relayUrl, code });
  clientId = paired.clientId;
  gmToken = paired.token;
  await gmJoins();
  web = await startSandboxWebClient({
    flavour: 'v13',
    worldOptions: { seed: SEED },
    passwords: { [KEEPER_USER]: KEEPER_PASSWORD },
    clientId,
    relayUrl,
  });
  await admin('PATCH', `/admin/worlds/${clientId}`, {
    foundryUrl: web.url,
    keeperUsername: KEEPER_USER,
    keeperPassword: KEEPER_PASSWORD,
  });
  switchLabel = `Keep ${world.metadata.worldTitle} online`;
}, 60_000);

afterAll(async () => {
  await gm?.close();
  await app?.kill();
  await web?.close();
  if (home) removeHome(home);
  if (appFolder) rmSync(appFolder, { recursive: true, force: true });
});

describe('Keep online from the desktop app’s tray', () => {
  it('offers a Keep online switch per paired world, and ticking it turns the keeper on', async () => {
    const unticked = await app.waitFor('the Keep online switch', (state) =>
      trayMenu(state).find((item) => item.label === switchLabel),
    );
    expect(unticked).toMatchObject({ type: 'checkbox', checked: false });
    await app.call('clickMenuItem', switchLabel);
    await app.waitFor('the switch ticked', (state) =>
      trayMenu(state).some((item) => item.label === switchLabel && item.checked),
    );
    expect((await admin('GET', '/admin/worlds')).worlds[0].keeper).toMatchObject({ enabled: true, phase: 'browser' });
  });

  it('keeps the world online through an offscreen window when the GM’s browser leaves, and the tray says so', async () => {
    const left = Date.now();
    await gm!.close();
    gm = undefined;
    const state = await app.waitFor(
      'the tray saying the keeper holds the world',
      (current) => trayMenu(current).some((item) => item.label.startsWith('    Online through the keeper')) && current,
      20_000,
    );
    console.log(`desktop keeper takeover: ${Date.now() - left} ms`);
    const [window] = keeperWindows(state);
    expect(window).toMatchObject({ visible: false, audioMuted: true, frameRate: 1 });
    expect(state.trays[0]!.toolTip).toMatch(/kept online$/);
  });

  it('steps back when the GM’s browser comes back: its window closes, the tray says Connected', async () => {
    await gmJoins();
    await app.waitFor(
      'the keeper window closed',
      (state) =>
        keeperWindows(state).length === 0 && trayMenu(state).some((item) => item.label.startsWith('    Connected for')),
      10_000,
    );
  });

  it('unticked, the keeper is off', async () => {
    await app.call('clickMenuItem', switchLabel);
    await app.waitFor('the switch unticked', (state) =>
      trayMenu(state).some((item) => item.label === switchLabel && !item.checked),
    );
    expect((await admin('GET', '/admin/worlds')).worlds[0].keeper).toMatchObject({ enabled: false, phase: 'off' });
  });
});
