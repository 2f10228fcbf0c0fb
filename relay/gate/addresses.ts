import { currentAddresses } from './interfaces.ts';

/** An address without the IPv4-mapped IPv6 prefix, so 127.0.0.1 over IPv4 and IPv6 sockets compare equal. */
export function normalisedAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = normalisedAddress(address);
  return plain === '::1' || plain.startsWith('127.');
}

/**
 * The machine an address stands for when counting what one machine holds: an IPv4 address as it is, an IPv6 address
 * by its /64, since one machine is handed a whole /64 and picks new addresses in it at will (privacy addresses).
 */
export function addressGroup(address: string | undefined): string {
  const plain = normalisedAddress(address);
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('%')[0]!.toLowerCase().split('::');
  const leading = head === '' ? [] : head.split(':');
  const trailing = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? [] : Array<string>(Math.max(0, 8 - leading.length - trailing.length)).fill('0');
  const groups = [...leading, ...missing, ...trailing].slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/64`;
}

/** Whether the address is one of this computer's own: loopback, or an address of one of its network interfaces. */
export function isThisComputer(address: string | undefined): boolean {
  if (isLoopback(address)) return true;
  const plain = normalisedAddress(address);
  return currentAddresses().some((own) => own.address === plain);
}
