// The desktop app's boot, as a release is checked: the same assertions on the Electron stand-in here and on the real
// Electron binary in the hosted CI (TABLETOP_RELAY_ELECTRON=real, under xvfb-run on Linux): the tray is created, the
// relay answers, a second start shows the settings window signed in, and a start with --quit ends the app with 0.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateApp, freePort, freshHome, presetPort, removeHome, type Home } from './boot-support.ts';
import { ELECTRON_UNDER_TEST, startDesktopApp, type DesktopRun } from './desktop-driver.ts';

const BOOT_DEADLINE_MS = ELECTRON_UNDER_TEST === 'real' ? 30_000 : 10_000;

let appFolder: string;
let home: Home;
let app: DesktopRun;
let relayUrl: string;

async function poll<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = BOOT_DEADLINE_MS,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; the app printed:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  appFolder = await buildPrivateApp();
  home = freshHome();
  const port = await freePort();
  presetPort(home, port);
  relayUrl = `http://127.0.0.1:${port}`;
  app = startDesktopApp(appFolder, home);
}, 60_000);

afterAll(async () => {
  await app?.kill();
  if (home) removeHome(home);
  if (appFolder) rmSync(appFolder, { recursive: true, force: true });
});

describe(`the desktop app boots (${ELECTRON_UNDER_TEST} Electron)`, () => {
  it('creates its tray and says so in its log', async () => {
    await poll('the log line of the tray', () => (app.log().includes('Tray created') ? true : undefined));
    expect(app.log()).toContain('Relay listening at http://127.0.0.1:');
  }, 60_000);

  it('answers on the relay port', async () => {
    const status = await poll('GET /api/status', async () => {
      const answer = await fetch(`${relayUrl}/api/status`).catch(() => undefined);
      return answer?.ok ? ((await answer.json()) as { status: string }) : undefined;
    });
    expect(status.status).toBe('ok');
  });

  it('started again, shows its settings window, signed in, and the second copy leaves with 0', async () => {
    expect(await app.startAgain()).toEqual({ code: 0, signal: null });
    // The window shows before its page has drawn the signed-in sidebar; a page that never signs in times the poll out.
    const page = await poll('the settings window, signed in', async () => {
      const shown = await app.settingsPage();
      return shown?.signedIn ? shown : undefined;
    });
    expect(page.url.startsWith(`${relayUrl}/admin/`)).toBe(true);
  }, 60_000);

  it('started again with --quit, quits: the relay closes and the app exits with 0', async () => {
    expect(await app.startAgain(['--quit'])).toEqual({ code: 0, signal: null });
    expect(await app.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${relayUrl}/api/status`)).rejects.toThrow();
  }, 60_000);
});
