import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFileSecrets } from '../../relay/capture/secrets.ts';
import { startTestRelay } from '../harness/relay.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ttr-secrets-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('capture password at rest', () => {
  it('seals with AES-256-GCM under a key file only its owner can read, and opens again after a restart', () => {
    const dir = freshDir();
    const sealed = keyFileSecrets(dir).seal('hunter2');
    expect(sealed).not.toContain('hunter2');
    expect(statSync(join(dir, 'capture-secret.key')).mode & 0o777).toBe(0o600);
    expect(keyFileSecrets(dir).open(sealed)).toBe('hunter2');
  });

  it('refuses a sealed text that was tampered with, or sealed under another key', () => {
    const dir = freshDir();
    const sealed = keyFileSecrets(dir).seal('hunter2');
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(() => keyFileSecrets(dir).open(tampered)).toThrow();
    expect(() => keyFileSecrets(freshDir()).open(sealed)).toThrow();
  });

  it('PUT /admin/capture stores the password sealed, keeps it when omitted, and never answers it', async () => {
    const relay = await startTestRelay({
      capture: { launchBrowser: () => Promise.reject(new Error('no browser in this test')) },
    });
    try {
      const put = await relay.admin('PUT', '/admin/capture', {
        foundryUrl: 'http://127.0.0.1:30000',
        username: 'Capture',
        password: 'hunter2',
      });
      expect(put.body).toEqual({ foundryUrl: 'http://127.0.0.1:30000', username: 'Capture', passwordSet: true });
      const stored = readFileSync(join(relay.dataDir, 'capture.json'), 'utf8');
      expect(stored).not.toContain('hunter2');
      const kept = await relay.admin('PUT', '/admin/capture', {
        foundryUrl: 'http://127.0.0.1:30001',
        username: 'Capture',
      });
      expect(kept.body.passwordSet).toBe(true);
      expect(JSON.parse(readFileSync(join(relay.dataDir, 'capture.json'), 'utf8')).sealedPassword).toBe(
        JSON.parse(stored).sealedPassword,
      );
      const bad = await relay.admin('PUT', '/admin/capture', { foundryUrl: 'not a url', username: 'Capture' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/foundryUrl/);
    } finally {
      await relay.close();
    }
  });
});
