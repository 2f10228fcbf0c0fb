import { describe, expect, it } from 'vitest';
import { chooseSecrets, keychainAvailable, safeStorageSecrets, type Encryption } from '../../main/secrets.ts';

function fakeEncryption(options: { available?: boolean; backend?: string } = {}): Encryption {
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (plain) => Buffer.from([...Buffer.from(plain)].map((byte) => byte ^ 0x5a)),
    decryptString: (encrypted) => Buffer.from([...encrypted].map((byte) => byte ^ 0x5a)).toString(),
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
}

const keyFile = { seal: (plain: string) => `key-file:${plain}`, open: (sealed: string) => sealed.slice(9) };

describe('safeStorage secrets', () => {
  it('seals the capture password so the settings file never holds it, and opens it again', () => {
    const secrets = safeStorageSecrets(fakeEncryption());
    const sealed = secrets.seal('hunter2');
    expect(sealed).not.toContain('hunter2');
    expect(sealed).toMatch(/^os1:/);
    expect(secrets.open(sealed)).toBe('hunter2');
  });

  it('refuses to open a value another store sealed', () => {
    expect(() => safeStorageSecrets(fakeEncryption()).open('v1:abc:def:ghi')).toThrow(
      /not sealed by the system keychain/,
    );
  });
});

describe('choosing the secrets store', () => {
  it('uses the keychain on macOS and Windows when it is available', () => {
    expect(keychainAvailable(fakeEncryption(), 'darwin')).toBe(true);
    expect(keychainAvailable(fakeEncryption({ available: false }), 'win32')).toBe(false);
  });

  it('on Linux trusts a real keyring only, not the built-in fixed password', () => {
    expect(keychainAvailable(fakeEncryption({ backend: 'kwallet5' }), 'linux')).toBe(true);
    expect(keychainAvailable(fakeEncryption({ backend: 'basic_text' }), 'linux')).toBe(false);
  });

  it('falls back to the relay key file without a keychain', () => {
    expect(chooseSecrets(fakeEncryption({ backend: 'basic_text' }), 'linux', () => keyFile).seal('x')).toBe(
      'key-file:x',
    );
    expect(chooseSecrets(fakeEncryption(), 'linux', () => keyFile).seal('x')).toMatch(/^os1:/);
  });
});
