// The relay's advertisement as another machine on the LAN hears it: an mDNS browser in the LAN peer's network
// namespace (a veth pair, see test/ui/lan-peer.ts) hears the relay while LAN access is on, and its goodbye when LAN
// access goes off, the port moves, the relay pauses or stops.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { startMdnsBrowser, type HeardRecord, type MdnsBrowser } from '../harness/mdns-browser.ts';
import { createLanPeer } from '../ui/lan-peer.ts';

const SERVICE = '_tabletop-relay._tcp.local';
// Without root and `ip` there is no other machine to listen from; in CI createLanPeer fails rather than skip.
const peer = await createLanPeer();
let relay: TestRelay;
let browser: MdnsBrowser;

/** The relay's service record on `port`: other relays on this computer (other tests) advertise other ports. */
const serviceOn = (port: number, live: boolean) => (record: HeardRecord) =>
  record.type === 'SRV' && record.name.endsWith(`.${SERVICE}`) && record.data.port === port && live === record.ttl > 0;

/** Asks for the service and says whether a live record of the relay on `port` came back within 1.5 s. */
async function answersBrowse(port: number): Promise<boolean> {
  const since = browser.heard.length;
  browser.query(SERVICE);
  return browser.waitFor(serviceOn(port, true), { since, timeoutMs: 1500 }).then(
    () => true,
    () => false,
  );
}

async function setLanAccess(on: boolean): Promise<void> {
  expect((await relay.admin('PATCH', '/admin/settings', { lanAccess: on })).status).toBe(200);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!peer)('the LAN advertisement heard from another machine', () => {
  beforeAll(async () => {
    relay = await startTestRelay();
    browser = await startMdnsBrowser(peer!.peerAddress, peer!.namespace);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
    await peer?.close();
  });

  it('is not there while LAN access is off', async () => {
    expect(await answersBrowse(relay.relay.port)).toBe(false);
  });

  it('is announced and answers a browse when LAN access is switched on, with the address the LAN reaches', async () => {
    const port = relay.relay.port;
    const since = browser.heard.length;
    await setLanAccess(true);

    const announced = await browser.waitFor(serviceOn(port, true), { since });
    expect(announced.from).toBe(peer!.hostAddress);
    const address = await browser.waitFor(
      (record) => record.type === 'A' && record.name === announced.data.target && record.ttl > 0,
      { since },
    );
    expect(address.data).toBe(peer!.hostAddress);
    const text = await browser.waitFor((record) => record.type === 'TXT' && record.name === announced.name, { since });
    expect(text.data).toEqual(expect.arrayContaining(['api=/', 'wellknown=/.well-known/tabletop-relay']));
    expect(await answersBrowse(port)).toBe(true);

    // What the advertisement points at answers from the peer's side.
    const document = await peer!.get(`http://${address.data}:${announced.data.port}${'/.well-known/tabletop-relay'}`);
    expect(document.status).toBe(200);
    expect(JSON.parse(document.body).lan).toMatchObject({
      access: true,
      urls: [`http://${peer!.hostAddress}:${port}`],
    });
  });

  it('follows the port: a goodbye for the old one, the new one announced', async () => {
    const oldPort = relay.relay.port;
    const newPort = await freePort();
    const since = browser.heard.length;
    expect((await relay.admin('PATCH', '/admin/settings', { port: newPort })).status).toBe(200);

    await browser.waitFor(serviceOn(oldPort, false), { since });
    await browser.waitFor(serviceOn(newPort, true), { since });
    expect(await answersBrowse(newPort)).toBe(true);
    expect(await answersBrowse(oldPort)).toBe(false);
  });

  it('is withdrawn while the relay is paused and back when it resumes', async () => {
    const port = relay.relay.port;
    let since = browser.heard.length;
    expect((await relay.admin('POST', '/admin/pause')).status).toBe(200);
    await browser.waitFor(serviceOn(port, false), { since });
    expect(await answersBrowse(port)).toBe(false);

    since = browser.heard.length;
    expect((await relay.admin('POST', '/admin/resume')).status).toBe(200);
    await browser.waitFor(serviceOn(port, true), { since });
  });

  it('says goodbye when LAN access is switched off, and answers no more', async () => {
    const port = relay.relay.port;
    const since = browser.heard.length;
    await setLanAccess(false);

    await browser.waitFor(serviceOn(port, false), { since });
    expect(await answersBrowse(port)).toBe(false);
  });

  it('says goodbye when the relay stops', async () => {
    const stopping = await startTestRelay({ settings: { lanAccess: true } });
    const port = stopping.relay.port;
    await browser.waitFor(serviceOn(port, true));
    const since = browser.heard.length;
    await stopping.close();
    await browser.waitFor(serviceOn(port, false), { since });
    expect(await answersBrowse(port)).toBe(false);
  });
});
