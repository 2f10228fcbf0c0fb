// The secrets port of the relay's capture (the capture password), sealed with the operating system's keychain
// through Electron's safeStorage.
import type { SecretStore } from '../relay/capture/secrets.ts';

/** The part of Electron's safeStorage used here, so tests can give a stand-in. */
export interface Encryption {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which keyring Chromium found; 'basic_text' means none, only a fixed built-in password. */
  getSelectedStorageBackend?(): string;
}

const PREFIX = 'os1:';

export function safeStorageSecrets(encryption: Encryption): SecretStore {
  return {
    seal: (plain) => PREFIX + encryption.encryptString(plain).toString('base64'),
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('The stored secret was not sealed by the system keychain');
      return encryption.decryptString(Buffer.from(sealed.slice(PREFIX.length), 'base64'));
    },
  };
}

/** Whether the system keychain really protects secrets: Linux without a keyring only pretends to. */
export function keychainAvailable(encryption: Encryption, platform: NodeJS.Platform): boolean {
  if (!encryption.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = encryption.getSelectedStorageBackend?.() ?? 'unknown';
  return backend !== 'basic_text' && backend !== 'unknown';
}

/** The keychain when there is a real one, otherwise the relay's own key file (as in headless mode). */
export function chooseSecrets(
  encryption: Encryption,
  platform: NodeJS.Platform,
  keyFile: () => SecretStore,
): SecretStore {
  return keychainAvailable(encryption, platform) ? safeStorageSecrets(encryption) : keyFile();
}
