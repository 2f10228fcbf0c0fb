// Where the relay listens and whether it answers: on loopback, and on each LAN address while LAN access is on (or on
// the one host of a run). A move of the port or of LAN access binds everything new before the setting is stored and
// only then closes what is old; LAN addresses are followed as they come and go; the LAN advertisement keeps in step.
import { HttpError } from '../errors.ts';
import type { RelayLog } from '../log.ts';
import type { ListenPlace, RelayNetwork } from '../services.ts';
import type { Settings } from '../storage/settings.ts';
import { LanDiscovery } from '../discovery/lan-discovery.ts';
import { lanInterfaces } from '../discovery/lan-interfaces.ts';
import { BindError, Listener, type ListenChange, type ListenerHandlers } from './listener.ts';
import { lanListenAddresses, loopbackAddresses } from '../gate/interfaces.ts';

const LOOPBACK = '127.0.0.1';
/** How many ports after a taken one the desktop app tries before it lets the system pick any free port. */
const NEXT_PORTS_TRIED = 20;
const EVERY_ADDRESS = new Set(['0.0.0.0', '::']);
/** How often the LAN addresses are looked at again, so a network joined later (Wi-Fi) reaches the relay too. */
const ADDRESS_SCAN_MS = 10_000;

export interface NetworkOptions {
  settings: Settings;
  /** Listen here for this run instead of on the port setting (never stored); 0 picks a free port. */
  port?: number;
  /** Listen on this one address whatever the LAN access setting says (see RelayOptions.host). */
  host?: string;
  /** A port another program holds at start gives the next free one, said in the status (`portFallback`). */
  nextFreePortIfTaken?: boolean;
  log: RelayLog;
  /** Told whenever what the tray and the settings UI show may have changed. */
  changed: () => void;
}

/** What the relay's servers answer, and the limits every connection passes first. */
export type NetworkHandlers = Omit<ListenerHandlers, 'log'>;

export class Network implements RelayNetwork {
  private readonly options: NetworkOptions;
  private readonly discovery: LanDiscovery;
  private listener: Listener | undefined;
  private isPaused = false;
  private fallback: { wanted: number } | undefined;
  private moving: Promise<void> = Promise.resolve();
  private addressScan: NodeJS.Timeout | undefined;

  constructor(options: NetworkOptions) {
    this.options = options;
    // Advertised over mDNS while the LAN can reach the relay and it answers calls; a paused relay is withdrawn.
    this.discovery = new LanDiscovery(
      () => (this.listener?.listening && this.lanAccess() && !this.isPaused ? this.port() : undefined),
      options.log,
    );
  }

  /** Gives the servers their handlers; the relay composes them once its services, this network among them, exist. */
  serve(handlers: NetworkHandlers): void {
    this.listener = new Listener({ ...handlers, log: this.options.log });
  }

  url(): string {
    const { host } = this.options;
    return this.urlOf(host === undefined || EVERY_ADDRESS.has(host) ? LOOPBACK : host);
  }

  lanUrls(): string[] {
    return this.lanAccess() ? lanAddresses().map((address) => this.urlOf(address)) : [];
  }

  lanAccess(): boolean {
    const { host } = this.options;
    return host === undefined ? this.options.settings.get().lanAccess : EVERY_ADDRESS.has(host);
  }

  port(): number {
    return this.listener?.port ?? this.options.port ?? this.options.settings.get().port;
  }

  portFallback(): { wanted: number } | undefined {
    return this.fallback;
  }

  moveTo(place: ListenPlace, commit: () => void): Promise<void> {
    return this.oneMoveAtATime(() => this.move(place, commit));
  }

  paused(): boolean {
    return this.isPaused;
  }

  setPaused(on: boolean): void {
    this.isPaused = on;
    this.options.changed();
    void this.discovery.update();
  }

  /**
   * Listens on the port (or the next free one, where the options allow), then on the LAN addresses as far as they can
   * be had, follows them as they change, and advertises the relay on the LAN when it may.
   */
  async start(): Promise<void> {
    const { settings, log } = this.options;
    const listener = this.served();
    const wanted = this.options.port ?? settings.get().port;
    // Both loopback addresses (or the run's host) must be had, so that no other program answers tools that reach
    // `localhost` on ::1; the LAN addresses are listened on as far as they can be.
    const own = this.ownHosts();
    try {
      (await listener.prepare(wanted, own)).keep();
    } catch (error) {
      if (!this.options.nextFreePortIfTaken || (error as BindError).code !== 'EADDRINUSE') throw error;
      (await this.listenOnNextFree(wanted, own)).keep();
      this.fallback = { wanted };
      log.warn(`Port ${wanted} is in use by another program; the relay listens on ${this.port()} instead`);
    }
    await this.rescanAddresses();
    this.addressScan = setInterval(() => {
      this.rescanAddresses().catch((error: unknown) => log.error('Could not listen on new LAN addresses:', error));
    }, ADDRESS_SCAN_MS).unref();
    await this.discovery.update();
  }

