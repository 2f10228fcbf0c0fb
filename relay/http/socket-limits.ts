// Limits for WebSockets that have not authenticated yet (/relay and /ws/api): small frames, and few of them at once.
import type { WebSocket } from 'ws';

/** The largest frame a socket may send before it has authenticated: an auth frame is a few hundred bytes. */
export const UNAUTHENTICATED_FRAME_BYTES = 64 * 1024;
/** How many sockets may wait for their auth frame at once, over /relay and /ws/api together. */
export const MAX_UNAUTHENTICATED_SOCKETS = 32;
/** How many of those one address may hold, so that one machine on the LAN cannot keep every world from connecting. */
export const MAX_UNAUTHENTICATED_PER_ADDRESS = 8;
const TOO_MANY_WAITING = `Too many connections are waiting to authenticate (at most ${MAX_UNAUTHENTICATED_SOCKETS}); try again in a few seconds`;
const TOO_MANY_WAITING_HERE = `Too many connections from this address are waiting to authenticate (at most ${MAX_UNAUTHENTICATED_PER_ADDRESS}); authenticate or close one, then try again`;

/**
 * Lets an authenticated socket send larger frames. ws fixes the limit per server (`maxPayload`) and has no public way to
 * change it on an open socket (its maintainers declined one, websockets/ws#1473), while the module protocol authenticates
 * with the first frame; so this sets the receiver's limit directly, and fails loudly if ws ever keeps it elsewhere.
 */
export function raiseFrameLimit(socket: WebSocket, bytes: number): void {
  const receiver = (socket as unknown as { _receiver?: { _maxPayload?: unknown } })._receiver;
  if (typeof receiver?._maxPayload !== 'number') {
    throw new Error(
      'This version of ws keeps its frame limit elsewhere: update raiseFrameLimit in relay/http/socket-limits.ts',
    );
  }
  receiver._maxPayload = bytes;
}

/** Counts the sockets waiting to authenticate, in all and per address, so that few hold a place at once. */
export class UnauthenticatedSockets {
  private waiting = 0;
  private readonly waitingFrom = new Map<string, number>();

  /** Why one more socket from this address may not wait for its auth frame; undefined when it may. */
  refusal(address: string): string | undefined {
    if (this.waiting >= MAX_UNAUTHENTICATED_SOCKETS) return TOO_MANY_WAITING;
    if ((this.waitingFrom.get(address) ?? 0) >= MAX_UNAUTHENTICATED_PER_ADDRESS) return TOO_MANY_WAITING_HERE;
    return undefined;
  }

  /** Holds a place until the returned release is called (the socket authenticated) or the socket closes. */
  hold(socket: WebSocket, address: string): () => void {
    this.count(address, 1);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.count(address, -1);
    };
    socket.once('close', release);
    return release;
  }

  private count(address: string, change: 1 | -1): void {
    this.waiting += change;
    const fromAddress = (this.waitingFrom.get(address) ?? 0) + change;
    if (fromAddress > 0) this.waitingFrom.set(address, fromAddress);
    else this.waitingFrom.delete(address);
  }
}
