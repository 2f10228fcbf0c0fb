// Item 37: a host on the LAN could answer for the relay's mDNS name, and the relay announced it all the same, so tools
// browsing for it found the other host. The relay now probes for its names before announcing them, takes the next name
// when another host answers for one, and probes again when another host claims one later (RFC 6762 §8–9). The other
// host is a machine of its own: an mDNS responder in the LAN peer's network namespace.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryAdvertiser } from '../../relay/discovery/advertiser.ts';
import type { RelayLog } from '../../relay/log.ts';
import { startMdnsBrowser, type ClaimedRecord, type HeardRecord, type MdnsBrowser } from '../harness/mdns-browser.ts';
import { createLanPeer } from '../ui/lan-peer.ts';

const SERVICE = '_tabletop-relay._tcp.local';
const PROBE_GAP_MS = 250;
/**
 * The relay sends each probe at least 250 ms after the one before; the other host notes them when its own busy
 * process gets to them, which on a loaded machine may make two look closer together than they were sent.
 */
const HEARING_SLACK_MS = 100;

// Without root and `ip` there is no other machine; in CI createLanPeer fails rather than skip.
const peer = await createLanPeer();
let rival: MdnsBrowser;
let advertiser: DiscoveryAdvertiser | undefined;
let logged: string[];

beforeAll(async () => {
  if (peer) rival = await startMdnsBrowser(peer.peerAddress, peer.namespace);
}, 30_000);
afterAll(async () => {
  await rival?.close();
  await peer?.close();
});
afterEach(async () => {
  await advertiser?.withdraw();
  advertiser = undefined;
});

/** The relay's advertiser on the interface the peer reaches, under a computer name no other test uses. */
function relayAdvertiser(computer: string): DiscoveryAdvertiser {
  logged = [];
  const note = (message: string) => void logged.push(message);
  const log: RelayLog = { info: note, warn: note, error: note };
  advertiser = new DiscoveryAdvertiser({
    log,
    interfaces: () => [{ address: peer!.hostAddress, netmask: '255.255.255.0' }],
    computerName: `${computer}-${process.pid}`,
  });
  return advertiser;
}

const instanceOf = (name: string) => `${name}.${SERVICE}`;

/** A live record of the relay's service under `instance`, sent from the relay's address. */
const liveService = (instance: string, port: number) => (record: HeardRecord) =>
  record.from === peer!.hostAddress &&
  record.type === 'SRV' &&
  record.name === instance &&
  record.data.port === port &&
  record.ttl > 0;

/** Records that claim `instance` for another host: its own port and host. */
function impostorRecords(instance: string): ClaimedRecord[] {
  return [
    { name: instance, type: 'SRV', ttl: 120, data: { port: 9, target: 'impostor.local', priority: 0, weight: 0 } },
    { name: instance, type: 'TXT', ttl: 4500, data: ['txtvers=1', 'api=/'] },
  ];
}

describe.skipIf(!peer)('item 37: the relay probes for its mDNS names and gives way to a host that holds one', () => {
  it('sends three probes 250 ms apart for its instance and host names, and announces only after them', async () => {
    const relay = relayAdvertiser('probing');
    const instance = instanceOf(relay.instanceName);
    const [heardFrom, queriedFrom] = [rival.heard.length, rival.queries.length];
    await relay.advertise(41_201);

    const announced = await rival.waitFor(liveService(instance, 41_201), { since: heardFrom });
    const probes = rival.queries
      .slice(queriedFrom)
      .filter((query) => query.from === peer!.hostAddress && query.at <= announced.at);
    expect(probes).toHaveLength(3);
    for (const probe of probes) {
      expect(probe.questions).toEqual([
        { name: instance, type: 'ANY' },
        { name: relay.hostTarget, type: 'ANY' },
      ]);
      expect(probe.authorities.map((record) => `${record.type} ${record.name}`)).toEqual([
        `SRV ${instance}`,
        `TXT ${instance}`,
        `A ${relay.hostTarget}`,
      ]);
      expect(probe.authorities[0]!.data).toMatchObject({ port: 41_201, target: relay.hostTarget });
    }
    const times = [...probes.map((probe) => probe.at), announced.at];
    for (let index = 1; index < times.length; index += 1)
      expect(times[index]! - times[index - 1]!).toBeGreaterThanOrEqual(PROBE_GAP_MS - HEARING_SLACK_MS);
    // Nothing of the relay's was heard before its probes were done.
    const ours = [instance, relay.hostTarget];
    const early = rival.heard
      .slice(heardFrom)
      .filter((record) => ours.includes(record.name) || ours.includes(record.data))
      .filter((record) => record.at < probes[2]!.at);
    expect(early).toEqual([]);
  });

  it('a host that answers for the instance name makes the relay announce "… (2)" and never the taken name', async () => {
    const relay = relayAdvertiser('taken');
    const taken = instanceOf(relay.instanceName);
    const renamed = instanceOf(`${relay.instanceName} (2)`);
    rival.claim(taken, impostorRecords(taken));
    const since = rival.heard.length;
    await relay.advertise(41_202);

    await rival.waitFor(liveService(renamed, 41_202), { since });
    expect(instanceOf(relay.instanceName)).toBe(renamed);
    const claimedTaken = rival.heard
      .slice(since)
      .filter((record) => record.from === peer!.hostAddress && record.name === taken && record.ttl > 0);
    expect(claimedTaken).toEqual([]);
    expect(logged).toContainEqual(expect.stringContaining(`answers for it): the relay is advertised as "`));

    // A browse finds the relay under its new name, pointing at its own port.
    const browsed = rival.heard.length;
    rival.query(SERVICE);
    await rival.waitFor(
      (record) => record.from === peer!.hostAddress && record.type === 'PTR' && record.data === renamed,
      { since: browsed },
    );
  });

  it('a host that claims the name once it is announced makes the relay probe again, then move to "… (2)"', async () => {
    const relay = relayAdvertiser('claimed-later');
    const first = instanceOf(relay.instanceName);
    let since = rival.heard.length;
    await relay.advertise(41_203);
    await rival.waitFor(liveService(first, 41_203), { since });

    since = rival.heard.length;
    const queriedFrom = rival.queries.length;
    rival.claim(first, impostorRecords(first), { announce: true });

    const renamed = instanceOf(`${relay.instanceName} (2)`);
    await rival.waitFor(liveService(renamed, 41_203), { since });
    // It probed again before giving the name up, said goodbye to what it had announced under it, and probed the new one.
    const probedFirst = rival.queries
      .slice(queriedFrom)
      .filter((query) => query.from === peer!.hostAddress && query.questions[0]?.name === first);
    expect(probedFirst.length).toBeGreaterThanOrEqual(1);
    await rival.waitFor(
      (record) =>
        record.from === peer!.hostAddress && record.name === first && record.type === 'SRV' && record.ttl === 0,
      { since },
    );
    const probedRenamed = rival.queries
      .slice(queriedFrom)
      .filter((query) => query.from === peer!.hostAddress && query.questions[0]?.name === renamed);
    expect(probedRenamed).toHaveLength(3);
  });
});
