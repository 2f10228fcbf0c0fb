// The LAN advertisement on its own, heard by an mDNS browser on loopback: what it says, and that it follows the port,
// says goodbye, and survives a taken mDNS port or a computer without a LAN.
import { createSocket, type Socket } from 'node:dgram';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryAdvertiser } from '../../relay/discovery/advertiser.ts';
import { RELAY_VERSION } from '../../relay/version.ts';
import type { RelayLog } from '../../relay/log.ts';
import { startMdnsBrowser, type HeardRecord, type MdnsBrowser } from '../harness/mdns-browser.ts';

const LOOPBACK = { address: '127.0.0.1', netmask: '255.0.0.0' };
const SERVICE = '_tabletop-relay._tcp.local';
// A computer name of its own, so that relays other tests advertise at the same time are told apart.
const COMPUTER = `advertiser-test-${process.pid}`;
const INSTANCE = `Tabletop Relay on ${COMPUTER}.${SERVICE}`;

function recordingLog(): RelayLog & { lines: string[] } {
  const lines: string[] = [];
  const note = (message: string) => void lines.push(message);
  return { lines, info: note, warn: note, error: note };
}

const ours =
  (type: string, match: (record: HeardRecord) => boolean = () => true) =>
  (record: HeardRecord) =>
    record.type === type &&
    (type === 'PTR'
      ? record.data === INSTANCE
      : record.name === INSTANCE || record.name === `tabletop-relay-${COMPUTER}.local`) &&
    match(record);

let browser: MdnsBrowser;
let advertiser: DiscoveryAdvertiser | undefined;

beforeAll(async () => {
  browser = await startMdnsBrowser(LOOPBACK.address);
});
afterAll(() => browser.close());
afterEach(async () => {
  await advertiser?.withdraw();
  advertiser = undefined;
});

function advertiserOnLoopback(log: RelayLog = recordingLog()): DiscoveryAdvertiser {
  advertiser = new DiscoveryAdvertiser({ log, interfaces: () => [LOOPBACK], computerName: COMPUTER });
  return advertiser;
}

describe('the LAN advertisement', () => {
  it('announces the relay and answers a browse with its port, version, API paths and address', async () => {
    await advertiserOnLoopback().advertise(41_001);
    await browser.waitFor(ours('PTR', (record) => record.ttl > 0));

    const since = browser.heard.length;
    browser.query(SERVICE);
    const pointer = await browser.waitFor(ours('PTR'), { since });
    const service = await browser.waitFor(ours('SRV'), { since });
    const text = await browser.waitFor(ours('TXT'), { since });
    const address = await browser.waitFor(ours('A'), { since });

    expect(pointer).toMatchObject({ name: SERVICE, ttl: 4500 });
    expect(service).toMatchObject({ ttl: 120, data: { port: 41_001, target: `tabletop-relay-${COMPUTER}.local` } });
    expect(text.data).toEqual([
      'txtvers=1',
      `version=${RELAY_VERSION}`,
      'api=/',
      'docs=/docs',
      'openapi=/openapi.json',
      'wellknown=/.well-known/tabletop-relay',
    ]);
    expect(address).toMatchObject({ name: `tabletop-relay-${COMPUTER}.local`, data: '127.0.0.1' });
  });

  it('is listed when a browser asks which services the network has', async () => {
    await advertiserOnLoopback().advertise(41_002);
    const since = browser.heard.length;
    browser.query('_services._dns-sd._udp.local');
    await browser.waitFor((record) => record.name === '_services._dns-sd._udp.local' && record.data === SERVICE, {
      since,
    });
  });

  it('moves to a new port: a goodbye for the old one, then the new one announced', async () => {
    const moving = advertiserOnLoopback();
    await moving.advertise(41_003);
    await browser.waitFor(ours('SRV', (record) => record.data.port === 41_003 && record.ttl > 0));

    const since = browser.heard.length;
    await moving.advertise(41_004);
    await browser.waitFor(
      ours('SRV', (record) => record.data.port === 41_003 && record.ttl === 0),
      { since },
    );
    await browser.waitFor(
      ours('SRV', (record) => record.data.port === 41_004 && record.ttl > 0),
      { since },
    );

    const afterMove = browser.heard.length;
    browser.query(SERVICE);
    const answer = await browser.waitFor(ours('SRV'), { since: afterMove });
    expect(answer.data.port).toBe(41_004);
  });

  it('says goodbye when withdrawn and no longer answers', async () => {
    const leaving = advertiserOnLoopback();
    await leaving.advertise(41_005);
    await browser.waitFor(ours('PTR', (record) => record.ttl > 0));

    const since = browser.heard.length;
    await leaving.withdraw();
    for (const type of ['PTR', 'SRV', 'TXT', 'A']) {
      await browser.waitFor(
        ours(type, (record) => record.ttl === 0),
        { since },
      );
    }

    const afterGoodbye = browser.heard.length;
    browser.query(SERVICE);
    browser.query(INSTANCE, 'ANY');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(browser.heard.slice(afterGoodbye).filter((record) => ours(record.type)(record))).toEqual([]);
  });

  it('answers on the interface the query came from, with that interface’s address only', async () => {
    // Two interfaces on networks of their own (127.0.0.2 stands for a second network card): a query from the first is
    // answered there, and the second's address does not go out with it.
    const first = { address: '127.0.0.1', netmask: '255.255.255.255' };
    const second = { address: '127.0.0.2', netmask: '255.255.255.255' };
    advertiser = new DiscoveryAdvertiser({
      log: recordingLog(),
      interfaces: () => [first, second],
      computerName: COMPUTER,
    });
    await advertiser.advertise(41_006);
    await browser.waitFor(ours('A', (record) => record.data === second.address));
    // Past the second announcement, so that what follows is the answer alone.
    await new Promise((resolve) => setTimeout(resolve, 1300));

    const since = browser.heard.length;
    browser.query(`tabletop-relay-${COMPUTER}.local`, 'A');
    await browser.waitFor(
      ours('A', (record) => record.data === first.address),
      { since },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      browser.heard
        .slice(since)
        .filter(ours('A'))
        .map((record) => record.data),
    ).toEqual([first.address]);
  });
});

