// The secrets port: seals the capture password for storage. Headless: AES-256-GCM with a key file (owner-only)
// in the data directory. The tray app uses Electron's safeStorage instead (main/capture/safe-storage-secrets.ts).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleLog, type RelayLog } from '../log.ts';
import { replaceFile } from '../storage/json-file.ts';

export interface SecretStore {
  /** Ciphertext as text, safe to write to a settings file. */
  seal(plain: string): string;
  open(sealed: string): string;
}

const KEY_FILE = 'capture-secret.key';
const VERSION = 'v1';

function loadOrCreateKey(path: string, log: RelayLog): Buffer {
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    if (key.length === 32) return key;
  }
  const key = randomBytes(32);
  // A key cut short by a full disk would be replaced at the next start, and every password sealed with it lost.
  replaceFile(path, Buffer.from(`${key.toString('hex')}\n`), 0o600, undefined, log);
  return key;
}

/** AES-256-GCM under a key kept in `<dataDir>/capture-secret.key`, created with mode 0600 on first use. */
export function keyFileSecrets(dataDir: string, log: RelayLog = consoleLog): SecretStore {
  const path = join(dataDir, KEY_FILE);
  let key: Buffer | undefined;
  const keyNow = () => (key ??= loadOrCreateKey(path, log));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyNow(), iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(
        ':',
      );
    },
    open(text) {
      const [version, iv, tag, sealed] = text.split(':');
      if (version !== VERSION || !iv || !tag || sealed === undefined)
        throw new Error('The stored secret is not in a known format');
      const decipher = createDecipheriv('aes-256-gcm', keyNow(), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
