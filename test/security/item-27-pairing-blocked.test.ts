// Issue 23, item 6: pairing could be blocked at will. Wrong codes from the LAN kept the relay-wide ceiling empty, so a
// code the GM had just issued was refused; a web page in the GM's browser (the pairing paths answer any origin) locked
// 127.0.0.1, the address of the GM's own Foundry tab, whose status poll then got 429. Here: the LAN from a network
// namespace's addresses, the web page and the Foundry tab in real Chromium.
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.ts';
import { createSandboxWorld, exchangePairingCode } from '../../sandbox/index.ts';
import { fromLan, setLanAccess } from '../harness/lan.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { createLanPeer } from '../ui/lan-peer.ts';
import { serveOtherOriginPage, type OtherOriginPage } from './other-origin-page.ts';

// Twelve machines on the LAN; without namespaces (outside CI only) the LAN attack is skipped.
const peer = await createLanPeer({ machines: 12 });

let relay: TestRelay;
let browser: Browser;
const pages: OtherOriginPage[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, 30_000);

// Each attack on a relay of its own: the ceiling one leaves the relay over its ceiling for a while.
beforeEach(async () => {
  relay = await startTestRelay();
});
afterEach(() => relay.close());

afterAll(async () => {
  await browser?.close();
  for (const page of pages) await page.close();
  await peer?.close();
});

/** A tab on a page of its own origin (another port of 127.0.0.1), as a page the GM opens is. */
async function tabOnOwnOrigin(): Promise<{ tab: Page; origin: string }> {
  const site = await serveOtherOriginPage();
  pages.push(site);
  const tab = await browser.newPage();
  await tab.goto(site.origin);
  return { tab, origin: site.origin };
}

interface Fetched {
  status: number;
  body: any;
}

/** A fetch from the tab's page, with the page's own Origin, as its script would make it. */
function fetchIn(tab: Page, url: string, body?: unknown): Promise<Fetched> {
  return tab.evaluate(
    async (target, json) => {
      const answer = await fetch(
        target,
        json === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: json },
      );
      return { status: answer.status, body: await answer.json() };
    },
    url,
    body === undefined ? undefined : JSON.stringify(body),
  );
}

const wrongCode = (from: string) => ({
  method: 'POST',
  path: '/auth/pair',
  from,
  body: { code: 'ZZZZZZ', worldId: 'guess', serverFingerprint: 'f'.repeat(32) },
});

describe('item 27: nobody else can keep the GM from pairing', () => {
  it.skipIf(!peer)(
    "wrong codes from the LAN that keep the relay's ceiling empty do not refuse the code the GM just issued",
    async () => {
      await setLanAccess(relay, true);
      const [first, ...machines] = peer!.peerAddresses;
      // 30 wrong codes from ten machines empty the relay-wide allowance, then the guessing goes on.
      const spread = await fromLan(
        relay,
        peer!,
        [first!, ...machines.slice(0, 9)].flatMap((from) => [wrongCode(from), wrongCode(from), wrongCode(from)]),
      );
      expect(spread.every((answer) => answer.status === 404)).toBe(true);
      const [stillGuessing] = await fromLan(relay, peer!, [wrongCode(first!)]);
      expect(stillGuessing!.status).toBe(429);

      // The GM issues a code; the world on the GM's computer pairs with it at once.
      const keep = createSandboxWorld({ seed: 27, worldId: 'keep', worldTitle: 'The Keep' });
      const issued = (await relay.admin('POST', '/admin/pairing-codes', {})).body.code as string;
      const paired = await exchangePairingCode(keep, { httpBase: relay.baseUrl, code: issued });
      expect(paired.clientId).toMatch(/^fvtt_/);

      // So does a Foundry server on another machine of the LAN, still while the guessing goes on.
      const another = (await relay.admin('POST', '/admin/pairing-codes', {})).body.code as string;
      const [meanwhile, fromLanFoundry, guessedAgain] = await fromLan(relay, peer!, [
        wrongCode(machines[1]!),
        {
          method: 'POST',
          path: '/auth/pair',
          from: machines[10]!,
          body: { code: another, worldId: 'tower', worldTitle: 'The Tower' },
        },
        wrongCode(machines[1]!),
      ]);
      expect(meanwhile!.status).toBe(429);
      expect(fromLanFoundry!.status, fromLanFoundry!.body).toBe(200);
      expect(fromLanFoundry!.json.token).toMatch(/^[0-9a-f]{64}$/);
      expect(guessedAgain!.status).toBe(429);
    },
  );

  it("a web page's wrong codes and made-up polls hold up neither the GM's Foundry tab nor its poll", async () => {
    const { tab: evil } = await tabOnOwnOrigin();
    const { tab: foundry, origin: foundryOrigin } = await tabOnOwnOrigin();
    const base = relay.baseUrl;

    // The Foundry tab asks to pair, as the module does, and starts polling.
    const asked = await fetchIn(foundry, `${base}/auth/pair-request`, { worldId: 'hall', worldTitle: 'The Hall' });
    expect(asked.status).toBe(201);
    const statusUrl = `${base}/auth/pair-request/${asked.body.code}/status`;

    // The other page guesses: pairing codes, and request codes on the status poll.
    const guesses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      guesses.push((await fetchIn(evil, `${base}/auth/pair`, { code: `AAAAA${attempt}`, worldId: 'hall' })).status);
      guesses.push((await fetchIn(evil, `${base}/auth/pair-request/GUESS${attempt}AAAAAAAAAA/status`)).status);
    }

    // The Foundry tab's poll goes on; the GM approves; the tab collects its code and pairs.
    expect(await fetchIn(foundry, statusUrl)).toEqual({ status: 200, body: { status: 'pending' } });
    expect((await relay.admin('POST', `/admin/pair-requests/${asked.body.code}/approve`, {})).status).toBe(200);
    const approved = await fetchIn(foundry, statusUrl);
    expect(approved.body.status).toBe('approved');
    const exchanged = await fetchIn(foundry, `${base}/auth/pair`, {
      code: approved.body.pairingCode,
      worldId: 'hall',
      worldTitle: 'The Hall',
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.token).toMatch(/^[0-9a-f]{64}$/);
    const tokens = relay.relay.services.connectionTokens.list();
    expect(tokens.find((token) => token.clientId === exchanged.body.clientId)?.origin).toBe(foundryOrigin);

    // The page's own guessing was held up: after 5 wrong codes it waits; its polls of made-up requests find nothing.
    const codeGuesses = guesses.filter((_, index) => index % 2 === 0);
    expect(codeGuesses.slice(0, 5)).toEqual(Array(5).fill(404));
    expect(codeGuesses).toContain(429);
    expect(guesses.filter((_, index) => index % 2 === 1)).toEqual(Array(8).fill(404));
  });
});
