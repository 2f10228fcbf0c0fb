// An mDNS browser in a process of its own, made with the library the relay advertises with, so that it can run in the
// LAN peer's network namespace (`ip netns exec`) as well as on this machine. It prints every record and every query it
// hears as a JSON line and sends the queries it is given on standard input; told to, it also answers for a name, as
// another host holding that name would.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

export interface HeardRecord {
  /** The address the response came from. */
  from: string;
  name: string;
  type: string;
  ttl: number;
  /** A TXT record's strings; an SRV record's {port, target}; an address or a name for the others. */
  data: any;
  /** When the browser heard it, in epoch ms of its own clock. */
  at: number;
}

export interface HeardQuery {
  from: string;
  at: number;
  questions: { name: string; type: string }[];
  /** The records a probing host proposes (RFC 6762 §8.1); none in a plain query. */
  authorities: Omit<HeardRecord, 'from' | 'at'>[];
}

/** A record the browser answers with, as multicast-dns takes it. */
export interface ClaimedRecord {
  name: string;
  type: string;
  ttl?: number;
  data: unknown;
}

export interface MdnsBrowser {
  /** Every record heard so far, answers and additionals, in order. */
  readonly heard: readonly HeardRecord[];
  /** Every query heard so far, its own included, in order. */
  readonly queries: readonly HeardQuery[];
  query(name: string, type?: string): void;
  /**
   * Answers every query for `name` from now on with `records`, as the host holding that name would; `announce` also
   * sends them once unasked.
   */
  claim(name: string, records: ClaimedRecord[], options?: { announce?: boolean }): void;
  /** The first record heard from `since` on (an index into `heard`) that matches, or a rejection after `timeoutMs`. */
  waitFor(
    match: (record: HeardRecord) => boolean,
    options?: { since?: number; timeoutMs?: number },
  ): Promise<HeardRecord>;
  close(): Promise<void>;
}

const BROWSER = `
const [library, address] = process.argv.slice(1);
const mdns = require(library)({ interface: address, bind: '0.0.0.0' });
const print = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
const plain = (record) => record.type === 'TXT' ? record.data.map(String) : record.data;
const described = (record) => ({ name: record.name, type: record.type, ttl: record.ttl, data: plain(record) });
const claims = new Map();
mdns.on('ready', () => print({ ready: true }));
mdns.on('error', (error) => print({ error: String(error.code || error.message) }));
mdns.on('response', (packet, source) => {
  for (const record of [...packet.answers, ...packet.additionals])
    print({ from: source.address, at: Date.now(), ...described(record) });
});
mdns.on('query', (packet, source) => {
  const questions = packet.questions.map(({ name, type }) => ({ name, type }));
  const authorities = (packet.authorities || []).map(described);
  print({ query: { from: source.address, at: Date.now(), questions, authorities } });
  const answers = packet.questions.flatMap((question) => claims.get(question.name.toLowerCase()) || []);
  if (answers.length > 0) mdns.respond({ answers });
});
require('node:readline').createInterface({ input: process.stdin })
  .on('line', (line) => {
    const command = JSON.parse(line);
    if (!command.claim) return mdns.query({ questions: [command] });
    claims.set(command.claim.toLowerCase(), command.records);
    if (command.announce) mdns.respond({ answers: command.records });
  })
  .on('close', () => mdns.destroy(() => process.exit(0)));
`;

/** Starts a browser that listens and queries on `interfaceAddress`, inside `namespace` when one is named. */
export async function startMdnsBrowser(interfaceAddress: string, namespace?: string): Promise<MdnsBrowser> {
  const library = createRequire(import.meta.url).resolve('multicast-dns');
  const command = [process.execPath, '-e', BROWSER, library, interfaceAddress];
  const child = namespace
    ? spawn('ip', ['netns', 'exec', namespace, ...command], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const heard: HeardRecord[] = [];
  const queries: HeardQuery[] = [];
  const listeners = new Set<() => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.ready) resolve();
      else if (message.error) reject(new Error(`the mDNS browser could not start: ${message.error}`));
      else if (message.query) queries.push(message.query);
      else {
        heard.push(message);
        for (const listener of listeners) listener();
      }
    });
    void exited.then(() => reject(new Error('the mDNS browser exited before it was ready')));
  });
  await ready;
  return {
    heard,
    queries,
    query(name, type = 'PTR') {
      child.stdin.write(`${JSON.stringify({ name, type })}\n`);
    },
    claim(name, records, { announce = false } = {}) {
      child.stdin.write(`${JSON.stringify({ claim: name, records, announce })}\n`);
    },
    waitFor(match, { since = 0, timeoutMs = 5000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = heard.slice(since).find(match);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`no matching mDNS record within ${timeoutMs} ms; heard: ${JSON.stringify(heard.slice(since))}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async close() {
      child.stdin.end();
      const killed = setTimeout(() => child.kill(), 2000);
      await exited;
      clearTimeout(killed);
    },
  };
}
