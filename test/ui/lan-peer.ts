// A second machine for LAN tests, made of a network namespace and a veth pair with addresses of our own choosing:
// the relay's side gets 10.200.N.1 in this namespace, the peer 10.200.N.2 (and .3, .4, … when asked for more) in its
// own, and with `ipv6` fd00:7474:N::1 and fd00:7474:N::2, ::3, … in one /64. No traffic leaves the host.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LanPeer {
  /** The non-loopback address of this machine that the peer reaches the relay on. */
  hostAddress: string;
  peerAddress: string;
  /** Every IPv4 address of the peer, `peerAddress` first. */
  peerAddresses: string[];
  /** With `ipv6`: this machine's IPv6 address on the link, and the peer's, all in one /64. */
  hostIpv6Address?: string;
  peerIpv6Addresses: string[];
  /** The peer's network namespace, for running a program there with `ip netns exec`. */
  namespace: string;
  /** A GET from the peer's namespace; status 0 when the connection is refused or times out. */
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: string }>;
  /** Runs Node with these arguments on the peer, its stdio piped to this process. */
  node(args: string[]): ChildProcessWithoutNullStreams;
  close(): Promise<void>;
}

const PEER_GET = `
const [url, headers] = [process.argv[1], JSON.parse(process.argv[2])];
fetch(url, { headers, signal: AbortSignal.timeout(3000) })
  .then(async (response) => console.log(JSON.stringify({ status: response.status, body: await response.text() })))
  .catch(() => console.log(JSON.stringify({ status: 0, body: '' })));
`;

async function ip(...args: string[]): Promise<void> {
  await run('ip', args);
}

/**
 * Undefined where namespaces cannot be made (not root, no `ip`): the caller says what it checked instead. In CI it
 * throws instead.
 */
export async function createLanPeer(
  options: { peerAddresses?: number; ipv6?: boolean } = {},
): Promise<LanPeer | undefined> {
  const id = process.pid % 250;
  const namespace = `ttr-ui-${process.pid}`;
  const hostSide = `ttrh${process.pid}`.slice(0, 15);
  const peerSide = `ttrp${process.pid}`.slice(0, 15);
  const hostAddress = `10.200.${id}.1`;
  const peerAddresses = Array.from({ length: options.peerAddresses ?? 1 }, (_, index) => `10.200.${id}.${index + 2}`);
  const peerAddress = peerAddresses[0]!;
  const ipv6Prefix = `fd00:7474:${id.toString(16)}:`;
  const hostIpv6Address = options.ipv6 ? `${ipv6Prefix}:1` : undefined;
  const peerIpv6Addresses = options.ipv6 ? peerAddresses.map((_, index) => `${ipv6Prefix}:${index + 2}`) : [];
  const close = async () => {
    await run('ip', ['link', 'del', hostSide]).catch(() => undefined);
    await run('ip', ['netns', 'del', namespace]).catch(() => undefined);
  };
  try {
    await ip('netns', 'add', namespace);
    await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', peerSide);
    await ip('link', 'set', peerSide, 'netns', namespace);
    await ip('addr', 'add', `${hostAddress}/24`, 'dev', hostSide);
    await ip('link', 'set', hostSide, 'up');
    for (const address of peerAddresses) {
      await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/24`, 'dev', peerSide);
    }
    // nodad: usable at once, without the seconds of duplicate address detection.
    if (hostIpv6Address) await ip('addr', 'add', `${hostIpv6Address}/64`, 'dev', hostSide, 'nodad');
    for (const address of peerIpv6Addresses) {
      await ip('netns', 'exec', namespace, 'ip', 'addr', 'add', `${address}/64`, 'dev', peerSide, 'nodad');
    }
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', peerSide, 'up');
    await ip('netns', 'exec', namespace, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    await close();
    // CI runs as root with `ip` (.ci/run): there, a namespace that cannot be made is a failure, never a skipped test.
    if (process.env.CI)
      throw new Error(`Could not make the LAN peer's network namespace: ${String(error)}`, { cause: error });
    return undefined;
  }
  return {
    hostAddress,
    peerAddress,
    peerAddresses,
    hostIpv6Address,
    peerIpv6Addresses,
    namespace,
    async get(url, headers = {}) {
      const { stdout } = await run('ip', [
        'netns',
        'exec',
        namespace,
        process.execPath,
        '-e',
        PEER_GET,
        url,
        JSON.stringify(headers),
      ]);
      return JSON.parse(stdout) as { status: number; body: string };
    },
    node(args) {
      return spawn('ip', ['netns', 'exec', namespace, process.execPath, ...args]);
    },
    close,
  };
}
