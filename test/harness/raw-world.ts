import { WebSocket } from 'ws';

/** A world at the frame level: opens /relay with chosen query parameters and records everything it receives. */
export class RawWorld {
  readonly socket: WebSocket;
  readonly received: any[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  constructor(
    wsBase: string,
    query: Record<string, string>,
    options: { localAddress?: string; path?: string; origin?: string } = {},
  ) {
    const url = new URL(options.path ?? '/relay', wsBase);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    this.socket = new WebSocket(url, { localAddress: options.localAddress, origin: options.origin });
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.socket.on('message', (data) => {
      this.received.push(JSON.parse(data.toString()));
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    this.socket.on('error', () => {});
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits until a received message matches, and returns it. */
  async next(match: (message: any) => boolean, timeoutMs = 3000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; received ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** Opens /relay as a 3.x module would and authenticates with the token. */
export async function connectRawWorld(
  wsBase: string,
  clientId: string,
  token: string,
  options: { localAddress?: string } = {},
): Promise<RawWorld> {
  const world = new RawWorld(
    wsBase,
    { id: clientId, worldId: 'raw-world', worldTitle: 'Raw World', foundryVersion: '13.348', systemId: 'dnd5e' },
    options,
  );
  await world.opened;
  world.send({ type: 'auth', token });
  await world.next((message) => message.type === 'auth-success');
  return world;
}
