// The test's side of test/security/peer-sockets.ts: WebSockets and idle TCP connections opened from the LAN peer's
// addresses, driven from the test and reported back.
import { join } from 'node:path';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { LanPeer } from '../ui/lan-peer.ts';

export interface PeerReport {
  id?: string;
  event: string;
  status?: number;
  body?: string;
  code?: number;
  text?: string;
  connected?: number;
  open?: number;
}

/** What became of a WebSocket the peer opened: it opened, or the relay answered the upgrade with an error. */
export type Outcome = 'open' | { status: number; error: string };

export class RemoteSockets {
  private readonly child: ChildProcessWithoutNullStreams;
  readonly reports: PeerReport[] = [];
  private waiters: Array<() => void> = [];
  private nextId = 0;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    createInterface({ input: child.stdout }).on('line', (line) => {
      this.reports.push(JSON.parse(line) as PeerReport);
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  static async start(peer: LanPeer): Promise<RemoteSockets> {
    const remote = new RemoteSockets(peer.node([join(import.meta.dirname, 'peer-sockets.ts')]));
    await remote.waitFor((report) => report.event === 'ready', 10_000);
    return remote;
  }

  /** Opens a WebSocket from the peer; resolves with its id. */
  open(
    url: string,
    options: { localAddress?: string; origin?: string; headers?: Record<string, string> } = {},
  ): string {
    const id = `socket-${(this.nextId += 1)}`;
    this.order({ op: 'ws', id, url, ...options });
    return id;
  }

  async outcome(id: string, timeoutMs = 5000): Promise<Outcome> {
    const report = await this.waitFor(
      (candidate) => candidate.id === id && ['open', 'refused', 'error'].includes(candidate.event),
      timeoutMs,
    );
    if (report.event === 'open') return 'open';
    return {
      status: report.status ?? 0,
      error: report.body ? (JSON.parse(report.body) as { error: string }).error : '',
    };
  }

  send(id: string, message: unknown): void {
    this.order({ op: 'send', id, text: JSON.stringify(message) });
  }

  /** The first message on a socket that matches, parsed. */
  async message(id: string, match: (message: any) => boolean, timeoutMs = 5000): Promise<any> {
    const report = await this.waitFor(
      (candidate) => candidate.id === id && candidate.event === 'message' && match(JSON.parse(candidate.text!)),
      timeoutMs,
    );
    return JSON.parse(report.text!);
  }

  /** Opens a plain TCP connection from the peer; resolves with its id once it is open. */
  async openTcp(host: string, port: number, localAddress?: string): Promise<string> {
    const id = `tcp-${(this.nextId += 1)}`;
    this.order({ op: 'tcp', id, host, port, localAddress });
    await this.waitFor((report) => report.id === id && report.event === 'open', 5000);
    return id;
  }

  /** Writes on a plain connection and resolves with all it received until the first answer's head came, or it closed. */
  async request(id: string, text: string, timeoutMs = 5000): Promise<string> {
    const since = this.reports.length;
    this.order({ op: 'write', id, text });
    await this.waitFor(
      (report) =>
        report.id === id &&
        (report.event === 'close' || (report.event === 'data' && report.text!.includes('\r\n\r\n'))),
      timeoutMs,
      since,
    );
    return this.reports
      .slice(since)
      .filter((report) => report.id === id && report.event === 'data')
      .map((report) => report.text)
      .join('');
  }

  close(id: string): void {
    this.order({ op: 'close', id });
  }

  /** Opens `perAddress` idle TCP connections from each address, and says how many the relay kept open. */
  async flood(host: string, port: number, localAddresses: string[], perAddress: number): Promise<PeerReport> {
    const since = this.reports.length;
    this.order({ op: 'flood', host, port, localAddresses, perAddress });
    return this.waitFor((report) => report.event === 'flooded', 60_000, since);
  }

  /** How many of the flood's connections are still open. */
  async floodOpen(): Promise<number> {
    const since = this.reports.length;
    this.order({ op: 'count' });
    return (await this.waitFor((report) => report.event === 'count', 10_000, since)).open!;
  }

  async endFlood(): Promise<void> {
    const since = this.reports.length;
    this.order({ op: 'unflood' });
    await this.waitFor((report) => report.event === 'unflooded', 10_000, since);
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  async waitFor(match: (report: PeerReport) => boolean, timeoutMs: number, since = 0): Promise<PeerReport> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.reports.slice(since).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`The peer reported nothing matching within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
    }
  }

  private order(order: object): void {
    this.child.stdin.write(`${JSON.stringify(order)}\n`);
  }
}
