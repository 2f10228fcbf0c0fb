import type { RemoteInfo } from 'node:dgram';
import { hostname } from 'node:os';
import makeMulticastDns from 'multicast-dns';
import type { RelayLog } from '../log.ts';
import { PRODUCT_NAME, SERVICE_TYPE, txtRecord } from './facts.ts';
import { lanInterfaces, onNetworkOf, type LanInterface } from './lan-interfaces.ts';

type MulticastDns = makeMulticastDns.MulticastDNS;
type DnsRecord = makeMulticastDns.ResponseOutgoingPacket['answers'][number];
type DnsQuestion = makeMulticastDns.QueryPacket['questions'][number];

export const MDNS_PORT = 5353;
const SERVICE_DOMAIN = `${SERVICE_TYPE}.local`;
const SERVICE_ENUMERATION = '_services._dns-sd._udp.local';
// RFC 6762 §10: two minutes for records that name a host or its address, 75 minutes for the rest.
const HOST_RECORD_TTL = 120;
const OTHER_RECORD_TTL = 4500;
/** RFC 6762 §8.3: at least two unsolicited announcements, one second apart. */
const ANNOUNCEMENT_GAP_MS = 1000;
/** How often the interfaces are looked at again, so a network joined later (Wi-Fi) hears the relay too. */
const INTERFACE_SCAN_MS = 10_000;
/** The longest a goodbye may hold up turning LAN access off or stopping the relay. */
const GOODBYE_WAIT_MS = 1000;

export interface AdvertiserOptions {
  log: RelayLog;
  /** The interfaces answered on; this computer's IPv4 LAN interfaces by default. */
  interfaces?: () => LanInterface[];
  /** The UDP port of mDNS: 5353, other than that only in tests that need a port of their own. */
  mdnsPort?: number;
  /** The computer's name as the instance name shows it; the system's host name by default. */
  computerName?: string;
}

/** One multicast socket that hears and answers on one LAN interface. */
interface Responder {
  lanInterface: LanInterface;
  mdns: MulticastDns;
  /** Settles once the socket is bound or has failed to bind; closing waits for it. */
  bound: Promise<void>;
  ready: boolean;
}

/** The records of the advertisement as one interface gives them: its own address only. */
interface ServiceRecords {
  servicePointer: DnsRecord;
  enumerationPointer: DnsRecord;
  service: DnsRecord;
  text: DnsRecord;
  address: DnsRecord;
}

/**
 * Advertises the relay with DNS-SD over mDNS (RFC 6762, RFC 6763) as `_tabletop-relay._tcp`. Each IPv4 LAN interface
 * gets a socket of its own that answers on that interface with that interface's address, so every network the
 * computer is on hears the relay (one socket would answer on the default interface only) and none learns the
 * addresses it has on the others. Nothing here throws: a taken port or a missing interface is logged once.
 */
export class DiscoveryAdvertiser {
  readonly instanceName: string;
  readonly hostTarget: string;
  private readonly log: RelayLog;
  private readonly interfaces: () => LanInterface[];
  private readonly mdnsPort: number;
  private readonly responders = new Map<string, Responder>();
  private readonly pendingAnnouncements = new Set<NodeJS.Timeout>();
  private readonly logged = new Set<string>();
  private port: number | undefined;
  private scanTimer: NodeJS.Timeout | undefined;

  constructor(options: AdvertiserOptions) {
    this.log = options.log;
    this.interfaces = options.interfaces ?? lanInterfaces;
    this.mdnsPort = options.mdnsPort ?? MDNS_PORT;
    const computer = (options.computerName ?? hostname()).split('.')[0].slice(0, 40) || 'this computer';
    this.instanceName = `${PRODUCT_NAME} on ${computer}`;
    this.hostTarget = `tabletop-relay-${computer.replace(/[^A-Za-z0-9-]/g, '-').toLowerCase()}.local`;
  }

