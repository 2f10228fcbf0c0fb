// Limits for WebSockets that have not authenticated yet (/relay and /ws/api): small frames, and few of them at once.
import type { WebSocket } from 'ws';
import { addressGroup, isLoopback } from './addresses.ts';

/** The largest frame a socket may send before it has authenticated: an auth frame is a few hundred bytes. */
export const UNAUTHENTICATED_FRAME_BYTES = 64 * 1024;
/** How many sockets may wait for their auth frame at once, over /relay and /ws/api together. */
export const MAX_UNAUTHENTICATED_SOCKETS = 32;
/** Places beyond those, kept for this computer and for paired worlds, so that strangers filling the rest lock no world out. */
export const KEPT_FOR_KNOWN_SOCKETS = 16;
/** How many of those one address (an IPv6 /64) may hold, so that one machine cannot keep every world from connecting. */
export const MAX_UNAUTHENTICATED_PER_ADDRESS = 8;
/**
 * Places apart for web pages a world was not paired on: /relay reads their auth frame only to tell them why they are
 * refused, so that a page with a dead token learns it must pair again, and such pages never take a place a world needs.
 */
export const MAX_REFUSED_PAGE_SOCKETS = 8;
/** How many addresses of paired worlds are remembered: far more than a GM has worlds. */
const REMEMBERED_WORLD_ADDRESSES = 64;
const TOO_MANY_WAITING = `Too many connections are waiting to authenticate (at most ${MAX_UNAUTHENTICATED_SOCKETS}); try again in a few seconds`;
const TOO_MANY_WAITING_HERE = `Too many connections from this address are waiting to authenticate (at most ${MAX_UNAUTHENTICATED_PER_ADDRESS}); authenticate or close one, then try again`;
const TOO_MANY_REFUSED_PAGES = `Too many web pages this world was not paired on are connecting (at most ${MAX_REFUSED_PAGE_SOCKETS}); try again in a few seconds`;

/** Who opens a socket: its address, and the web page it comes from (a browser's Origin), if any. */
export interface WaitingPeer {
  address: string;
  origin: string | undefined;
  /** A web page that may not open this socket: it waits among the MAX_REFUSED_PAGE_SOCKETS places apart. */
  pageRefused?: boolean;
}

/**
 * Lets an authenticated socket send larger frames. ws fixes the limit per server (`maxPayload`) and has no public way to
 * change it on an open socket (its maintainers declined one, websockets/ws#1473), while the module protocol authenticates
 * with the first frame; so this sets the receiver's limit directly, and fails loudly if ws ever keeps it elsewhere.
 */
export function raiseFrameLimit(socket: WebSocket, bytes: number): void {
  const receiver = (socket as unknown as { _receiver?: { _maxPayload?: unknown } })._receiver;
  if (typeof receiver?._maxPayload !== 'number') {
    throw new Error(
      'This version of ws keeps its frame limit elsewhere: update raiseFrameLimit in relay/gate/socket-limits.ts',
    );
  }
  receiver._maxPayload = bytes;
}

/**
 * Counts the sockets waiting to authenticate, in all and per address, so that few hold a place at once. Strangers share
 * MAX_UNAUTHENTICATED_SOCKETS places; this computer and paired worlds (the addresses their connection tokens connected
 * from in this run, and the Foundry pages they were paired from) may take KEPT_FOR_KNOWN_SOCKETS more.
 */
export class UnauthenticatedSockets {
  private waiting = 0;
  private refusedPagesWaiting = 0;
  private readonly waitingFrom = new Map<string, number>();
  private readonly worldAddresses = new Set<string>();
  private readonly isPairedOrigin: (origin: string) => boolean;

  constructor(isPairedOrigin: (origin: string) => boolean) {
    this.isPairedOrigin = isPairedOrigin;
  }

  /** Remembers the address a world connected from with its connection token, so it finds a place when it comes back. */
  noteWorldAddress(address: string): void {
    const group = addressGroup(address);
    this.worldAddresses.delete(group);
    this.worldAddresses.add(group);
    if (this.worldAddresses.size > REMEMBERED_WORLD_ADDRESSES) {
      this.worldAddresses.delete(this.worldAddresses.values().next().value!);
    }
  }

  /** Why one more socket from this peer may not wait for its auth frame; undefined when it may. */
  refusal(peer: WaitingPeer): string | undefined {
    if (peer.pageRefused)
      return this.refusedPagesWaiting >= MAX_REFUSED_PAGE_SOCKETS ? TOO_MANY_REFUSED_PAGES : undefined;
    const places = this.isKnown(peer)
      ? MAX_UNAUTHENTICATED_SOCKETS + KEPT_FOR_KNOWN_SOCKETS
      : MAX_UNAUTHENTICATED_SOCKETS;
    if (this.waiting >= places) return TOO_MANY_WAITING;
    const fromAddress = this.waitingFrom.get(addressGroup(peer.address)) ?? 0;
    if (fromAddress >= MAX_UNAUTHENTICATED_PER_ADDRESS) return TOO_MANY_WAITING_HERE;
    return undefined;
  }

  /** Holds a place until the returned release is called (the socket authenticated) or the socket closes. */
  hold(socket: WebSocket, address: string): () => void {
    const group = addressGroup(address);
    return this.held(socket, (change) => this.count(group, change));
  }

  /** Holds one of the places apart for web pages that may not open the socket, as `hold` does. */
  holdRefusedPage(socket: WebSocket): () => void {
    return this.held(socket, (change) => (this.refusedPagesWaiting += change));
  }

  private held(socket: WebSocket, count: (change: 1 | -1) => void): () => void {
    count(1);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      count(-1);
    };
    socket.once('close', release);
    return release;
  }

  /** This computer, or a paired world by its address or its Foundry page. */
  private isKnown(peer: WaitingPeer): boolean {
    if (isLoopback(peer.address) || this.worldAddresses.has(addressGroup(peer.address))) return true;
    return peer.origin !== undefined && this.isPairedOrigin(peer.origin);
  }

  private count(group: string, change: 1 | -1): void {
    this.waiting += change;
    const fromAddress = (this.waitingFrom.get(group) ?? 0) + change;
    if (fromAddress > 0) this.waitingFrom.set(group, fromAddress);
    else this.waitingFrom.delete(group);
  }
}
