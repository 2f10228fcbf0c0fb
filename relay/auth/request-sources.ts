import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { HttpError } from '../errors.ts';
import { isLoopback, normalisedAddress } from '../gate/addresses.ts';
import type { RequestPlace } from './pairing-limits.ts';

/** Every loopback address is this computer: one place, however many of them a program on it binds. */
const THIS_COMPUTER = 'this computer';

/**
 * Who asks the GM for something (to pair a world, for a key): where the caps count them, which places are kept for the
 * GM's own (this computer, the addresses paired worlds are connected from), and the addresses the GM denied.
 * A denial lasts until the GM allows the address again or the relay stops: an address on a LAN is not a person, and
 * one denied for good would one day refuse the player the network hands it next.
 * Emits 'changed' when the denied addresses change.
 */
export class RequestSources extends EventEmitter<{ changed: [] }> {
  private readonly denied = new Set<string>();
  private readonly pairedWorldAddresses: () => Iterable<string>;

  constructor(pairedWorldAddresses: () => Iterable<string> = () => []) {
    super();
    this.pairedWorldAddresses = pairedWorldAddresses;
  }

  /**
   * Where a request from `address` counts; `page` sets apart the kind of web page that sent it (see
   * `Pairing.placeOf`), so that one kind of page cannot use up the places of another on the same address.
   */
  placeOf(address: string, page = ''): RequestPlace {
    const place = isLoopback(address) ? THIS_COMPUTER : address;
    const kept = place === THIS_COMPUTER || [...this.pairedWorldAddresses()].includes(address);
    return { place: page === '' ? place : `${place} ${page}`, kept };
  }

  /** Refuses (403) a request from an address the GM denied. */
  refuseDenied(address: string): void {
    if (!this.denied.has(address)) return;
    throw new HttpError(
      403,
      "The GM denied every request from this address in Tabletop Relay's settings; ask the GM to allow it again",
    );
  }

  /** Refuses every request from `address` from now on; this computer's own cannot be denied as a whole (400). */
  deny(address: string): string {
    const denied = addressOf(address);
    if (isLoopback(denied)) {
      throw new HttpError(
        400,
        "Requests from this computer come from the GM's own tools and browser: deny them one by one instead",
      );
    }
    if (!this.denied.has(denied)) {
      this.denied.add(denied);
      this.emit('changed');
    }
    return denied;
  }

  /** Takes requests from `address` again; false when it was not denied. */
  allow(address: string): boolean {
    const allowed = this.denied.delete(addressOf(address));
    if (allowed) this.emit('changed');
    return allowed;
  }

  deniedAddresses(): string[] {
    return [...this.denied];
  }
}

/** An IP address as the relay sees callers' (IPv4-mapped IPv6 as plain IPv4); a 400 for anything else. */
function addressOf(text: string): string {
  const address = normalisedAddress(text.trim().toLowerCase());
  if (isIP(address) === 0) throw new HttpError(400, `'address' must be an IP address, such as 192.168.1.20`);
  return address;
}
