import { randomUUID } from 'node:crypto';
import { JsonFile } from '../storage/json-file.ts';
import { hashSecret, randomHex } from './secrets.ts';
import { consoleLog, type RelayLog } from '../log.ts';

/** How the token came to be: a pairing by the GM, the demo's own sandbox world, or a relay-started browser session. */
export type TokenSource = 'pairing' | 'demo' | 'session';

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
  private readonly file: JsonFile<ConnectionTokenRecord[]>;
  private readonly byHash = new Map<string, ConnectionTokenRecord>();

  constructor(path: string, log: RelayLog = consoleLog) {
    this.file = new JsonFile(path, { log });
    for (const record of this.file.read([])) this.byHash.set(record.hash, record);
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
    this.store([...this.byHash.values(), record]);
    return { token, record: viewOf(record) };
  }

  verify(token: string): ConnectionTokenRecord | undefined {
    return this.byHash.get(hashSecret(token));
  }

  list(): ConnectionTokenView[] {
    return [...this.byHash.values()].map(viewOf);
  }

  revoke(id: string): ConnectionTokenView | undefined {
    for (const record of this.byHash.values()) {
      if (record.id !== id) continue;
      this.store([...this.byHash.values()].filter((candidate) => candidate !== record));
      return viewOf(record);
    }
    return undefined;
  }

  revokeToken(token: string): ConnectionTokenView | undefined {
    const record = this.verify(token);
    return record && this.revoke(record.id);
  }

  /** Writes the next set of tokens, then makes it current: a failed write changes nothing. */
  private store(records: ConnectionTokenRecord[]): void {
    this.file.write(records);
    this.byHash.clear();
    for (const record of records) this.byHash.set(record.hash, record);
  }
}

function viewOf(record: ConnectionTokenRecord): ConnectionTokenView {
  const { hash: _hash, ...view } = record;
  return { ...view };
}
