import type { RelayLog } from '../log.ts';
import type { DiscoveryAdvertiser } from './advertiser.ts';

/**
 * Keeps the relay's LAN advertisement in step with the relay: advertised on the port it listens on while LAN access is
 * on and it is neither paused nor stopped, withdrawn otherwise. The advertiser and its mDNS library are loaded the
 * first time they are needed, so a relay that listens on loopback only never loads them.
 */
export class LanDiscovery {
  private readonly wantedPort: () => number | undefined;
  private readonly log: RelayLog;
  private advertiser: Promise<DiscoveryAdvertiser | undefined> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  /** `wantedPort` says the port to advertise, or undefined when the relay must not be advertised now. */
  constructor(wantedPort: () => number | undefined, log: RelayLog) {
    this.wantedPort = wantedPort;
    this.log = log;
  }

  /** Advertises or withdraws as `wantedPort` says now; resolves once done and never rejects. */
  update(): Promise<void> {
    this.queue = this.queue
      .then(() => this.apply())
      .catch((error: unknown) => this.log.warn(`Could not advertise the relay on the LAN: ${messageOf(error)}`));
    return this.queue;
  }

  /** Withdraws the advertisement for good: the relay stops. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.update();
  }

  private async apply(): Promise<void> {
    const port = this.stopped ? undefined : this.wantedPort();
    if (port === undefined && !this.advertiser) return;
    const advertiser = await this.loaded();
    if (port === undefined) await advertiser?.withdraw();
    else await advertiser?.advertise(port);
  }

  private loaded(): Promise<DiscoveryAdvertiser | undefined> {
    this.advertiser ??= import('./advertiser.ts').then(
      ({ DiscoveryAdvertiser }) => new DiscoveryAdvertiser({ log: this.log }),
      (error: unknown) => {
        this.advertiser = undefined;
        this.log.warn(`Could not load the LAN advertisement: ${messageOf(error)}`);
        return undefined;
      },
    );
    return this.advertiser;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
