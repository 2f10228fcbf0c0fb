import { currentAddresses } from '../gate/interfaces.ts';

/** One IPv4 address of this computer on a network other than loopback, with its network's mask. */
export interface LanInterface {
  address: string;
  netmask: string;
}

export function lanInterfaces(): LanInterface[] {
  return currentAddresses()
    .filter((entry) => !entry.internal && entry.family === 'IPv4')
    .map((entry) => ({ address: entry.address, netmask: entry.netmask }));
}

function ipv4Number(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** Whether `address` (IPv4, or IPv4-mapped IPv6) lies on the network of `lanInterface`. */
export function onNetworkOf(lanInterface: LanInterface, address: string): boolean {
  const other = ipv4Number(address.startsWith('::ffff:') ? address.slice(7) : address);
  const own = ipv4Number(lanInterface.address);
  const mask = ipv4Number(lanInterface.netmask);
  if (other === undefined || own === undefined || mask === undefined) return false;
  return (other & mask) >>> 0 === (own & mask) >>> 0;
}
