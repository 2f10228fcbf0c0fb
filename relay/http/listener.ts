// Where the relay listens: one HTTP server per address, all on one port. A change of addresses or port binds everything
// new before anything old closes, so the relay is never left listening nowhere, and a change that cannot be bound is
// undone whole.
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RelayLog } from '../log.ts';
import type { ConnectionLimits } from '../gate/connection-limits.ts';

/** A connection that sends nothing, or its headers too slowly, ends after this long (Node's default: 60 s). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How long a connection idles between requests; event streams and WebSockets are not idle and are never cut by it. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often the header deadlines are checked (Node's default: every 30 s, which would let a connection idle 40 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

export interface ListenerHandlers {
  request: RequestListener;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  connections: ConnectionLimits;
  log: RelayLog;
}

/** A bind that failed, with the address it was for, so the answer can name it. */
export class BindError extends Error {
  readonly host: string;
  readonly port: number;
  readonly code: string | undefined;

  constructor(host: string, port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(`Could not listen on ${host}:${port}: ${code ?? String(cause)}`, { cause });
    this.host = host;
    this.port = port;
    this.code = code;
  }
}

/** New servers, bound and not yet serving in place of the old ones: kept (the old ones close) or undone. */
export interface ListenChange {
  keep(): void;
  undo(): void;
}

export class Listener {
  private readonly handlers: ListenerHandlers;
  private servers = new Map<string, Server>();
  private boundPort: number | undefined;
  /** Binds a rescan could not make, logged once each. */
  private readonly reported = new Set<string>();

  constructor(handlers: ListenerHandlers) {
    this.handlers = handlers;
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  get listening(): boolean {
    return this.servers.size > 0;
  }

  hosts(): string[] {
    return [...this.servers.keys()];
  }

  /**
   * Binds `port` (0: any free one) on every host not bound on it yet. On a failure it closes what it bound and throws a
   * BindError, unless `partly` (a rescan of the interfaces), which keeps what it could bind and logs the rest. A LAN
   * address that went away since it was listed (after the first host, which must be had) is passed over either way.
   */
  async prepare(port: number, hosts: readonly string[], { partly = false } = {}): Promise<ListenChange> {
    const samePort = port === this.boundPort;
    const opened = new Map<string, Server>();
    let nextPort = port;
    for (const [index, host] of hosts.entries()) {
      if (samePort && this.servers.has(host)) continue;
      try {
        const server = await this.bind(nextPort, host);
        opened.set(host, server);
        nextPort = (server.address() as AddressInfo).port;
      } catch (error) {
        const gone = index > 0 && (error as BindError).code === 'EADDRNOTAVAIL';
        if (!partly && !gone) {
          for (const server of opened.values()) server.close();
          throw error;
        }
        const message = (error as Error).message;
        if (!this.reported.has(message)) this.handlers.log.warn(`${message}; the relay listens on its other addresses`);
        this.reported.add(message);
      }
    }
    const boundPort = nextPort;
    return {
      keep: () => {
        const old = this.servers;
        this.servers = new Map(
          hosts.flatMap((host) => {
            const server = opened.get(host) ?? (boundPort === this.boundPort ? old.get(host) : undefined);
            return server ? [[host, server] as const] : [];
          }),
        );
        for (const [host, server] of old) if (this.servers.get(host) !== server) server.close();
        this.boundPort = boundPort;
      },
      undo: () => {
        for (const server of opened.values()) server.close();
      },
    };
  }

  /** Stops listening and ends every open connection. */
  async close(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
  }

  private bind(port: number, host: string): Promise<Server> {
    const { request, upgrade, connections, log } = this.handlers;
    const server = createServer(
      { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 0, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
      request,
    );
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Before the HTTP parser takes the connection, so one refused costs no more than its accept.
    server.prependListener('connection', (socket) => connections.admit(socket));
    server.on('upgrade', upgrade);
    return new Promise((resolve, reject) => {
      server.once('error', (error) => reject(new BindError(host, port, error)));
      server.listen(port, host, () => {
        server.removeAllListeners('error');
        // Once listening, an error (a failed accept) is the server's, never the process's end.
        server.on('error', (error) => log.error(`The listener on ${host}:${port} failed:`, error));
        resolve(server);
      });
    });
  }
}
