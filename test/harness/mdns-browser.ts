// An mDNS browser in a process of its own, made with the library the relay advertises with, so that it can run in the
// LAN peer's network namespace (`ip netns exec`) as well as on this machine. It prints every record it hears as a JSON
// line and sends the queries it is given on standard input.
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
}

export interface MdnsBrowser {
  /** Every record heard so far, answers and additionals, in order. */
  readonly heard: readonly HeardRecord[];
  query(name: string, type?: string): void;
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
mdns.on('ready', () => print({ ready: true }));
mdns.on('error', (error) => print({ error: String(error.code || error.message) }));
mdns.on('response', (packet, source) => {
  for (const record of [...packet.answers, ...packet.additionals])
    print({ from: source.address, name: record.name, type: record.type, ttl: record.ttl, data: plain(record) });
});
require('node:readline').createInterface({ input: process.stdin })
  .on('line', (line) => mdns.query({ questions: [JSON.parse(line)] }))
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
  const listeners = new Set<() => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.ready) resolve();
      else if (message.error) reject(new Error(`the mDNS browser could not start: ${message.error}`));
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
    query(name, type = 'PTR') {
      child.stdin.write(`${JSON.stringify({ name, type })}\n`);
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
