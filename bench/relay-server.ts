// Bench child: the relay, started as the library starts it, with the fast peer connected as a paired world.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRelay } from '../relay/relay.ts';
import { connectPeer } from './peer.ts';
import { BENCH_CLIENT_ID, serveParent } from './server-child.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'ttr-bench-'));
// The limits stay on, set high enough that the load never reaches them: their cost is measured, not their refusals.
// BENCH_JOURNAL=off runs it without the change journal, for bench/journal.ts to compare a write with and without.
const relay = createRelay({
  dataDir,
  port: 0,
  settings: {
    requestsPerMinute: 1_000_000_000,
    streamsPerKey: 10_000,
    journalChanges: process.env.BENCH_JOURNAL !== 'off',
  },
});
await relay.start();
const { token } = relay.services.connectionTokens.issue(BENCH_CLIENT_ID, 'Benchmark world', 'demo');
const { key } = relay.services.keys.create({
  name: 'bench',
  scopes: ['roll:read', 'roll:execute', 'clients:read', 'search', 'sheet:read', 'events:subscribe', 'entity:write'],
});
const peer = await connectPeer({ serverUrl: relay.url, clientId: BENCH_CLIENT_ID, token });

serveParent({
  url: relay.url,
  apiKey: key,
  peer,
  counters: () => ({
    pendingWorldRequests: relay.services.tabletop.pending.size,
    openEventStreams: relay.services.events.total(),
    connectedWorlds: relay.services.tabletop.worlds().length,
  }),
  stop: async () => {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
});