  /** Starts advertising the relay on `port`, or moves the advertisement there (a goodbye for the old port first). */
  async advertise(port: number): Promise<void> {
    if (this.port === port) return;
    if (this.port !== undefined) await this.sayGoodbye();
    this.port = port;
    for (const responder of this.responders.values()) if (responder.ready) this.announce(responder);
    this.scanInterfaces();
    this.scanTimer ??= setInterval(() => this.scanInterfaces(), INTERFACE_SCAN_MS).unref();
  }

  /** Says goodbye on every interface (records with a TTL of 0) and closes the sockets. */
  async withdraw(): Promise<void> {
    clearInterval(this.scanTimer);
    this.scanTimer = undefined;
    if (this.port !== undefined) await this.sayGoodbye();
    this.port = undefined;
    const closing = [...this.responders.values()].map((responder) => this.close(responder));
    this.responders.clear();
    await Promise.all(closing);
  }

  private scanInterfaces(): void {
    const current = new Map(this.interfaces().map((lanInterface) => [lanInterface.address, lanInterface]));
    for (const [address, responder] of this.responders) {
      if (current.get(address)?.netmask === responder.lanInterface.netmask) continue;
      this.responders.delete(address);
      void this.close(responder);
    }
    for (const lanInterface of current.values()) {
      if (!this.responders.has(lanInterface.address)) this.open(lanInterface);
    }
    if (current.size === 0) this.logOnce('no-interface', 'No LAN interface to advertise the relay on');
  }

  private open(lanInterface: LanInterface): void {
    const { address } = lanInterface;
    let mdns: MulticastDns;
    try {
      mdns = makeMulticastDns({ interface: address, bind: '0.0.0.0', port: this.mdnsPort, reuseAddr: true });
    } catch (error) {
      this.logOnce(`open ${address}`, `Could not advertise the relay on ${address}: ${describe(error)}`);
      return;
    }
    let settle = () => {};
    const responder: Responder = { lanInterface, mdns, ready: false, bound: new Promise((done) => (settle = done)) };
    this.responders.set(address, responder);
    mdns.on('ready', () => {
      responder.ready = true;
      settle();
      if (this.port !== undefined && this.responders.get(address) === responder) this.announce(responder);
    });
    mdns.on('error', (error: Error) => {
      settle();
      this.logOnce(
        `error ${address} ${describe(error)}`,
        `Could not advertise the relay on ${address} (UDP port ${this.mdnsPort}: ${describe(error)}); it keeps serving, and tools there need its address typed in`,
      );
      if (this.responders.get(address) === responder) this.responders.delete(address);
      void this.close(responder);
    });
    mdns.on('warning', (error: Error) =>
      this.logOnce(`warning ${address} ${describe(error)}`, `mDNS on ${address}: ${describe(error)}`),
    );
    mdns.on('query', (query: makeMulticastDns.QueryPacket, source: RemoteInfo) =>
      this.answer(responder, query, source),
    );
  }

  private async close(responder: Responder): Promise<void> {
    // multicast-dns sets up its membership timer when the socket is bound: closing before that would leave it running.
    await responder.bound;
    await new Promise<void>((done) => {
      try {
        responder.mdns.destroy(() => done());
      } catch {
        done();
      }
    });
  }

  private answer(responder: Responder, query: makeMulticastDns.QueryPacket, source: RemoteInfo): void {
    // Only a query from the interface's own network is answered, there (RFC 6762 §11): one from no network of this
    // computer came through a router, a VPN or a forged address, and learns nothing.
    if (this.port === undefined || !onNetworkOf(responder.lanInterface, source.address)) return;
    const reply = replyTo(query.questions, this.records(responder.lanInterface.address, this.port));
    if (!reply) return;
    // A querier not on the mDNS port is a plain DNS resolver (RFC 6762 §6.7): it is answered directly, question included.
    const legacy = source.port !== this.mdnsPort;
    const packet = legacy ? { ...reply, id: query.id, questions: query.questions } : reply;
    const sent = this.sendFailure(responder);
    if (legacy) responder.mdns.respond(packet, { address: source.address, port: source.port }, sent);
    else responder.mdns.respond(packet, sent);
  }

