import type { ServerResponse } from 'node:http';
import type { RelayServices } from '../services.ts';
import { relayStatus } from './status.ts';
import type { ActivityEntry } from './activity.ts';

const STATUS_SETTLE_MS = 100;
const KEEPALIVE_MS = 15_000;

/** The settings UI's live feed: the status when it changes (bursts settle first), each API call as it happens. */
export function openAdminFeed(services: RelayServices, response: ServerResponse): void {
  response.socket?.setTimeout(0);
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  const send = (name: string, data: unknown) => response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  send('status', relayStatus(services));
  let pending: NodeJS.Timeout | undefined;
  const onStatus = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      send('status', relayStatus(services));
    }, STATUS_SETTLE_MS);
  };
  const onActivity = (entry: ActivityEntry) => send('activity', entry);
  const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
  services.changes.on('status', onStatus);
  services.activity.on('entry', onActivity);
  response.on('close', () => {
    clearTimeout(pending);
    clearInterval(keepalive);
    services.changes.off('status', onStatus);
    services.activity.off('entry', onActivity);
  });
}
