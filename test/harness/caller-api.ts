import { WebSocket } from 'ws';

/** A /ws/api caller that records every message and how the socket closed. */
export class ApiSocket {
  readonly socket: WebSocket;
  readonly received: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.socket = new WebSocket(url, { headers });
    this.socket.on('message', (data) => this.received.push(JSON.parse(data.toString())));
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens /ws/api with the key in the x-api-key header and waits for `connected`. */
  static async open(wsBase: string, key: string): Promise<ApiSocket> {
    const caller = new ApiSocket(`${wsBase}/ws/api`, { 'x-api-key': key });
    await caller.next((message) => message.type === 'connected');
    return caller;
  }

  /** Waits until the socket is open, for callers that authenticate with a frame of their own. */
  async opened(): Promise<this> {
    await new Promise((resolve, reject) => {
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
    });
    return this;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async next(match: (message: any) => boolean, timeoutMs = 3000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching message in ${JSON.stringify(this.received).slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** Settles with the promise's value, or fails with `what` when it takes longer than `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