it('answers a plain DNS query sent from another port directly to its sender, with the question and id', async () => {
  const since = browser.heard.length;
  await advertiserOnLoopback().advertise(41_011);
  // Its names are its own once probed for and announced; it answers for them from then on.
  await browser.waitFor(
    ours('SRV', (record) => record.data.port === 41_011 && record.ttl > 0),
    { since },
  );
  const resolver = createSocket('udp4');
  try {
    await new Promise<void>((resolve) => resolver.bind(0, '127.0.0.1', resolve));
    resolver.setMulticastInterface('127.0.0.1');
    const answered = new Promise<Buffer>((resolve) =>
      resolver.on('message', (message) => {
        if (message.includes(Buffer.from(COMPUTER))) resolve(message);
      }),
    );
    // A query as a unicast DNS resolver writes it: id 0x4a7e, one question, PTR (12) in class IN (1).
    const labels = SERVICE.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
    const question = Buffer.concat([...labels, Buffer.from([0, 0, 12, 0, 1])]);
    const header = Buffer.from([0x4a, 0x7e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    resolver.send(Buffer.concat([header, question]), 5353, '224.0.0.251');

    const reply = await answered;
    expect(reply.readUInt16BE(0)).toBe(0x4a7e);
    expect(reply[2] & 0x80).toBe(0x80);
    expect(reply.readUInt16BE(4)).toBe(1);
    expect(reply.includes(question.subarray(0, question.length - 4))).toBe(true);
  } finally {
    resolver.close();
  }
});

it('two relays probing for one name at once end up with two: one keeps it, the other takes "… (2)"', async () => {
  // RFC 6762 §8.2: the relay whose proposed records are lexicographically later (here the higher port) goes on, the
  // other probes again a second later, hears the winner's answer and takes the next name.
  const computer = `${COMPUTER}-twins`;
  const twin = new DiscoveryAdvertiser({ log: recordingLog(), interfaces: () => [LOOPBACK], computerName: computer });
  advertiser = new DiscoveryAdvertiser({ log: recordingLog(), interfaces: () => [LOOPBACK], computerName: computer });
  const service = (port: number) => (record: HeardRecord) =>
    record.type === 'SRV' && record.data.port === port && record.ttl > 0 && record.name.includes(computer);
  try {
    const since = browser.heard.length;
    await Promise.all([advertiser.advertise(41_012), twin.advertise(41_013)]);
    const [lower, higher] = await Promise.all([
      browser.waitFor(service(41_012), { since, timeoutMs: 8000 }),
      browser.waitFor(service(41_013), { since, timeoutMs: 8000 }),
    ]);
    expect(higher.name).toBe(`Tabletop Relay on ${computer}.${SERVICE}`);
    expect(lower.name).toBe(`Tabletop Relay on ${computer} (2).${SERVICE}`);
  } finally {
    await twin.withdraw();
  }
}, 15_000);

describe('when mDNS cannot run', () => {
  let holder: Socket | undefined;
  afterEach(() => {
    holder?.close();
    holder = undefined;
  });

  it('a taken mDNS port is logged once and nothing throws', async () => {
    const taken = createSocket({ type: 'udp4', reuseAddr: false });
    holder = taken;
    await new Promise<void>((resolve) => taken.bind(0, '0.0.0.0', resolve));
    const log = recordingLog();
    advertiser = new DiscoveryAdvertiser({
      log,
      interfaces: () => [LOOPBACK],
      computerName: COMPUTER,
      mdnsPort: taken.address().port,
    });

    await advertiser.advertise(41_007);
    await expect.poll(() => log.lines.length).toBeGreaterThan(0);
    await advertiser.advertise(41_008);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await advertiser.withdraw();

    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(/Could not advertise the relay on 127\.0\.0\.1 \(UDP port \d+: EADDRINUSE\)/);
  });

  it('a computer without a LAN interface is logged once and nothing throws', async () => {
    const log = recordingLog();
    advertiser = new DiscoveryAdvertiser({ log, interfaces: () => [], computerName: COMPUTER });
    await advertiser.advertise(41_009);
    await advertiser.advertise(41_010);
    await advertiser.withdraw();
    expect(log.lines).toEqual(['No LAN interface to advertise the relay on']);
  });
});

it('names the instance after the computer and makes a host name DNS takes', () => {
  const named = new DiscoveryAdvertiser({ log: recordingLog(), computerName: 'Gm’s PC.fritz.box' });
  expect(named.instanceName).toBe('Tabletop Relay on Gm’s PC');
  expect(named.hostTarget).toBe('tabletop-relay-gm-s-pc.local');
});
