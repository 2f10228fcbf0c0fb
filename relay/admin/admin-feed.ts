import type { ServerResponse } from 'node:http';
import type { PairRequest } from '../auth/pairing.ts';
import type { RelayServices } from '../services.ts';
import { liveCounters, liveStatus, pairRequestView, pairRequestViews } from './status.ts';
import type { ActivityEntry } from './activity.ts';

const STATUS_SETTLE_MS = 100;
const KEEPALIVE_MS = 15_000;
/** Calls in the last minute change with every call and as calls age: looked at once a second, sent only when changed. */
const COUNTERS_CHECK_MS = 1000;

/**
 * The settings UI's live feed. It sends changes, never the same thing twice: the status (without pair requests) when it
 * changed, bursts settled first; the waiting pair requests once, then each request that appears or changes on its own;
 * each API call as it happens.
 */
export function openAdminFeed(services: RelayServices, response: ServerResponse): void {
  response.socket?.setTimeout(0);
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  const sendText = (name: string, json: string) => response.write(`event: ${name}\ndata: ${json}\n\n`);
  const send = (name: string, data: unknown) => sendText(name, JSON.stringify(data));
  let lastStatus = JSON.stringify(liveStatus(services));
  sendText('status', lastStatus);
  send('pair-requests', { pairRequests: pairRequestViews(services) });
  let pending: NodeJS.Timeout | undefined;
  const onStatus = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      const status = JSON.stringify(liveStatus(services));
      if (status === lastStatus) return;
      lastStatus = status;
      sendText('status', status);
    }, STATUS_SETTLE_MS);
  };
  const onPairRequest = (request: PairRequest) => send('pair-request', pairRequestView(request, services));
  const onActivity = (entry: ActivityEntry) => send('activity', entry);
  const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
  let lastCounters = JSON.stringify(liveCounters(services));
  const countersCheck = setInterval(() => {
    const counters = JSON.stringify(liveCounters(services));
    if (counters === lastCounters) return;
    lastCounters = counters;
    sendText('counters', counters);
  }, COUNTERS_CHECK_MS);
  services.changes.on('status', onStatus);
  services.pairing.on('changed', onPairRequest);
  services.activity.on('entry', onActivity);
  response.on('close', () => {
    clearTimeout(pending);
    clearInterval(keepalive);
    clearInterval(countersCheck);
    services.changes.off('status', onStatus);
    services.pairing.off('changed', onPairRequest);
    services.activity.off('entry', onActivity);
  });
}