  /** Withdraws the LAN advertisement and stops following the LAN addresses: the first step of the relay's stop. */
  async withdraw(): Promise<void> {
    await this.discovery.stop();
    clearInterval(this.addressScan);
  }

  /** Stops listening and ends every open connection. */
  async close(): Promise<void> {
    await this.listener?.close();
  }

  private served(): Listener {
    if (!this.listener) throw new Error('The network has no handlers to serve: call serve() before start()');
    return this.listener;
  }

  private urlOf(host: string): string {
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port()}`;
  }

  /** This computer's own addresses, which the relay must hold to run: both loopbacks, or the one host of this run. */
  private ownHosts(): string[] {
    return this.options.host !== undefined ? [this.options.host] : loopbackAddresses();
  }

  /** Where the relay listens with LAN access on or off: the own hosts, and each LAN address of either family. */
  private hostsFor(lanAccess: boolean): string[] {
    return this.options.host === undefined && lanAccess
      ? [...this.ownHosts(), ...lanListenAddresses()]
      : this.ownHosts();
  }

  private oneMoveAtATime(move: () => Promise<void>): Promise<void> {
    const done = this.moving.then(move);
    this.moving = done.catch(() => undefined);
    return done;
  }

  // Everything new is bound before the setting is stored, and only then does the old listener close (open streams and
  // world links carry on where they are): a change either happens whole or not at all, and the relay always listens.
  private async move(place: ListenPlace, commit: () => void): Promise<void> {
    const oldPort = this.port();
    const newPort = place.port ?? oldPort;
    let change: ListenChange;
    try {
      const after = this.options.settings.after(place.lanAccess === undefined ? {} : { lanAccess: place.lanAccess });
      change = await this.served().prepare(newPort, this.hostsFor(after.lanAccess));
    } catch (error) {
      throw error instanceof BindError ? refusedMove(error, oldPort, place) : error;
    }
    try {
      commit();
    } catch (error) {
      change.undo();
      throw error;
    }
    change.keep();
    if (place.port !== undefined) this.fallback = undefined;
    this.options.changed();
    await this.discovery.update();
  }

  /** LAN addresses come and go (Wi-Fi, DHCP): each new one is listened on, as far as it can be, and a gone one let go. */
  private rescanAddresses(): Promise<void> {
    return this.oneMoveAtATime(async () => {
      const listener = this.served();
      const hosts = this.hostsFor(this.lanAccess());
      if (!listener.listening || sameHosts(hosts, listener.hosts())) return;
      (await listener.prepare(this.port(), hosts, { partly: true })).keep();
      this.options.changed();
    });
  }

  private async listenOnNextFree(taken: number, hosts: string[]): Promise<ListenChange> {
    const listener = this.served();
    for (let candidate = taken + 1; candidate <= Math.min(taken + NEXT_PORTS_TRIED, 65535); candidate += 1) {
      try {
        return await listener.prepare(candidate, hosts);
      } catch (error) {
        if ((error as BindError).code !== 'EADDRINUSE') throw error;
      }
    }
    return listener.prepare(0, hosts);
  }
}

function lanAddresses(): string[] {
  return lanInterfaces().map((lanInterface) => lanInterface.address);
}

function sameHosts(wanted: readonly string[], bound: readonly string[]): boolean {
  return wanted.length === bound.length && wanted.every((host) => bound.includes(host));
}

/** The 409 of a move that could not be bound, saying what stays as it was and what the GM can do. */
function refusedMove(error: BindError, oldPort: number, place: ListenPlace): HttpError {
  const inUse = error.code === 'EADDRINUSE';
  if (error.port !== oldPort) {
    return new HttpError(
      409,
      inUse
        ? `Port ${error.port} is in use by another program; the relay stays on ${oldPort}. Pick another port, or close that program first`
        : `Port ${error.port} cannot be listened on (${error.code}); the relay stays on ${oldPort}. Pick another port`,
    );
  }
  const unchanged = place.lanAccess ? 'LAN access stays off' : 'nothing was changed';
  return new HttpError(
    409,
    inUse
      ? `Another program holds port ${error.port} on ${error.host}, so ${unchanged}. Close that program, or move the relay to another port first`
      : `The relay cannot listen on ${error.host}:${error.port} (${error.code}), so ${unchanged}. Try again in a moment, or move the relay to another port first`,
  );
}
