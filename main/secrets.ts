// Secrets (the capture password) encrypted with the operating system's keychain through Electron's safeStorage.

/** The part of Electron's safeStorage used here, so tests can give a stand-in. */
export interface Encryption {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Where the encrypted values are kept (base64 strings), e.g. a section of the settings store. */
export interface SecretFile {
  read(): Record<string, string>;
  write(values: Record<string, string>): void;
}

export interface Secrets {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
}

export class SecretsUnavailableError extends Error {
  constructor() {
    super('This computer offers no keychain to encrypt secrets with, so the secret was not saved');
  }
}

export function createSecrets(encryption: Encryption, file: SecretFile): Secrets {
  return {
    get(name) {
      const stored = file.read()[name];
      if (stored === undefined || !encryption.isEncryptionAvailable()) return undefined;
      try {
        return encryption.decryptString(Buffer.from(stored, 'base64'));
      } catch {
        return undefined;
      }
    },
    set(name, value) {
      // Never fall back to plain text: a password on disk unencrypted is worse than asking again.
      if (!encryption.isEncryptionAvailable()) throw new SecretsUnavailableError();
      file.write({ ...file.read(), [name]: encryption.encryptString(value).toString('base64') });
    },
    delete(name) {
      const { [name]: _removed, ...rest } = file.read();
      file.write(rest);
    },
  };
}
