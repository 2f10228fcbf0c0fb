// How many TCP connections the relay holds open at once, whatever they carry (HTTP, event streams, WebSockets), so that
// no flood of connections uses up the process's file descriptors.
import type { Socket } from 'node:net';
import type { RelayLog } from '../log.ts';
import { addressGroup, isLoopback } from './addresses.ts';

/** Open connections in all: far below any system's descriptor limit, far above what a GM's table opens. */
export const MAX_CONNECTIONS = 1024;
/** Of those, the places only this computer may take, so a flood from the LAN never shuts out the GM's own tools. */
export const KEPT_FOR_LOOPBACK = 256;
/**
 * What one LAN address (an IPv6 /64) may hold: a browser opens 6 connections per host plus its event streams and
 * sockets, a tool a few.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 64;
/** At most one log line per this long about refused connections, however many there were. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * Admits a connection only while there is room for it: in all, and for a LAN address within its share; a refused
 * connection is closed at once, before a byte of it is read.
 */
export class ConnectionLimits {
  private open = 0;
  private openFromLan = 0;
  private readonly openFrom = new Map<string, number>();
  private readonly log: RelayLog;
  private refusedSinceLog = 0;
  private lastLogAt = -Infinity;

  constructor(log: RelayLog) {
    this.log = log;
  }

  /** Counts the connection until it closes, or closes it now when there is no room; true when it was admitted. */
  admit(socket: Socket): boolean {
    const fromLan = !isLoopback(socket.remoteAddress);
    const group = addressGroup(socket.remoteAddress);
    const refusal = this.refusal(fromLan, group);
    if (refusal !== undefined) {
      socket.destroy();
      this.noteRefusal(refusal);
      return false;
    }
    this.count(fromLan, group, 1);
    socket.once('close', () => this.count(fromLan, group, -1));
    return true;
  }

  private refusal(fromLan: boolean, group: string): string | undefined {
    if (this.open >= MAX_CONNECTIONS) return `${MAX_CONNECTIONS} connections are open`;
    if (!fromLan) return undefined;
    if (this.openFromLan >= MAX_CONNECTIONS - KEPT_FOR_LOOPBACK) {
      return `${MAX_CONNECTIONS - KEPT_FOR_LOOPBACK} connections from the LAN are open`;
    }
    if ((this.openFrom.get(group) ?? 0) >= MAX_CONNECTIONS_PER_ADDRESS) {
      return `${MAX_CONNECTIONS_PER_ADDRESS} connections from ${group} are open`;
    }
    return undefined;
  }

  private count(fromLan: boolean, group: string, change: 1 | -1): void {
    this.open += change;
    if (!fromLan) return;
    this.openFromLan += change;
    const fromAddress = (this.openFrom.get(group) ?? 0) + change;
    if (fromAddress > 0) this.openFrom.set(group, fromAddress);
    else this.openFrom.delete(group);
  }

  private noteRefusal(reason: string): void {
    this.refusedSinceLog += 1;
    const now = performance.now();
    if (now - this.lastLogAt < REFUSAL_LOG_INTERVAL_MS) return;
    this.log.warn(
      `Refused ${this.refusedSinceLog} connection(s) since the last such line, the latest because ${reason}: a device is opening too many at once`,
    );
    this.refusedSinceLog = 0;
    this.lastLogAt = now;
  }
}
