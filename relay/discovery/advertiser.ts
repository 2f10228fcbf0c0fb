import type { RemoteInfo } from 'node:dgram';
import { hostname } from 'node:os';
import makeMulticastDns from 'multicast-dns';
import type { RelayLog } from '../log.ts';
import { PRODUCT_NAME, SERVICE_TYPE, txtRecord } from './facts.ts';
import { lanInterfaces, onNetworkOf, type LanInterface } from './lan-interfaces.ts';
import { compareProposals, hasData, hostNameOf, instanceNameOf, textStrings, type DataRecord } from './probing.ts';

type MulticastDns = makeMulticastDns.MulticastDNS;
type DnsQuestion = makeMulticastDns.QueryPacket['questions'][number];
type DnsResponse = makeMulticastDns.ResponsePacket;

export const MDNS_PORT = 5353;
const SERVICE_DOMAIN = `${SERVICE_TYPE}.local`;
const SERVICE_ENUMERATION = '_services._dns-sd._udp.local';
// RFC 6762 §10: two minutes for records that name a host or its address, 75 minutes for the rest.
const HOST_RECORD_TTL = 120;
const OTHER_RECORD_TTL = 4500;
/** RFC 6762 §8.3: at least two unsolicited announcements, one second apart. */
const ANNOUNCEMENT_GAP_MS = 1000;
/**
 * RFC 6762 §8.1: before the names are announced, three probes 250 ms apart, the first after a random wait of up to
 * 250 ms; the names are the relay's when no host answered for them within 250 ms of the last.
 */
const PROBES = 3;
const PROBE_GAP_MS = 250;
/** §8.2: the loser of simultaneous probing waits a second before it probes again. */
const DEFERRED_PROBE_MS = 1000;
/** §8.1: after 15 conflicts within 10 s, each probing waits 5 s first, so a host that answers every name costs little. */
const CONFLICTS_BEFORE_SLOWING = 15;
const CONFLICT_WINDOW_MS = 10_000;
const SLOWED_PROBE_MS = 5000;
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
  /** Whether the names are claimed on this interface: probed without conflict, so announced and answered for. */
  claimed: boolean;
  /** The probes and announcements waiting to be sent. */
  timers: Set<NodeJS.Timeout>;
}

/** The records of the advertisement as one interface gives them: its own address only. */
interface ServiceRecords {
  servicePointer: DataRecord;
  enumerationPointer: DataRecord;
  service: DataRecord;
  text: DataRecord;
  address: DataRecord;
}

/**
 * Advertises the relay with DNS-SD over mDNS (RFC 6762, RFC 6763) as `_tabletop-relay._tcp`. Each IPv4 LAN interface
 * gets a socket of its own that answers on that interface with that interface's address, so every network the
 * computer is on hears the relay (one socket would answer on the default interface only) and none learns the
 * addresses it has on the others. The instance and host names are probed for before they are announced, and another
 * host answering for one makes the relay take the next (RFC 6762 §8–9), so no host on the LAN answers for the relay's
 * name unnoticed. Nothing here throws: a taken port or a missing interface is logged once.
 */
export class DiscoveryAdvertiser {
  private readonly baseInstanceName: string;
  private readonly baseHostName: string;
  /** Which try of each name is advertised: 1 for the plain name, 2 for "… (2)" after a conflict. */
  private instanceAttempt = 1;
  private hostAttempt = 1;
  private readonly log: RelayLog;
  private readonly interfaces: () => LanInterface[];
  private readonly mdnsPort: number;
  private readonly responders = new Map<string, Responder>();
  private readonly logged = new Set<string>();
  /** When the recent conflicts happened (epoch ms), to slow probing down when there are too many. */
  private conflicts: number[] = [];
  private port: number | undefined;
  private scanTimer: NodeJS.Timeout | undefined;

  constructor(options: AdvertiserOptions) {
    this.log = options.log;
    this.interfaces = options.interfaces ?? lanInterfaces;
    this.mdnsPort = options.mdnsPort ?? MDNS_PORT;
    const computer = (options.computerName ?? hostname()).split('.')[0].slice(0, 40) || 'this computer';
    this.baseInstanceName = `${PRODUCT_NAME} on ${computer}`;
    this.baseHostName = `tabletop-relay-${computer.replace(/[^A-Za-z0-9-]/g, '-').toLowerCase()}`;
  }

  /** The service instance's name: "Tabletop Relay on <computer>", numbered after a conflict. */
  get instanceName(): string {
    return instanceNameOf(this.baseInstanceName, this.instanceAttempt);
  }

