import { existsSync } from 'node:fs';
import { randomHex } from '../auth/secrets.ts';
import { JsonFile } from '../storage/json-file.ts';

/** The admin token, created on first start and kept owner-readable only in the data directory. */
export function loadAdminToken(path: string): string {
  const file = new JsonFile<{ token: string }>(path);
  if (existsSync(path)) {
    const { token } = file.read({ token: '' });
    if (token) return token;
  }
  const token = randomHex(32);
  file.write({ token });
  return token;
}
