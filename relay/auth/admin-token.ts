import { randomHex } from './secrets.ts';
import { JsonFile } from '../storage/json-file.ts';
import { consoleLog, type RelayLog } from '../log.ts';

/** The admin token, created on first start and kept owner-readable only in the data directory. */
export function loadAdminToken(path: string, log: RelayLog = consoleLog): string {
  const file = new JsonFile<{ token: string }>(path, { log });
  const { token: stored } = file.read({ token: '' });
  if (stored) return stored;
  const token = randomHex(32);
  file.write({ token });
  return token;
}
