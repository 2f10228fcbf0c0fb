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