  /** The host name the service points at, numbered after a conflict. */
  get hostTarget(): string {
    return hostNameOf(this.baseHostName, this.hostAttempt);
  }

  /**
   * Starts advertising the relay on `port` (probing for its names first), or moves the advertisement there: a goodbye
   * for the old port, then the new one announced under the names already claimed.
   */
  async advertise(port: number): Promise<void> {
    if (this.port === port) return;
    if (this.port !== undefined) await this.sayGoodbye();
    this.port = port;
    for (const responder of this.responders.values()) {
      if (responder.claimed) this.announce(responder);
      else if (responder.ready) this.probe(responder);
    }
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
    const responder: Responder = {
      lanInterface,
      mdns,
      ready: false,
      bound: new Promise((done) => (settle = done)),
      claimed: false,
      timers: new Set(),
    };
    this.responders.set(address, responder);
    mdns.on('ready', () => {
      responder.ready = true;
      settle();
      if (this.port !== undefined && this.responders.get(address) === responder) this.probe(responder);
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
    mdns.on('query', (query: makeMulticastDns.QueryPacket, source: RemoteInfo) => {
      if (responder.claimed) this.answer(responder, query, source);
      else this.deferToEarlierProbe(responder, query, source);
    });
    mdns.on('response', (response: DnsResponse, source: RemoteInfo) =>
      this.noticeConflict(responder, response, source),
    );
  }

  private async close(responder: Responder): Promise<void> {
    this.stopSending(responder);
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

  /**
   * Probes for the names on one interface (RFC 6762 §8.1): questions for each name with the records the relay means to
   * give as authorities, three times, then claims and announces them unless a conflict started over in between.
   */
  private probe(responder: Responder, firstWaitMs = Math.random() * PROBE_GAP_MS): void {
    this.stopSending(responder);
    responder.claimed = false;
    const slowed = this.recentConflicts() >= CONFLICTS_BEFORE_SLOWING ? SLOWED_PROBE_MS : 0;
    // Each step waits from the one before, so that a busy moment never sends two probes closer than the gap.
    const step = (probesSent: number) => {
      if (this.port === undefined) return;
      if (probesSent === PROBES) {
        responder.claimed = true;
        this.announce(responder);
        return;
      }
      responder.mdns.query(this.probeQuery(responder.lanInterface.address, this.port), this.sendFailure(responder));
      this.later(responder, PROBE_GAP_MS, () => step(probesSent + 1));
    };
    this.later(responder, slowed + firstWaitMs, () => step(0));
  }

  private probeQuery(address: string, port: number): makeMulticastDns.QueryOutgoingPacket {
    const { service, text, address: hostAddress } = this.records(address, port);
    return {
      questions: [
        { name: service.name, type: 'ANY' as DnsQuestion['type'] },
        { name: hostAddress.name, type: 'ANY' as DnsQuestion['type'] },
      ],
      authorities: [service, text, hostAddress],
    };
  }

  /**
   * Another host probing for a name this interface is probing for (RFC 6762 §8.2): the host whose proposed records are
   * lexicographically later goes on; the other waits a second and probes again, and then hears the winner's answer.
   */
  private deferToEarlierProbe(responder: Responder, query: makeMulticastDns.QueryPacket, source: RemoteInfo): void {
    if (this.port === undefined || !onNetworkOf(responder.lanInterface, source.address)) return;
    const proposed = allRecords(this.records(responder.lanInterface.address, this.port));
    for (const name of [this.fullInstanceName(), this.hostTarget]) {
      const theirs = (query.authorities ?? []).filter(hasData).filter((record) => sameName(record.name, name));
      // Our own probe, heard back here or from another of our interfaces.
      if (theirs.every((record) => this.isOurs(record))) continue;
      const ours = proposed.filter((record) => sameName(record.name, name));
      if (compareProposals(ours, theirs) < 0) {
        this.probe(responder, DEFERRED_PROBE_MS);
        return;
      }
    }
  }

  /**
   * A response from another host holding one of the relay's names with other data (RFC 6762 §9). While probing, the
   * name is taken: the relay takes the next one ("… (2)") and probes for it on every interface. Once claimed, the
   * relay probes for its names again, as §9 asks, and takes the next name only if the other host answers the probe.
   */
  private noticeConflict(responder: Responder, response: DnsResponse, source: RemoteInfo): void {
    if (this.port === undefined || !onNetworkOf(responder.lanInterface, source.address)) return;
    const conflicting = [...response.answers, ...(response.additionals ?? [])]
      .filter(hasData)
      .find((record) => record.ttl !== 0 && this.holdsName(record.name) && !this.isOurs(record));
    if (!conflicting) return;
    this.conflicts = [...this.conflicts.filter((at) => at > Date.now() - CONFLICT_WINDOW_MS), Date.now()];
    if (responder.claimed) {
      for (const each of this.readyResponders()) this.probe(each);
      return;
    }
    this.rename(sameName(conflicting.name, this.hostTarget) ? 'host' : 'instance', source.address);
  }

  private rename(which: 'instance' | 'host', takenBy: string): void {
    const taken = which === 'instance' ? this.instanceName : this.hostTarget;
    // Browsers may hold what was announced under the old name, which now leads to the other host. The goodbyes are
    // made at once, with the old name; the name changes before anything else is heard.
    void this.sayGoodbye();
    if (which === 'instance') this.instanceAttempt += 1;
    else this.hostAttempt += 1;
    const now = which === 'instance' ? this.instanceName : this.hostTarget;
    this.log.warn(
      `The name "${taken}" is taken on the LAN (${takenBy} answers for it): the relay is advertised as "${now}"`,
    );
    for (const responder of this.readyResponders()) this.probe(responder);
  }

  private holdsName(name: string): boolean {
    return sameName(name, this.fullInstanceName()) || sameName(name, this.hostTarget);
  }

  /** Whether a record is one the relay sends itself, on any of its interfaces (a socket hears the others' packets). */
  private isOurs(record: DataRecord): boolean {
    if (this.port === undefined) return false;
    return [...this.responders.keys()].some((address) =>
      allRecords(this.records(address, this.port!)).some((own) => sameRecord(own, record)),
    );
  }

  private recentConflicts(): number {
    return this.conflicts.filter((at) => at > Date.now() - CONFLICT_WINDOW_MS).length;
  }

  private readyResponders(): Responder[] {
    return [...this.responders.values()].filter((responder) => responder.ready);
  }

  private later(responder: Responder, delayMs: number, send: () => void): void {
    const timer = setTimeout(() => {
      responder.timers.delete(timer);
      send();
    }, delayMs).unref();
    responder.timers.add(timer);
  }

  private stopSending(responder: Responder): void {
    for (const timer of responder.timers) clearTimeout(timer);
    responder.timers.clear();
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
    this.later(responder, ANNOUNCEMENT_GAP_MS, send);
  }

  /** Goodbyes (the records with a TTL of 0) on every interface, which stops probing and announcing. */
  private async sayGoodbye(): Promise<void> {
    for (const responder of this.responders.values()) this.stopSending(responder);
    const port = this.port!;
    const goodbyes = this.readyResponders().map(
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

  private fullInstanceName(): string {
    return `${this.instanceName}.${SERVICE_DOMAIN}`;
  }

  private records(address: string, port: number): ServiceRecords {
    const instance = this.fullInstanceName();
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

function allRecords(records: ServiceRecords): DataRecord[] {
  return [records.servicePointer, records.enumerationPointer, records.service, records.text, records.address];
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The same record, as sent or as heard back: TXT strings come back as buffers, names in any case. */
function sameRecord(own: DataRecord, heard: DataRecord): boolean {
  if (own.type !== heard.type || !sameName(own.name, heard.name)) return false;
  if (own.type === 'TXT') return Buffer.concat(textStrings(own.data)).equals(Buffer.concat(textStrings(heard.data)));
  if (own.type === 'SRV') {
    const [mine, theirs] = [own.data, heard.data] as { port: number; target: string }[];
    return mine!.port === theirs!.port && sameName(mine!.target, theirs!.target);
  }
  return own.data === heard.data;
}

/** The answers to a query's questions, with the records a browser asks for next as additionals (RFC 6763 §12). */
function replyTo(
  questions: readonly DnsQuestion[],
  records: ServiceRecords,
): { answers: DataRecord[]; additionals: DataRecord[] } | undefined {
  const answers = new Set<DataRecord>();
  for (const question of questions) {
    // dns-packet decodes type 255 as ANY, which its typings leave out.
    const askedType: string = question.type;
    for (const record of allRecords(records)) {
      const typeMatches = askedType === 'ANY' || askedType === record.type;
      if (typeMatches && sameName(record.name, question.name)) answers.add(record);
    }
  }
  if (answers.size === 0) return undefined;
  const additionals = new Set<DataRecord>();
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
