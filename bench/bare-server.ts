// Bench child: the bare forwarder with the same fast peer connected.
import { startBareForwarder } from './bare-forwarder.ts';
import { connectPeer } from './peer.ts';
import { BENCH_CLIENT_ID, serveParent } from './server-child.ts';

const forwarder = await startBareForwarder();
const peer = await connectPeer({ serverUrl: forwarder.url, clientId: BENCH_CLIENT_ID, token: 'any' });

serveParent({ url: forwarder.url, apiKey: 'unused', peer, counters: () => ({}), stop: () => forwarder.stop() });
