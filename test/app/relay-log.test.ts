// The relay's own log lines in the desktop app's rotating log file: what the GM finds through "Open logs folder",
// with no secret in it, through a real relay on loopback.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger, withoutSecrets } from '../../main/logger.ts';
import { createRelay, type Relay } from '../../relay/relay.ts';
import { call } from '../harness/http.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'ttr-relay-log-'));
  cleanups.push(() => rmSync(made, { recursive: true, force: true }));
  return made;
}

async function squat(): Promise<number> {
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
  return (squatter.address() as { port: number }).port;
}

async function desktopRelay(home: string, port: number): Promise<{ relay: Relay; logFile: string }> {
  const logs = join(home, 'logs');
  const dataDir = join(home, 'relay');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ port }));
  const relay = createRelay({
    dataDir,
    nextFreePortIfTaken: true,
    capture: false,
    log: createFileLogger({ folder: logs }),
  });
  cleanups.push(() => relay.stop());
  await relay.start();
  return { relay, logFile: join(logs, 'main.log') };
}

describe("the relay's log lines in the desktop app's log file", () => {
  it('hold the port fallback and storage errors with their path, and no secret', async () => {
    const taken = await squat();
    const home = folder();
    const { relay, logFile } = await desktopRelay(home, taken);
    const admin = { authorization: `Bearer ${relay.adminToken}` };
    const key = (
      await call(relay.url, 'POST', '/admin/keys', {
        body: { name: 'Stream Deck', scopes: ['clients:read'] },
        headers: admin,
      })
    ).body.key as string;
    const loginUrl = relay.createAdminLoginUrl();
    const code = (await call(relay.url, 'POST', '/admin/pairing-codes', { body: {}, headers: admin })).body
      .code as string;
    // The settings file cannot be replaced: a directory with something in it stands where it goes.
    const settingsFile = join(home, 'relay', 'settings.json');
    rmSync(settingsFile);
    mkdirSync(join(settingsFile, 'blocked'), { recursive: true });
    const refused = await call(relay.url, 'PATCH', '/admin/settings', {
      body: { requestsPerMinute: 5 },
      headers: admin,
    });
    expect(refused.status).toBe(500);
    const listenedOn = relay.port;
    await relay.stop();

    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain(
      `WARN  Port ${taken} is in use by another program; the relay listens on ${listenedOn} instead`,
    );
    expect(log).toMatch(
      new RegExp(
        `ERROR Could not write ${settingsFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(E[A-Z]+\\); nothing was changed`,
      ),
    );
    for (const secret of [relay.adminToken, key, new URL(loginUrl).searchParams.get('code')!, code])
      expect(log).not.toContain(secret);
  });

  it('the file logger keeps secrets out even of a message that holds one', () => {
    const logs = join(folder(), 'logs');
    const logger = createFileLogger({ folder: logs });
    const token = 'a1'.repeat(32);
    logger.error(
      `Request with Bearer ${token} failed`,
      new Error(`opening http://127.0.0.1:3010/admin/login?code=${'b2'.repeat(24)} with ttr_${'K'.repeat(43)}`),
    );
    const line = readFileSync(join(logs, 'main.log'), 'utf8');
    expect(line).toContain('Request with Bearer … failed');
    expect(line).toContain('/admin/login?code=… with …');
    expect(line).not.toMatch(/a1a1|b2b2|KKKK/);
  });

  it('withoutSecrets leaves ordinary lines alone', () => {
    const line = 'Could not write /home/gm/.config/Tabletop Relay/relay/settings.json (ENOSPC); nothing was changed';
    expect(withoutSecrets(line)).toBe(line);
    expect(withoutSecrets('world fvtt_0123abcd connected on port 3010')).toBe(
      'world fvtt_0123abcd connected on port 3010',
    );
  });
});