  private announce(responder: Responder): void {
    const send = () => {
      if (this.port === undefined) return;
      responder.mdns.respond(
        { answers: allRecords(this.records(responder.lanInterface.address, this.port)) },
        this.sendFailure(responder),
      );
    };
    send();
    const again = setTimeout(() => {
      this.pendingAnnouncements.delete(again);
      send();
    }, ANNOUNCEMENT_GAP_MS).unref();
    this.pendingAnnouncements.add(again);
  }

  private async sayGoodbye(): Promise<void> {
    for (const timer of this.pendingAnnouncements) clearTimeout(timer);
    this.pendingAnnouncements.clear();
    const port = this.port!;
    const goodbyes = [...this.responders.values()]
      .filter((responder) => responder.ready)
      .map(
        (responder) =>
          new Promise<void>((done) => {
            const records = allRecords(this.records(responder.lanInterface.address, port)).map((record) => ({
              ...record,
              ttl: 0,
            }));
            const failed = this.sendFailure(responder);
            responder.mdns.respond({ answers: records }, (error) => {
              failed(error);
              done();
            });
          }),
      );
    await Promise.race([Promise.all(goodbyes), delay(GOODBYE_WAIT_MS)]);
  }

  private sendFailure(responder: Responder): (error: Error | null) => void {
    const { address } = responder.lanInterface;
    return (error) => {
      if (error)
        this.logOnce(`send ${address} ${describe(error)}`, `Could not send mDNS on ${address}: ${describe(error)}`);
    };
  }

  private records(address: string, port: number): ServiceRecords {
    const instance = `${this.instanceName}.${SERVICE_DOMAIN}`;
    return {
      servicePointer: { name: SERVICE_DOMAIN, type: 'PTR', ttl: OTHER_RECORD_TTL, data: instance },
      enumerationPointer: { name: SERVICE_ENUMERATION, type: 'PTR', ttl: OTHER_RECORD_TTL, data: SERVICE_DOMAIN },
      service: {
        name: instance,
        type: 'SRV',
        ttl: HOST_RECORD_TTL,
        flush: true,
        data: { port, target: this.hostTarget, priority: 0, weight: 0 },
      },
      text: { name: instance, type: 'TXT', ttl: OTHER_RECORD_TTL, flush: true, data: txtRecord() },
      address: { name: this.hostTarget, type: 'A', ttl: HOST_RECORD_TTL, flush: true, data: address },
    };
  }

  private logOnce(key: string, message: string): void {
    if (this.logged.has(key)) return;
    this.logged.add(key);
    this.log.warn(message);
  }
}

function allRecords(records: ServiceRecords): DnsRecord[] {
  return [records.servicePointer, records.enumerationPointer, records.service, records.text, records.address];
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The answers to a query's questions, with the records a browser asks for next as additionals (RFC 6763 §12). */
function replyTo(
  questions: readonly DnsQuestion[],
  records: ServiceRecords,
): { answers: DnsRecord[]; additionals: DnsRecord[] } | undefined {
  const answers = new Set<DnsRecord>();
  for (const question of questions) {
    // dns-packet decodes type 255 as ANY, which its typings leave out.
    const askedType: string = question.type;
    for (const record of allRecords(records)) {
      const typeMatches = askedType === 'ANY' || askedType === record.type;
      if (typeMatches && sameName(record.name, question.name)) answers.add(record);
    }
  }
  if (answers.size === 0) return undefined;
  const additionals = new Set<DnsRecord>();
  if (answers.has(records.servicePointer)) {
    additionals.add(records.service);
    additionals.add(records.text);
  }
  if (answers.has(records.service) || additionals.has(records.service)) additionals.add(records.address);
  for (const record of answers) additionals.delete(record);
  return { answers: [...answers], additionals: [...additionals] };
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
