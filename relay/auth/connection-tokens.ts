import { randomUUID } from 'node:crypto';
import { HashedRecords } from './hashed-records.ts';
import { hashSecret, randomHex } from './secrets.ts';
import { consoleLog, type RelayLog } from '../log.ts';
import type { Revocation } from '../storage/retried-write.ts';

/** How the token came to be: a pairing by the GM, the demo's own sandbox world, a GM session, or a world keeper. */
export type TokenSource = 'pairing' | 'demo' | 'session' | 'keeper';

export interface ConnectionTokenRecord {
  id: string;
  hash: string;
  clientId: string;
  name: string;
  source: TokenSource;
  createdAt: string;
  /** The web page origin the world connects from (its Foundry page); /relay refuses other pages. */
  origin?: string;
}

export type ConnectionTokenView = Omit<ConnectionTokenRecord, 'hash'>;

/** The secrets a world's module uses to open /relay (module-protocol.md §3). Stored hashed. */
export class ConnectionTokens {
  private readonly records: HashedRecords<ConnectionTokenRecord>;

  constructor(path: string, log: RelayLog = consoleLog) {
    this.records = new HashedRecords(path, 'connection tokens', log);
  }

  issue(
    clientId: string,
    name: string,
    source: TokenSource,
    origin?: string,
  ): { token: string; record: ConnectionTokenView } {
    const token = randomHex(32);
    const record: ConnectionTokenRecord = {
      id: randomUUID(),
      hash: hashSecret(token),
      clientId,
      name,
      source,
      createdAt: new Date().toISOString(),
      ...(origin ? { origin } : {}),
    };
    this.records.add(record);
    return { token, record: viewOf(record) };
  }

  verify(token: string): ConnectionTokenRecord | undefined {
    return this.records.withSecret(token);
  }

  list(): ConnectionTokenView[] {
    return this.records.all().map(viewOf);
  }

  /** The token stops working at once, even on a full or read-only disk (see `HashedRecords.remove`). */
  revoke(id: string): (ConnectionTokenView & Revocation) | undefined {
    const record = this.records.withId(id);
    if (!record) return undefined;
    return { ...viewOf(record), ...this.records.remove(id) };
  }

  revokeToken(token: string): (ConnectionTokenView & Revocation) | undefined {
    const record = this.verify(token);
    return record && this.revoke(record.id);
  }

  /** At stop: stores a revocation the disk refused. Never throws. */
  flush(): void {
    this.records.flush();
  }
}

function viewOf(record: ConnectionTokenRecord): ConnectionTokenView {
  const { hash: _hash, ...view } = record;
  return { ...view };
}
