import { HttpError } from '../errors.ts';
import type { WorldMessage, WorldRequest } from '../../contracts/world-protocol.ts';

/** A world's answer: the parsed message and the text it arrived as, so the text can be passed on without re-encoding. */
export interface WorldReply {
  message: WorldMessage;
  text: string;
}

interface Pending {
  clientId: string;
  resolve(reply: WorldReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Requests sent to worlds and not yet answered, each with its own deadline. */
export class PendingRequests {
  private readonly pending = new Map<string, Pending>();
  private readonly lastMillisOf = new Map<string, number>();

  get size(): number {
    return this.pending.size;
  }

  /**
   * A request id of the form `<operation>_<epoch ms>` that this relay never gave before: when calls of one operation
   * land in the same millisecond, each later one takes the next millisecond.
   */
  nextRequestId(operation: string, now = Date.now()): string {
    const last = this.lastMillisOf.get(operation) ?? 0;
    const millis = now > last ? now : last + 1;
    this.lastMillisOf.set(operation, millis);
    return `${operation}_${millis}`;
  }

  wait(clientId: string, request: WorldRequest, timeoutMs: number): Promise<WorldReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(request.requestId);
        reject(new HttpError(408, 'Request timed out'));
      }, timeoutMs);
      this.pending.set(request.requestId, { clientId, resolve, reject, timer });
    });
  }

  /** Settles the request this reply answers; false when nothing waits for it (unknown, late or mismatched). */
  settle(clientId: string, reply: WorldReply): boolean {
    const requestId = reply.message.requestId;
    if (typeof requestId !== 'string') return false;
    const entry = this.pending.get(requestId);
    // The id alone identifies the answer: the module's last-round error path replies with another type.
    if (!entry || entry.clientId !== clientId) return false;
    this.pending.delete(requestId);
    clearTimeout(entry.timer);
    entry.resolve(reply);
    return true;
  }

  cancel(requestId: string): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    clearTimeout(entry.timer);
  }

  /** Fails at once every request waiting on a world that went away. */
  failWorld(clientId: string, error: Error): void {
    for (const [requestId, entry] of this.pending) {
      if (entry.clientId !== clientId) continue;
      this.pending.delete(requestId);
      clearTimeout(entry.timer);
      entry.reject(error);
    }
  }
}
