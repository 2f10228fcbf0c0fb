import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

let lastKnown: NetworkInterfaceInfo[] = [];

/**
 * This computer's network addresses, loopback included. Reading them takes a socket, so it fails when the process has
 * no file descriptor left (a flood of connections): then the last list read stands, and no caller (the Host gate on
 * every request, the listener's and the LAN advertiser's timers) throws.
 */
export function currentAddresses(): readonly NetworkInterfaceInfo[] {
  try {
    lastKnown = Object.values(networkInterfaces()).flatMap((addresses) => addresses ?? []);
  } catch {
    // The last list read stands.
  }
  return lastKnown;
}

/** The loopback addresses the relay listens on: 127.0.0.1, and ::1 where this computer has IPv6. */
export function loopbackAddresses(): string[] {
  const hasIpv6Loopback = currentAddresses().some((entry) => entry.internal && entry.address === '::1');
  return hasIpv6Loopback ? ['127.0.0.1', '::1'] : ['127.0.0.1'];
}

/**
 * This computer's LAN addresses the relay listens on with LAN access on: IPv4 and IPv6, but IPv6 link-local ones
 * (fe80::/10), which a caller can reach only by naming the interface as well.
 */
export function lanListenAddresses(): string[] {
  return currentAddresses()
    .filter((entry) => !entry.internal && !(entry.family === 'IPv6' && /^fe[89ab]/i.test(entry.address)))
    .map((entry) => entry.address);
}
